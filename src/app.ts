import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import FindMyWay from 'find-my-way';
import { registerAuthentication } from './auth/authenticate.js';
import type { Config } from './config.js';
import type { Store } from './db/store.js';
import { errors, handleError, registerErrorHandler } from './errors.js';
import { authFailureLimiter, registerRateLimits } from './limits/rate-limit.js';
import { attachmentsRoutes } from './modules/attachments/attachments.routes.js';
import { commentsRoutes } from './modules/comments/comments.routes.js';
import { customersRoutes } from './modules/customers/customers.routes.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { teamsRoutes } from './modules/teams/teams.routes.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { storageRoutes } from './storage/storage.routes.js';
import { validatorCompiler } from './shared/validation.js';
import type { BlobStore } from './storage/blob-store.js';
import { createUrlSigner } from './storage/signed-urls.js';

export interface AppDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
}

export const BODY_LIMIT = 1_048_576;

/** Redacts the signature of signed download addresses from logged URLs: it grants access. */
const redactUrl = (url: string): string => url.replace(/([?&]signature=)[^&]*/g, '$1[redacted]');

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
    logger: loggerOptions(deps.config.logLevel),
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (FST_ERR_BAD_URL) bypass setErrorHandler; same shape for them.
    frameworkErrors: (error, request, reply) => {
      void handleError(error, request, reply);
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandler(app);
  registerMethodNotAllowed(app);
  registerJsonOnly(app);

  // Order matters: the rate-limit plugin adds its hook per route; authentication is app-level and
  // so runs first (401 before 429), the scope check runs in preParsing (429 before 403).
  await registerRateLimits(app, deps.config.rateLimit);
  registerAuthentication(app, { db: deps.store.db, authFailureExceeded: authFailureLimiter(app, deps.config.rateLimit) });

  await app.register(systemRoutes);
  await app.register(ticketsRoutes, deps);
  await app.register(customersRoutes, deps);
  await app.register(usersRoutes, deps);
  await app.register(teamsRoutes, deps);
  await app.register(commentsRoutes, deps);
  // One signer for both ends, so the secret is read (or created) once.
  const signer = createUrlSigner(deps.config);
  await app.register(attachmentsRoutes, { ...deps, signer });
  await app.register(storageRoutes, { ...deps, signer });
  return app;
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
  app.setNotFoundHandler((request) => {
    const path = request.url.split('?')[0] ?? '/';
    const match = paths.find('GET', path);
    if (match) throw errors.methodNotAllowed(request.method, [...(match.store as Set<string>)].sort());
    throw errors.routeNotFound(request.method, request.url);
  });
}

/**
 * POST and PATCH bodies are JSON (decisions §3): anything else is 415, even an empty body, so a
 * client that forgot the header learns why. The upload route sets `config.multipart` and is exempt.
 */
function registerJsonOnly(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'POST' && request.method !== 'PATCH') return;
    if (request.routeOptions.config.multipart || !request.routeOptions.schema?.body) return;
    const type = request.headers['content-type'];
    if (!type || !/^application\/json\s*(;|$)/i.test(type)) throw errors.unsupportedMediaType();
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes multipart/form-data instead of JSON. */
    multipart?: boolean;
  }
}
