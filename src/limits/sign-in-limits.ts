import type { Config } from '../config.js';
import type { SharedRedis } from './redis.js';

/** A counter of failed sign-ins and how many it allows in a window. */
export interface SignInCounter {
  key: string;
  max: number;
}

/**
 * Failed sign-ins per account and per client address (docs/api-behaviour.md, "Signing in"): one
 * fixed window per counter, started by its first failure. Unlike request budgets, only failures
 * count, so a check (`retryAfter`) and a count (`fail`) are apart. In Redis when REDIS_URL is set,
 * so a fleet shares them; else in this process. Like every limit here it fails open when Redis
 * cannot answer.
 */
export interface SignInLimiter {
  /** Seconds to wait when any counter has reached its limit; null when none has. */
  retryAfter(counters: readonly SignInCounter[]): Promise<number | null>;
  /** Counts one failure on each counter. */
  fail(counters: readonly SignInCounter[]): Promise<void>;
}

/** Distinct counters held in this process; past it the window that started first is forgotten. */
const MAX_LOCAL_COUNTERS = 10_000;

export function signInLimiter(redis: SharedRedis | null, config: Config['rateLimit']): SignInLimiter {
  const windowMs = config.signInWindowMs;
  const secondsOf = (ttlMs: number) => Math.max(1, Math.ceil(ttlMs / 1000));
  if (redis) {
    return {
      async retryAfter(counters) {
        let wait: number | null = null;
        for (const counter of counters) {
          const window = await redis.peek(`signin:${counter.key}`).catch(() => null);
          if (window !== null && window.current >= counter.max) wait = Math.max(wait ?? 0, secondsOf(window.ttl));
        }
        return wait;
      },
      async fail(counters) {
        await Promise.all(counters.map((c) => redis.hit(`signin:${c.key}`, windowMs).catch(() => undefined)));
      },
    };
  }
  const windows = new Map<string, { count: number; startMs: number }>();
  const current = (key: string, now: number) => {
    const window = windows.get(key);
    if (window === undefined || window.startMs + windowMs <= now) return undefined;
    return window;
  };
  return {
    async retryAfter(counters) {
      const now = Date.now();
      let wait: number | null = null;
      for (const counter of counters) {
        const window = current(counter.key, now);
        if (window !== undefined && window.count >= counter.max) wait = Math.max(wait ?? 0, secondsOf(window.startMs + windowMs - now));
      }
      return wait;
    },
    async fail(counters) {
      const now = Date.now();
      for (const counter of counters) {
        let window = current(counter.key, now);
        if (window === undefined) {
          windows.delete(counter.key);
          if (windows.size >= MAX_LOCAL_COUNTERS) windows.delete(windows.keys().next().value!);
          window = { count: 0, startMs: now };
          windows.set(counter.key, window);
        }
        window.count += 1;
      }
    },
  };
}
