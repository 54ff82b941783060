import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Request headers a browser client may send (preflight `Access-Control-Allow-Headers`). */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'Range'];
/** Response headers a browser client may read beyond the simple ones. */
export const CORS_EXPOSED_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'Link',
  'ETag',
  'Location',
  'Content-Disposition',
  'Content-Range',
  'WWW-Authenticate',
  'Idempotent-Replayed',
  'X-Request-Id',
];

/**
 * CORS for browser clients on other origins (CORS_ORIGINS; off when unset). Keys travel in the
 * Authorization header, so no credentials mode is needed; the console's session cookie is
 * SameSite=Strict and used from the service's own origin only, so credentials stay off on purpose. Registered before the
 * 405 hook sees routes: the plugin's `OPTIONS *` preflight route must not turn every unknown
 * address into a 405.
 */
export async function registerCors(app: FastifyInstance, origins: '*' | string[] | null): Promise<void> {
  if (origins === null) return;
  // A list is decided per request: an origin not in it gets no CORS header at all, a preflight
  // included (given the list itself, the plugin still sends Allow-Methods/Allow-Headers to anyone).
  const allowed = origins === '*' ? null : new Set(origins);
  await app.register(cors, {
    origin: allowed === null ? '*' : (origin, cb) => cb(null, origin !== undefined && allowed.has(origin.toLowerCase()) ? origin : false),
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    optionsSuccessStatus: 204,
    // The preflight answers for any address, as 204; the real request then gets its real status.
    strictPreflight: false,
  });
}
