import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { BusinessHours, BusinessHoursParams, CreateBusinessHoursBody, ListBusinessHoursQuery, UpdateBusinessHoursBody } from './business-hours.schemas.js';
import * as hours from './business-hours.service.js';

export async function businessHoursRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Business hours'];

  app.get('/v1/business-hours', {
    config: { auth: { scope: 'sla:read' } },
    schema: { tags, summary: "List the organization's business-hours calendars, oldest first", querystring: ListBusinessHoursQuery, response: responses({ 200: Type.Array(BusinessHours) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await hours.listBusinessHours(deps, authOf(request), page), CREATED_ASC);
    },
  });

  app.get('/v1/business-hours/:business_hours_id', {
    config: { auth: { scope: 'sla:read' } },
    schema: { tags, summary: 'Get a business-hours calendar', params: BusinessHoursParams, response: responses({ 200: BusinessHours, 404: ErrorBody }) },
    handler: (request) => hours.getBusinessHours(deps, authOf(request), request.params.business_hours_id),
  });

  app.post('/v1/business-hours', {
    config: { auth: { scope: 'sla:write' } },
    schema: {
      tags,
      summary: 'Create a business-hours calendar',
      description:
        'Weekly hours and holidays in one IANA time zone, which SLA policies count time in. At most MAX_BUSINESS_HOURS_PER_ORG (default 100) per organization (422 past it).',
      body: CreateBusinessHoursBody,
      response: responses({ 201: BusinessHours }, [400, 413, 415]),
    },
    handler: async (request, reply) => reply.code(201).send(await hours.createBusinessHours(deps, authOf(request), request.body)),
  });

  app.patch('/v1/business-hours/:business_hours_id', {
    config: { auth: { scope: 'sla:write' } },
    schema: {
      tags,
      summary: 'Update a business-hours calendar (partial; weekly and holidays are replaced whole)',
      params: BusinessHoursParams,
      body: UpdateBusinessHoursBody,
      response: responses({ 200: BusinessHours, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) => hours.updateBusinessHours(deps, authOf(request), request.params.business_hours_id, request.body),
  });

  app.delete('/v1/business-hours/:business_hours_id', {
    config: { auth: { scope: 'sla:delete' } },
    schema: {
      tags,
      summary: 'Delete a business-hours calendar',
      description: '409 while an SLA policy uses it.',
      params: BusinessHoursParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody, 409: ErrorBody }),
    },
    handler: async (request, reply) => {
      await hours.deleteBusinessHours(deps, authOf(request), request.params.business_hours_id);
      return reply.code(204).send(null);
    },
  });
}
