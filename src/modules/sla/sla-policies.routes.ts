import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { POSITION_ORDER } from './sla-policies.repository.js';
import { CreateSlaPolicyBody, ListSlaPoliciesQuery, SlaPolicy, SlaPolicyParams, UpdateSlaPolicyBody } from './sla-policies.schemas.js';
import * as policies from './sla-policies.service.js';

export async function slaPoliciesRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['SLA policies'];

  app.get('/v1/sla-policies', {
    config: { auth: { scope: 'sla:read' } },
    schema: { tags, summary: 'List the SLA policies in the order they are tried', querystring: ListSlaPoliciesQuery, response: responses({ 200: Type.Array(SlaPolicy) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await policies.listSlaPolicies(deps, authOf(request), page), POSITION_ORDER);
    },
  });

  app.get('/v1/sla-policies/:sla_policy_id', {
    config: { auth: { scope: 'sla:read' } },
    schema: { tags, summary: 'Get an SLA policy', params: SlaPolicyParams, response: responses({ 200: SlaPolicy, 404: ErrorBody }) },
    handler: (request) => policies.getSlaPolicy(deps, authOf(request), request.params.sla_policy_id),
  });

  app.post('/v1/sla-policies', {
    config: { auth: { scope: 'sla:write' } },
    schema: {
      tags,
      summary: 'Create an SLA policy',
      description:
        'Policies are tried in ascending position; the first whose conditions match a ticket gives it its clocks (docs/api-behaviour.md, SLA policies). ' +
        'At most MAX_SLA_POLICIES_PER_ORG (default 50) per organization (422 past it).',
      body: CreateSlaPolicyBody,
      response: responses({ 201: SlaPolicy }, [400, 413, 415]),
    },
    handler: async (request, reply) => reply.code(201).send(await policies.createSlaPolicy(deps, authOf(request), request.body)),
  });

  app.patch('/v1/sla-policies/:sla_policy_id', {
    config: { auth: { scope: 'sla:write' } },
    schema: {
      tags,
      summary: 'Update an SLA policy (partial)',
      description: "Tickets take the change at their next change (a ticket's clocks are recomputed when its priority or policy changes, keeping time used).",
      params: SlaPolicyParams,
      body: UpdateSlaPolicyBody,
      response: responses({ 200: SlaPolicy, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) => policies.updateSlaPolicy(deps, authOf(request), request.params.sla_policy_id, request.body),
  });

  app.delete('/v1/sla-policies/:sla_policy_id', {
    config: { auth: { scope: 'sla:delete' } },
    schema: { tags, summary: 'Delete an SLA policy', params: SlaPolicyParams, response: responses({ 204: Type.Null(), 404: ErrorBody }) },
    handler: async (request, reply) => {
      await policies.deleteSlaPolicy(deps, authOf(request), request.params.sla_policy_id);
      return reply.code(204).send(null);
    },
  });
}
