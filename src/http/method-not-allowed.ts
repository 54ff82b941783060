import type { FastifyInstance, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { errors } from '../errors.js';

/** 404 for unknown addresses, 405 with `Allow` for known addresses asked with another method. */
export function registerMethodNotAllowed(app: FastifyInstance): void {
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
