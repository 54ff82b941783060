import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { errors } from '../errors.js';

/**
 * Per-key rate limits (spec §8, decisions §9) through @fastify/rate-limit: admin and read-only keys
 * have their own budgets per minute, with draft-standard RateLimit-* headers on every
 * authenticated response and Retry-After on 429. Requests that fail authentication are counted
 * per client address, so keys cannot be guessed at speed.
 *
 * Must be registered after the authentication hook, so it runs after it (401 before 429).
 */
export async function registerRateLimits(app: FastifyInstance, config: Config['rateLimit']): Promise<void> {
  // Every authenticated route takes part; the plugin reads `config.rateLimit` in its onRoute hook.
  app.addHook('onRoute', (route) => {
    if (route.config?.auth && route.config.rateLimit === undefined) {
      route.config = { ...route.config, rateLimit: {} };
    }
  });
  await app.register(rateLimit, {
    global: false,
    hook: 'onRequest',
    enableDraftSpec: true,
    timeWindow: config.windowMs,
    keyGenerator: (request: FastifyRequest) => `key:${request.auth?.keyId ?? request.ip}`,
    max: (request: FastifyRequest) => (request.auth?.role === 'admin' ? config.adminPerMinute : config.readonlyPerMinute),
    errorResponseBuilder: (_request, context) => errors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
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
