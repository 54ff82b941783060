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

/** Tuning that keeps a slow, hung or absent Redis from holding requests up. */
export const REDIS_TIMEOUTS = {
  /** Default of REDIS_COMMAND_TIMEOUT_MS: a command that takes longer fails, and the request goes on. */
  commandMs: 500,
  connectMs: 2_000,
  /** Reconnection backs off to at most this; it never gives up, so Redis coming back is noticed. */
  maxReconnectDelayMs: 5_000,
  /** While Redis is out, a PING checks this often whether it answers again. */
  probeIntervalMs: 1_000,
} as const;

/** The Redis connection shared by the rate limiters and the readiness check. */
export interface SharedRedis {
  readonly prefix: string;
  /** Counts one hit on `key` in a window of `windowMs`; rejects when Redis cannot answer now. */
  hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }>;
  /** The count of `key`'s current window and its milliseconds left, without counting (null: no window). */
  peek(key: string): Promise<{ current: number; ttl: number } | null>;
  /** True when Redis answers a PING within the command timeout. */
  ping(): Promise<boolean>;
  /** Starts connecting in the background; never throws, never waits. */
  connect(): void;
  close(): Promise<void>;
}

/** Removes credentials from anything that looks like a connection address. */
const redactCredentials = (text: string): string => text.replace(/\/\/[^/@\s]*@/g, '//[redacted]@');

/**
 * Opens (lazily) the Redis client named by `REDIS_URL`. Failures never surface to requests, and
 * cost them at most one command timeout, once per outage: a circuit breaker.
 *
 * - While Redis answers, each command may take up to `commandTimeoutMs`.
 * - The first command that fails — refused, reset, or not answered in time (a Redis that hangs
 *   keeps its connections open and simply never answers) — starts an outage: from then on every
 *   command fails at once, without touching Redis, and the limiters fail open. One warning is
 *   logged.
 * - Meanwhile a PING every `probeIntervalMs` (in the background, never on a request) checks
 *   whether Redis answers again; the first answer ends the outage, logged once, and commands go
 *   to Redis again. The client also reconnects by itself when the connection was lost.
 */
export function openSharedRedis(url: string, prefix: string, log: FastifyBaseLogger, commandTimeoutMs: number = REDIS_TIMEOUTS.commandMs): SharedRedis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    commandTimeout: commandTimeoutMs,
    // Commands issued while (re)connecting wait in the offline queue, bounded by the command
    // timeout; once a reconnection attempt fails they are rejected rather than retried.
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 10), REDIS_TIMEOUTS.maxReconnectDelayMs),
  });
  client.defineCommand('ticketingRateWindow', { numberOfKeys: 1, lua: WINDOW_SCRIPT });

  let out = false;
  let closed = false;
  let probe: NodeJS.Timeout | undefined;

  const startOutage = (what: string, error: unknown): void => {
    if (out || closed) return;
    out = true;
    const err = error as { code?: unknown; name?: unknown; message?: unknown } | null;
    log.warn(
      { redis: { code: err?.code ?? err?.name, message: redactCredentials(String(err?.message ?? error)) } },
      `Redis ${what}: rate limits are not enforced (requests are let through) until it is reachable again`,
    );
    probe = setInterval(() => void probeOnce(), REDIS_TIMEOUTS.probeIntervalMs).unref();
  };

  let probing = false;
  const probeOnce = async (): Promise<void> => {
    // A lost connection is re-established by the client itself; only a ready one can be asked.
    if (probing || client.status !== 'ready') return;
    probing = true;
    try {
      if ((await client.ping()) === 'PONG') endOutage();
    } catch {
      // Still out: the next probe tries again.
    } finally {
      probing = false;
    }
  };

  const endOutage = (): void => {
    if (!out || closed) return;
    out = false;
    clearInterval(probe);
    log.warn('Redis is reachable again: shared rate limits are enforced again');
  };

  // Without a listener ioredis prints every connection error to the console itself.
  client.on('error', (error: unknown) => startOutage('is unreachable', error));
  // A new connection is ready: ask at once rather than at the next tick of the probe.
  client.on('ready', () => {
    if (out) void probeOnce();
  });

  /**
   * Fail at once while an outage lasts, and while the connection is known to be gone. Only the
   * very first connection queues commands (for at most the command timeout), so requests at
   * start-up are still counted.
   */
  const unavailable = (): boolean =>
    out || client.status === 'reconnecting' || client.status === 'close' || client.status === 'end';

  return {
    prefix,
    async hit(key, windowMs) {
      if (unavailable()) {
        const error = new Error('Redis is unavailable');
        startOutage('is unreachable', error);
        throw error;
      }
      try {
        const [current, ttl] = await client.ticketingRateWindow(`${prefix}ratelimit:${key}`, windowMs);
        return { current: Number(current), ttl: Number(ttl) };
      } catch (error) {
        startOutage('did not answer', error);
        throw error;
      }
    },
    async peek(key) {
      if (unavailable()) {
        const error = new Error('Redis is unavailable');
        startOutage('is unreachable', error);
        throw error;
      }
      try {
        const name = `${prefix}ratelimit:${key}`;
        const answers = await client.multi().get(name).pttl(name).exec();
        const current = Number(answers?.[0]?.[1] ?? 0);
        const ttl = Number(answers?.[1]?.[1] ?? -2);
        return current > 0 && ttl > 0 ? { current, ttl } : null;
      } catch (error) {
        startOutage('did not answer', error);
        throw error;
      }
    },
    async ping() {
      if (unavailable()) return false;
      try {
        return (await client.ping()) === 'PONG';
      } catch (error) {
        startOutage('did not answer', error);
        return false;
      }
    },
    connect() {
      if (client.status === 'wait') client.connect().catch(() => undefined);
    },
    async close() {
      closed = true;
      clearInterval(probe);
      if (client.status === 'ready' && !out) {
        await client.quit().catch(() => client.disconnect());
      } else {
        client.disconnect();
      }
    },
  };
}
