import type { FastifyReply, FastifyRequest } from 'fastify';
import * as portal from './portal.service.js';

/**
 * preParsing of the portal's POST routes: a token that opens nothing is refused (404) before the
 * body is read, like a missing API key, so nobody can hold a connection open by sending a reply
 * slowly to a made-up token (the early answer closes it: src/http/connections.ts). The service
 * looks the token up again when it adds the reply, and checks it under the ticket's lock.
 */
export function tokenBeforeBody(deps: portal.PortalDeps) {
  return async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    await portal.ticketOfToken(deps.store.db, (request.params as { tracking_token: string }).tracking_token);
    return payload;
  };
}
