import { Redis } from 'ioredis';

/** The Redis the suites use: REDIS_URL, or the local default. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Whether the suite named `suite` can run against TEST_REDIS_URL. Under CI=true an unreachable Redis
 * throws (the suite fails, it never skips); elsewhere the suite is skipped, saying so.
 */
export async function requireRedis(suite: string): Promise<boolean> {
  if (await redisReachable(TEST_REDIS_URL)) return true;
  const host = new URL(TEST_REDIS_URL).host;
  if (process.env.CI === 'true') throw new Error(`The ${suite} suite must run under CI, but Redis at ${host} is unreachable`);
  console.warn(`[${suite}] SKIPPED: no Redis reachable at ${host} (set REDIS_URL to run these tests)`);
  return false;
}
