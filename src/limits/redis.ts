import type { FastifyBaseLogger } from 'fastify';
import { Redis, type Result } from 'ioredis';

/**
 * One fixed window per key, atomically: the first hit of a window creates the counter and its
 * expiry in the same script, so concurrent processes can never leave a counter without a TTL or
 * count one request twice. (A counter found without a TTL, e.g. one left by a manual SET, is given
 * one rather than living forever.) Same semantics as @fastify/rate-limit's own Redis store.
 */
const WINDOW_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    ticketingRateWindow(key: string, windowMs: number): Result<[number, number], Context>;
  }
}

/** Tuning that keeps a slow or absent Redis from holding requests up. */
export const REDIS_TIMEOUTS = {
  /** A command (a counter increment, a readiness ping) that takes longer fails, and the request goes on. */
  commandMs: 500,
  connectMs: 2_000,
  /** Reconnection backs off to at most this; it never gives up, so Redis coming back is noticed. */
  maxReconnectDelayMs: 5_000,
  /** Outage warnings are logged at most once per this interval. */
  warnIntervalMs: 30_000,
} as const;

/** The Redis connection shared by the rate limiters and the readiness check. */
export interface SharedRedis {
  readonly prefix: string;
  /** Counts one hit on `key` in a window of `windowMs`; rejects when Redis cannot answer now. */
  hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }>;
  /** True when Redis answers a PING within the command timeout. */
  ping(): Promise<boolean>;
  /** Starts connecting in the background; never throws, never waits. */
  connect(): void;
  close(): Promise<void>;
}

/** Removes credentials from anything that looks like a connection address. */
const redactCredentials = (text: string): string => text.replace(/\/\/[^/@\s]*@/g, '//[redacted]@');

/**
 * Opens (lazily) the Redis client named by `REDIS_URL`. Failures never surface to requests: a
 * command that cannot be served rejects at once (or after the short command timeout), the caller
 * fails open, and a warning is logged at most once per `warnIntervalMs`.
 */
export function openSharedRedis(url: string, prefix: string, log: FastifyBaseLogger): SharedRedis {
  let lastWarning = 0;
  let degraded = false;
  const warn = (what: string, error: unknown): void => {
    degraded = true;
    const now = Date.now();
    if (now - lastWarning < REDIS_TIMEOUTS.warnIntervalMs) return;
    lastWarning = now;
    const err = error as { code?: unknown; name?: unknown; message?: unknown } | null;
    log.warn(
      { redis: { code: err?.code ?? err?.name, message: redactCredentials(String(err?.message ?? error)) } },
      `Redis ${what}: rate limits are not enforced (requests are let through) until it is reachable again`,
    );
  };

  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    commandTimeout: REDIS_TIMEOUTS.commandMs,
    // Commands issued while (re)connecting wait in the offline queue, bounded by the command
    // timeout; once a reconnection attempt fails they are rejected rather than retried.
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 10), REDIS_TIMEOUTS.maxReconnectDelayMs),
  });
  client.defineCommand('ticketingRateWindow', { numberOfKeys: 1, lua: WINDOW_SCRIPT });
  // Without a listener ioredis prints every connection error to the console itself.
  client.on('error', (error: unknown) => warn('is unreachable', error));
  client.on('ready', () => {
    if (!degraded) return;
    degraded = false;
    lastWarning = 0;
    log.warn('Redis is reachable again: shared rate limits are enforced again');
  });

  /**
   * Redis is known to be down while a reconnection is pending, and during every reconnection
   * attempt after a failure: fail at once instead of queueing. Only the very first connection
   * queues commands (for at most the command timeout), so requests at start-up are still counted.
   */
  const knownDown = (): boolean => {
    if (client.status === 'ready') return false;
    return degraded || client.status === 'reconnecting' || client.status === 'close' || client.status === 'end';
  };

  return {
    prefix,
    async hit(key, windowMs) {
      if (knownDown()) {
        const error = new Error('Redis connection is down');
        warn('is unreachable', error);
        throw error;
      }
      try {
        const [current, ttl] = await client.ticketingRateWindow(`${prefix}ratelimit:${key}`, windowMs);
        return { current: Number(current), ttl: Number(ttl) };
      } catch (error) {
        warn('did not answer', error);
        throw error;
      }
    },
    async ping() {
      if (knownDown()) return false;
      try {
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    connect() {
      if (client.status === 'wait') client.connect().catch(() => undefined);
    },
    async close() {
      if (client.status === 'ready') {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
}
