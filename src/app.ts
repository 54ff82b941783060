import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import FindMyWay from 'find-my-way';
import { registerAuthentication } from './auth/authenticate.js';
import type { Config } from './config.js';
import type { Store } from './db/store.js';
import { errors, handleError, registerErrorHandler } from './errors.js';
import { registerConditionalRequests } from './http/conditional.js';
import { httpServerOptions, registerConnectionHandling } from './http/connections.js';
import { registerCreatedLocation } from './http/location.js';
import { registerIdempotency } from './idempotency/idempotency.plugin.js';
import { authFailureLimiter, registerRateLimits } from './limits/rate-limit.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.js';
import { commentsRoutes } from './modules/comments/comments.routes.js';
import { customersRoutes } from './modules/customers/customers.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { eventsRoutes } from './modules/events/events.routes.js';
import { createMessageIds } from './modules/mail/mail.message-ids.js';
import { mailRoutes } from './modules/mail/mail.routes.js';
import { mailboxesRoutes } from './modules/mail/mailboxes.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { teamsRoutes } from './modules/teams/teams.routes.js';
import { handlePageError, isPortalPageUrl } from './modules/portal/portal.pages.js';
import { portalRoutes } from './modules/portal/portal.routes.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { storageRoutes } from './storage/storage.routes.js';
import { registerOpenApi } from './openapi/openapi.plugin.js';
import { clientErrorHandler, registerJsonParser, registerJsonSecurityHeaders, registerStrictQueries } from './shared/http-rules.js';
import { addRouteHook, methodsOf } from './shared/route-hooks.js';
import { validatorCompiler } from './shared/validation.js';
import type { BlobStore } from './storage/blob-store.js';
import { createUrlSigner } from './storage/signed-urls.js';

export interface AppDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
}

export const BODY_LIMIT = 1_048_576;

/**
 * Redacts what grants access from logged URLs: the signature of signed download addresses, and
 * the tracking token of portal addresses (JSON and pages), which opens a ticket to whoever has it.
 */
const redactUrl = (url: string): string =>
  url.replace(/([?&]signature=)[^&]*/g, '$1[redacted]').replace(/^(\/+v1\/+portal\/+tickets\/+|\/+portal\/+)[^/?#]+/i, '$1[redacted]');

function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: ['req.headers.authorization'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
    },
  };
}

/** Builds the whole service as a Fastify instance. Never listens: see server.ts. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Timeouts for slow clients and idle connections (src/http/connections.ts).
    ...httpServerOptions(deps.config),
    logger: loggerOptions(deps.config.logLevel),
    bodyLimit: BODY_LIMIT,
    // Behind a reverse proxy the client address (failed-auth limits, logs) comes from X-Forwarded-For.
    trustProxy: deps.config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (a bad percent-encoding, a path parameter over 100 characters)
    // bypass setErrorHandler; same shape for them: JSON, or a page at the portal's page addresses.
    frameworkErrors: (error, request, reply) => {
      void (isPortalPageUrl(request.url) ? handlePageError : handleError)(error, request, reply);
    },
    // Errors of Node's HTTP parser (431, malformed requests) come before routing: same shape for them.
    clientErrorHandler,
  });
  app.setValidatorCompiler(validatorCompiler);
  // First: its onRequest hook must run before authentication, so a browser can read a 401 too.
  await registerCors(app, deps.config.corsOrigins);
  registerErrorHandler(app);
  registerConnectionHandling(app);
  // Writes that fail for lack of space, a read-only store or I/O errors make /readyz fail for a while.
  app.addHook('onError', async (_request, _reply, error) => deps.store.health.observe(error));
  registerMethodNotAllowed(app);
  registerJsonOnly(app);
  registerJsonParser(app);
  registerStrictQueries(app);
  registerJsonSecurityHeaders(app);

  // Order matters: the rate-limit plugin adds its hook per route; authentication is app-level and
  // so runs first (401 before 429), the scope check runs in preParsing (429 before 403).
  const sharedRedis = await registerRateLimits(app, deps.config);
  registerAuthentication(app, {
    db: deps.store.db,
    apiKeysVersion: deps.store.apiKeysVersion,
    versionedReads: deps.store.versionedReads,
    authFailureExceeded: authFailureLimiter(app, deps.config.rateLimit),
  });
  // After authentication (keys are per API key) and its scope check (preParsing runs in order).
  registerIdempotency(app, { db: deps.store.db, requestTimeoutMs: deps.config.http.requestTimeoutMs });
  registerConditionalRequests(app);
  registerCreatedLocation(app);

  // Before every route: the OpenAPI document collects routes as they are added.
  await registerOpenApi(app, { publicUrl: deps.config.publicUrl, enabled: deps.config.docsEnabled });
  await app.register(healthRoutes, { store: deps.store, redis: sharedRedis, config: deps.config });
  await app.register(systemRoutes);
  await app.register(ticketsRoutes, deps);
  await app.register(customersRoutes, deps);
  await app.register(usersRoutes, deps);
  await app.register(teamsRoutes, deps);
  // Mail about tickets is signed with one key per installation; public agent comments are mailed.
  const mailer = { messageIds: createMessageIds(deps.config), publicUrl: deps.config.publicUrl };
  await app.register(commentsRoutes, { ...deps, mailer });
  await app.register(dashboardRoutes, deps);
  await app.register(apiKeysRoutes, deps);
  await app.register(eventsRoutes, deps);
  await app.register(webhooksRoutes, deps);
  await app.register(mailboxesRoutes, deps);
  // One signer for both ends, so the secret is read (or created) once.
  const signer = createUrlSigner(deps.config);
  await app.register(attachmentsRoutes, { ...deps, signer });
  await app.register(storageRoutes, { ...deps, signer });
  await app.register(mailRoutes, { ...deps, mailer });
  await app.register(portalRoutes, {
    ...deps,
    signer,
    perMinute: deps.config.rateLimit.portalPerMinute,
    windowMs: deps.config.rateLimit.windowMs,
  });
  return app;
}

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
];

/**
 * CORS for browser clients on other origins (CORS_ORIGINS; off when unset). Keys travel in the
 * Authorization header, never in cookies, so no credentials mode is needed. Registered before the
 * 405 hook sees routes: the plugin's `OPTIONS *` preflight route must not turn every unknown
 * address into a 405.
 */
async function registerCors(app: FastifyInstance, origins: '*' | string[] | null): Promise<void> {
  if (origins === null) return;
  await app.register(cors, {
    origin: origins,
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    optionsSuccessStatus: 204,
    // The preflight answers for any address, as 204; the real request then gets its real status.
    strictPreflight: false,
  });
}

/** 404 for unknown addresses, 405 with `Allow` for known addresses asked with another method. */
function registerMethodNotAllowed(app: FastifyInstance): void {
  const paths = FindMyWay();
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let known = methodsByPath.get(route.url);
    if (!known) {
      known = new Set();
      methodsByPath.set(route.url, known);
      paths.on('GET', route.url, () => undefined, known);
    }
    for (const m of methods) known.add(m);
  });
  const routeError = (request: FastifyRequest) => {
    // Routes ignore one trailing slash; so does this lookup (else `/v1/tickets/` would match `:ticket_id`).
    const path = (request.url.split('?')[0] ?? '/').replace(/(.)\/$/, '$1');
    const match = paths.find('GET', path);
    const allowed = match?.store as Set<string> | undefined;
    // A route of this very method that found nothing (a static file handler, /docs/static/*) is a 404.
    if (allowed && !allowed.has(request.method)) return errors.methodNotAllowed(request.method, [...allowed].sort());
    return errors.routeNotFound(request.method, request.url);
  };
  // Answered before any body is read (the not-found route would parse it first), so a body sent
  // slowly to an unknown address cannot hold the connection (src/http/connections.ts).
  // Synchronous: it runs on every request, and a promise per request is not free.
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.is404 ? routeError(request) : undefined);
  });
  app.setNotFoundHandler((request) => {
    throw routeError(request);
  });
}

/**
 * POST and PATCH bodies are JSON (decisions §3): anything else is 415, even an empty body, so a
 * client that forgot the header learns why. The upload route (`config.multipart`) and the portal's
 * HTML reply form (`config.form`, which parses only urlencoded bodies) are exempt.
 */
function registerJsonOnly(app: FastifyInstance): void {
  // The route's own hook, on the routes that take a JSON body: reads never run it.
  app.addHook('onRoute', (route) => {
    const methods = methodsOf(route.method);
    if (!methods.includes('POST') && !methods.includes('PATCH')) return;
    if (route.config?.multipart || route.config?.form || !route.schema?.body) return;
    addRouteHook(route, 'preValidation', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      if (request.method !== 'POST' && request.method !== 'PATCH') return done();
      const type = request.headers['content-type'];
      done(!type || !JSON_CONTENT_TYPE.test(type) ? errors.unsupportedMediaType() : undefined);
    });
  });
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes multipart/form-data instead of JSON. */
    multipart?: boolean;
    /** The route takes an HTML form (application/x-www-form-urlencoded) instead of JSON: the portal's reply form. */
    form?: boolean;
  }
}
