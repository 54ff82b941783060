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

/**
 * A Redis of the test's own: `redis-server` on a free port, without persistence, that the test can
 * freeze (SIGSTOP: the process keeps its connections but answers nothing, as a hung Redis does)
 * and thaw (SIGCONT). Under CI=true a missing `redis-server` fails the suite; elsewhere it returns
 * null and the suite skips, saying so.
 */
export interface PrivateRedis {
  url: string;
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

export async function startPrivateRedis(suite: string): Promise<PrivateRedis | null> {
  const { spawn, spawnSync } = await import('node:child_process');
  const { createServer } = await import('node:net');
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) {
    if (process.env.CI === 'true') throw new Error(`The ${suite} suite must run under CI, but redis-server is not installed`);
    console.warn(`[${suite}] SKIPPED: redis-server is not installed`);
    return null;
  }
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await redisReachable(url))) {
    if (Date.now() > deadline || proc.exitCode !== null) {
      proc.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    freeze: () => proc.kill('SIGSTOP'),
    thaw: () => proc.kill('SIGCONT'),
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
