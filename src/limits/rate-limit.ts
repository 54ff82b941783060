import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { errors } from '../errors.js';
import { addRouteHook } from '../shared/route-hooks.js';
import { openSharedRedis, type SharedRedis } from './redis.js';

/**
 * Per-key rate limits (docs/api-behaviour.md#keys-and-limits) through @fastify/rate-limit: admin and read-only keys
 * have their own budgets per minute, with draft-standard RateLimit-* headers on every
 * authenticated response and Retry-After on 429. Requests that fail authentication are counted
 * per client address, so keys cannot be guessed at speed.
 *
 * The per-key check is the last of each authenticated route's own onRequest hooks, after the
 * authentication hook (the first), so 401 comes before 429.
 *
 * With `REDIS_URL` the counters live in Redis, so every process shares each budget, and the plugin
 * counts them; without it they live in this process and a synchronous hook of this module counts
 * the per-key budgets (the plugin still counts failed authentications and uploads). Resolves to
 * the Redis connection (for the readiness check), or null.
 */
export async function registerRateLimits(app: FastifyInstance, appConfig: Config): Promise<SharedRedis | null> {
  const config = appConfig.rateLimit;
  const redis = appConfig.redisUrl ? openSharedRedis(appConfig.redisUrl, appConfig.redisPrefix, app.log, appConfig.redisCommandTimeoutMs) : null;
  if (redis) {
    // Connect in the background: a Redis that is down must not stop the service from starting.
    app.addHook('onReady', async () => redis.connect());
    app.addHook('onClose', async () => redis.close());
  }
  // Every authenticated route takes part and shares one store, so a key has one budget across all
  // routes (a per-route `config.rateLimit` object would give each route its own store, i.e. its
  // own budget). Routes without authentication opt out. Without Redis the budgets are counted by
  // this module's own synchronous hook (keyBudgetHook): the plugin's awaits three promises a request.
  const keyBudget = redis ? null : keyBudgetHook(config);
  app.addHook('onRoute', (route) => {
    if (route.config?.rateLimit !== undefined) return;
    if (!route.config?.auth || keyBudget) route.config = { ...route.config, rateLimit: false };
    if (route.config.auth && keyBudget) addRouteHook(route, 'onRequest', keyBudget);
  });
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    enableDraftSpec: true,
    timeWindow: config.windowMs,
    keyGenerator: (request: FastifyRequest) => `key:${request.auth?.principalId ?? request.ip}`,
    max: (request: FastifyRequest) => budgetOf(request.auth, config),
    errorResponseBuilder: (_request, context) => errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
    // Fail open: when the store cannot answer, the request goes on uncounted (and is logged by
    // the Redis client) instead of failing; an outage of Redis must never become a 500.
    skipOnError: true,
    ...(redis ? { store: redisStore(redis) } : {}),
  });
  return redis;
}

/**
 * Requests per window: read-only keys have the small budget; admin keys and signed-in users (all
 * of a user's sessions together, admins and agents alike) the admin budget.
 */
function budgetOf(auth: FastifyRequest['auth'], config: Config['rateLimit']): number {
  return auth === null || auth.role === 'readonly' ? config.readonlyPerMinute : config.adminPerMinute;
}

/** Distinct keys counted in this process; past it the window that started first is forgotten. */
const MAX_COUNTED_KEYS = 10_000;

/**
 * The per-key budgets in this process, decided synchronously: the same fixed window per key as
 * @fastify/rate-limit's local store (it starts with the key's first request and lasts `windowMs`;
 * the request past the budget is 429 until it ends), the same RateLimit-* headers on every
 * answer, and Retry-After with the 429. Runs after authentication (the route's first onRequest
 * hook), so the key is known; a request without one never gets here.
 */
function keyBudgetHook(config: Config['rateLimit']) {
  const windows = new Map<string, { count: number; startMs: number }>();
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    const auth = request.auth;
    const key = auth === null ? `ip:${request.ip}` : auth.principalId;
    const max = budgetOf(auth, config);
    const now = Date.now();
    let window = windows.get(key);
    if (window === undefined || window.startMs + config.windowMs <= now) {
      // Re-inserted, so the map's first entry is always the window that started first.
      if (window !== undefined) windows.delete(key);
      else if (windows.size >= MAX_COUNTED_KEYS) windows.delete(windows.keys().next().value!);
      window = { count: 0, startMs: now };
      windows.set(key, window);
    }
    const count = ++window.count;
    const resetSeconds = Math.ceil((config.windowMs - (now - window.startMs)) / 1000);
    void reply.header('ratelimit-limit', max);
    void reply.header('ratelimit-remaining', Math.max(0, max - count));
    void reply.header('ratelimit-reset', resetSeconds);
    if (count <= max) return done();
    done(errors.rateLimited(Math.max(1, resetSeconds)));
  };
}

/**
 * A @fastify/rate-limit store over the shared Redis connection. Every limiter (the per-key one and
 * the per-address one for failed authentication) uses the same keyspace: their keys differ by
 * their own prefixes (`key:`, `authfail:`), so `child` needs no namespace of its own.
 */
function redisStore(redis: SharedRedis): FastifyRateLimitStoreCtor {
  class RedisWindowStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      redis.hit(key, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return RedisWindowStore;
}

/** The per-address counter of failed authentications; resolves to seconds to wait when over. */
export function authFailureLimiter(app: FastifyInstance, config: Config['rateLimit']) {
  const limiter = app.createRateLimit({
    max: config.authFailuresPerMinute,
    timeWindow: config.windowMs,
    keyGenerator: (request: FastifyRequest) => `authfail:${request.ip}`,
  });
  return async (request: FastifyRequest): Promise<number | null> => {
    const result = await limiter(request);
    return !result.isAllowed && result.isExceeded ? Math.max(1, result.ttlInSeconds) : null;
  };
}

/**
 * Attachment uploads per API key and minute, on top of the key's request budget: a key within its
 * 2,000 requests could still write 60 GB a minute. Counted in the same store as every budget (Redis
 * when REDIS_URL is set, so shared by every process); resolves to seconds to wait when over.
 */
export function uploadRateLimiter(app: FastifyInstance, config: Config['rateLimit']) {
  const limiter = app.createRateLimit({
    max: config.uploadsPerMinute,
    timeWindow: config.windowMs,
    keyGenerator: (request: FastifyRequest) => `upload:${request.auth?.principalId ?? request.ip}`,
  });
  return async (request: FastifyRequest): Promise<number | null> => {
    const result = await limiter(request);
    return !result.isAllowed && result.isExceeded ? Math.max(1, result.ttlInSeconds) : null;
  };
}
