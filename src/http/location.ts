import type { FastifyInstance } from 'fastify';
import { isApiRoute } from '../shared/http-rules.js';

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
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const collection = /^(.+)\/:[A-Za-z_]+$/.exec(route.url)?.[1];
    if (collection && methods.includes('GET') && isApiRoute(route.url)) collections.add(collection);
  });

  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode !== 201 || request.method !== 'POST' || !collections.has(request.routeOptions.url ?? '')) return payload;
    const id = (payload as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return payload;
    const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
    void reply.header('location', `${path}/${encodeURIComponent(id)}`);
    return payload;
  });
}
