import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isApiRoute } from './json-rules.js';
import { addRouteHook, methodsOf } from '../shared/route-hooks.js';

/**
 * `Location` on 201 Created (RFC 9110 §10.2.2), one rule for every create: a POST to a collection
 * whose members have their own address (a GET route `<collection>/:<id>`) answers with that
 * address of the record it made, `<the request's path>/<id>`, relative to the service.
 * `POST /v1/tickets` → `Location: /v1/tickets/<ticket id>`. Creates whose records have no address
 * of their own (a team membership, a portal reply) send none. The OpenAPI document declares the
 * header by the same rule (openapi/finish.ts, `createdLocationPaths`).
 */
export function registerCreatedLocation(app: FastifyInstance): void {
  const collections = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = methodsOf(route.method);
    if (!isApiRoute(route.url)) return;
    const collection = /^(.+)\/:[A-Za-z_]+$/.exec(route.url)?.[1];
    if (collection && methods.includes('GET')) collections.add(collection);
    // The route's own hook, on creates only: whether its collection has addresses of its own is
    // known once every route is in (a collection's GET may come after its POST).
    if (methods.includes('POST')) addRouteHook(route, 'preSerialization', locate);
  });

  function locate(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
    if (reply.statusCode === 201 && request.method === 'POST' && collections.has(request.routeOptions.url ?? '')) {
      const id = (payload as { id?: unknown } | null)?.id;
      if (typeof id === 'string') {
        const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
        void reply.header('location', `${path}/${encodeURIComponent(id)}`);
      }
    }
    done(null, payload);
  }
}
