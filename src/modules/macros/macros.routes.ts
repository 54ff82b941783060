import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf } from '../../auth/authenticate.js';
import { errors } from '../../errors.js';
import { ifMatchOf } from '../../http/conditional.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { Ticket } from '../tickets/tickets.schemas.js';
import { ApplyMacroParams, CreateMacroBody, ListMacrosQuery, Macro, MacroParams, UpdateMacroBody } from './macros.schemas.js';
import * as macros from './macros.service.js';

export async function macrosRoutes(fastify: FastifyInstance, deps: macros.MacroDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Macros'];

  app.get('/v1/macros', {
    config: { auth: { scope: 'macros:read' } },
    schema: { tags, summary: "List the organization's macros, oldest first", querystring: ListMacrosQuery, response: responses({ 200: Type.Array(Macro) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await macros.listMacros(deps, authOf(request), page), CREATED_ASC);
    },
  });

  app.get('/v1/macros/:macro_id', {
    config: { auth: { scope: 'macros:read' } },
    schema: { tags, summary: 'Get a macro', params: MacroParams, response: responses({ 200: Macro, 404: ErrorBody }) },
    handler: (request) => macros.getMacro(deps, authOf(request), request.params.macro_id),
  });

  app.post('/v1/macros', {
    config: { auth: { scope: 'macros:write' } },
    schema: {
      tags,
      summary: 'Save a macro',
      description:
        'Its actions are checked against the organization\'s users, teams and custom fields (422 naming the action, e.g. body.actions[2].value). ' +
        'At most MAX_MACROS_PER_ORG (default 500) per organization (422 past it).',
      body: CreateMacroBody,
      response: responses({ 201: Macro }, [400, 413, 415]),
    },
    handler: async (request, reply) => reply.code(201).send(await macros.createMacro(deps, authOf(request), request.body)),
  });

  app.patch('/v1/macros/:macro_id', {
    config: { auth: { scope: 'macros:write' } },
    schema: { tags, summary: 'Update a macro (partial)', params: MacroParams, body: UpdateMacroBody, response: responses({ 200: Macro, 404: ErrorBody }, [400, 413, 415]) },
    handler: (request) => macros.updateMacro(deps, authOf(request), request.params.macro_id, request.body),
  });

  app.delete('/v1/macros/:macro_id', {
    config: { auth: { scope: 'macros:delete' } },
    schema: { tags, summary: 'Delete a macro', params: MacroParams, response: responses({ 204: Type.Null(), 404: ErrorBody }) },
    handler: async (request, reply) => {
      await macros.deleteMacro(deps, authOf(request), request.params.macro_id);
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/tickets/:ticket_id/macros/:macro_id', {
    config: { auth: { scope: 'tickets:write' }, ifMatch: { of: '/v1/tickets/:ticket_id' } },
    schema: {
      tags: ['Tickets', 'Macros'],
      summary: "Apply a macro to a ticket",
      description:
        'Applies every action of the macro in one transaction and answers the ticket (with its ETag; If-Match as for PATCH). ' +
        'Needs macros:read too, and comments:write when the macro writes a comment. An action naming a record deleted since ' +
        'the macro was saved is 422 naming it (macro.actions[i].value) and changes nothing. No request body.',
      params: ApplyMacroParams,
      response: responses({ 200: Ticket, 404: ErrorBody }),
    },
    handler: (request) => {
      const auth = authOf(request);
      if (!auth.scopes.has('macros:read')) throw errors.forbidden('macros:read');
      return macros.applyMacro(deps, auth, request.params.ticket_id, request.params.macro_id, ifMatchOf(request));
    },
  });
}
