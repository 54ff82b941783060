import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf, type KeyRead } from '../../auth/authenticate.js';
import { ifMatchOf } from '../../http/conditional.js';
import { toPage, withNextLink } from '../../shared/pagination.js';
import { actorOf } from '../events/events.log.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { CreateTicketBody, ListTicketsQuery, Ticket, TicketParams, UpdateTicketBody } from './tickets.schemas.js';
import { createTicketInGroup } from './tickets.create-batch.js';
import { getByIdWithKey } from './tickets.get.fast-path.js';
import { TICKET_ORDER } from './tickets.repository.js';
import * as tickets from './tickets.service.js';

/**
 * The tracking token opens the ticket in the customer portal: only keys that may change the ticket
 * see it (docs/api-behaviour.md#tracking-tokens). Routes that need tickets:write always show it.
 */
function forKey(request: FastifyRequest, ticket: Ticket): Ticket {
  return authOf(request).scopes.has('tickets:write') ? ticket : { ...ticket, tracking_token: null };
}

/**
 * The one seam for the fast paths beside the service (tickets.create-batch.ts,
 * tickets.get.fast-path.ts), each giving the answers of the plain call it replaces, faster.
 * Delete them with their imports and the line that sets `fast` becomes `{ createTicket:
 * tickets.createTicket }`: every route then takes the plain route → service → repository path.
 */
interface TicketFastPaths {
  createTicket: typeof tickets.createTicket;
  /** GET by id with the ticket read with the key (auth's KeyRead); `answer` is undefined when it was not read so. */
  getById?: { keyRead: KeyRead; answer(request: FastifyRequest, id: string): Ticket | undefined };
}

export async function ticketsRoutes(fastify: FastifyInstance, deps: tickets.TicketDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Tickets'];
  const fast: TicketFastPaths = { createTicket: createTicketInGroup, getById: getByIdWithKey(deps) };

  app.get('/v1/tickets', {
    config: { auth: { scope: 'tickets:read' } },
    schema: {
      tags,
      summary: 'List tickets, newest first',
      querystring: ListTicketsQuery,
      response: responses({ 200: Type.Array(Ticket) }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      const list = await tickets.listTickets(deps, authOf(request).organizationId, request.query, page);
      return withNextLink(request, reply, page, list.map((ticket) => forKey(request, ticket)), TICKET_ORDER);
    },
  });

  app.get('/v1/tickets/:ticket_id', {
    config: { auth: { scope: 'tickets:read', keyRead: fast.getById?.keyRead } },
    schema: { tags, summary: 'Get a ticket', params: TicketParams, response: responses({ 200: Ticket, 404: ErrorBody }) },
    // Read with the key (the fast path): answered without a promise.
    handler: (request) => {
      const read = fast.getById?.answer(request, request.params.ticket_id);
      if (read !== undefined) return forKey(request, read);
      return tickets.getTicket(deps, authOf(request).organizationId, request.params.ticket_id).then((ticket) => forKey(request, ticket));
    },
  });

  app.post('/v1/tickets', {
    config: { auth: { scope: 'tickets:write' }, idempotency: { secretFields: ['tracking_token'] } },
    schema: { tags, summary: 'Create a ticket', body: CreateTicketBody, response: responses({ 201: Ticket }, [400, 413, 415]) },
    handler: async (request, reply) => {
      const ticket = await fast.createTicket(deps, authOf(request).organizationId, request.body, actorOf(authOf(request)));
      return reply.code(201).send(ticket);
    },
  });

  app.patch('/v1/tickets/:ticket_id', {
    config: { auth: { scope: 'tickets:write' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Update a ticket (partial)',
      params: TicketParams,
      body: UpdateTicketBody,
      response: responses({ 200: Ticket, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) =>
      tickets.updateTicket(deps, authOf(request).organizationId, request.params.ticket_id, request.body, actorOf(authOf(request)), ifMatchOf(request)),
  });

  app.post('/v1/tickets/:ticket_id/tracking-token', {
    config: { auth: { scope: 'tickets:write' }, idempotency: { secretFields: ['tracking_token'] } },
    schema: {
      tags,
      summary: "Rotate the ticket's tracking token",
      description: 'Issues a new random tracking_token; the old one no longer opens the customer portal. No request body.',
      params: TicketParams,
      response: responses({ 200: Ticket, 404: ErrorBody }),
    },
    handler: (request) => tickets.rotateTrackingToken(deps, authOf(request).organizationId, request.params.ticket_id, actorOf(authOf(request))),
  });

  app.delete('/v1/tickets/:ticket_id', {
    config: { auth: { scope: 'tickets:delete' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Delete a ticket with its comments and attachments',
      params: TicketParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await tickets.deleteTicket(deps, authOf(request).organizationId, request.params.ticket_id, actorOf(authOf(request)), ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });
}
