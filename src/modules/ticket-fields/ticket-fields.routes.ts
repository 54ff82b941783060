import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { actorOf } from '../events/events.log.js';
import { CreateTicketFieldBody, ListTicketFieldsQuery, TicketField, TicketFieldParams, UpdateTicketFieldBody } from './ticket-fields.schemas.js';
import * as fields from './ticket-fields.service.js';

export async function ticketFieldsRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Custom fields'];

  app.get('/v1/ticket-fields', {
    config: { auth: { scope: 'fields:read' } },
    schema: { tags, summary: 'List custom ticket fields, oldest first', querystring: ListTicketFieldsQuery, response: responses({ 200: Type.Array(TicketField) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await fields.listTicketFields(deps.store, authOf(request).organizationId, page), CREATED_ASC);
    },
  });

  app.get('/v1/ticket-fields/:field_id', {
    config: { auth: { scope: 'fields:read' } },
    schema: { tags, summary: 'Get a custom ticket field', params: TicketFieldParams, response: responses({ 200: TicketField, 404: ErrorBody }) },
    handler: (request) => fields.getTicketField(deps.store, authOf(request).organizationId, request.params.field_id),
  });

  app.post('/v1/ticket-fields', {
    config: { auth: { scope: 'fields:write' } },
    schema: {
      tags,
      summary: 'Define a custom ticket field',
      description: 'At most 100 per organization (422 past it); a key already defined is 409.',
      body: CreateTicketFieldBody,
      response: responses({ 201: TicketField, 409: ErrorBody }, [400, 413, 415]),
    },
    handler: async (request, reply) => reply.code(201).send(await fields.createTicketField(deps.store, authOf(request).organizationId, request.body)),
  });

  app.patch('/v1/ticket-fields/:field_id', {
    config: { auth: { scope: 'fields:write' } },
    schema: {
      tags,
      summary: 'Update a custom ticket field (label, options, required)',
      params: TicketFieldParams,
      body: UpdateTicketFieldBody,
      response: responses({ 200: TicketField, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) => fields.updateTicketField(deps.store, authOf(request).organizationId, request.params.field_id, request.body),
  });

  app.delete('/v1/ticket-fields/:field_id', {
    config: { auth: { scope: 'fields:delete' } },
    schema: {
      tags,
      summary: 'Delete a custom ticket field and its values',
      description: 'Every ticket with a value loses it, with a ticket.updated event each.',
      params: TicketFieldParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await fields.deleteTicketField(deps.store, authOf(request).organizationId, request.params.field_id, actorOf(authOf(request)));
      return reply.code(204).send(null);
    },
  });
}
