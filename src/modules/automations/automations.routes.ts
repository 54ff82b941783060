import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import {
  Automation,
  AutomationParams,
  CreateAutomationBody,
  CreateTriggerBody,
  ListRulesQuery,
  Trigger,
  TriggerParams,
  UpdateAutomationBody,
  UpdateTriggerBody,
} from './automations.schemas.js';
import * as rules from './automations.service.js';

export async function automationsRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Triggers and automations'];
  const see = 'See docs/api-behaviour.md, "Triggers and automations".';

  app.get('/v1/triggers', {
    config: { auth: { scope: 'automations:read' } },
    schema: { tags, summary: 'List triggers, oldest first', querystring: ListRulesQuery, response: responses({ 200: Type.Array(Trigger) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await rules.listTriggers(deps, authOf(request), page), CREATED_ASC);
    },
  });

  app.get('/v1/triggers/:trigger_id', {
    config: { auth: { scope: 'automations:read' } },
    schema: { tags, summary: 'Get a trigger', params: TriggerParams, response: responses({ 200: Trigger, 404: ErrorBody }) },
    handler: (request) => rules.getTrigger(deps, authOf(request), request.params.trigger_id),
  });

  app.post('/v1/triggers', {
    config: { auth: { scope: 'automations:write' } },
    schema: {
      tags,
      summary: 'Create a trigger',
      description: `Runs once per matching event committed after it is made, after the commit; its own changes run no trigger. At most MAX_TRIGGERS_PER_ORG (default 100) per organization. ${see}`,
      body: CreateTriggerBody,
      response: responses({ 201: Trigger }, [400, 413, 415]),
    },
    handler: async (request, reply) => reply.code(201).send(await rules.createTrigger(deps, authOf(request), request.body)),
  });

  app.patch('/v1/triggers/:trigger_id', {
    config: { auth: { scope: 'automations:write' } },
    schema: { tags, summary: 'Update a trigger (partial)', params: TriggerParams, body: UpdateTriggerBody, response: responses({ 200: Trigger, 404: ErrorBody }, [400, 413, 415]) },
    handler: (request) => rules.updateTrigger(deps, authOf(request), request.params.trigger_id, request.body),
  });

  app.delete('/v1/triggers/:trigger_id', {
    config: { auth: { scope: 'automations:delete' } },
    schema: { tags, summary: 'Delete a trigger', params: TriggerParams, response: responses({ 204: Type.Null(), 404: ErrorBody }) },
    handler: async (request, reply) => {
      await rules.deleteTrigger(deps, authOf(request), request.params.trigger_id);
      return reply.code(204).send(null);
    },
  });

  app.get('/v1/automations', {
    config: { auth: { scope: 'automations:read' } },
    schema: { tags, summary: 'List automations, oldest first', querystring: ListRulesQuery, response: responses({ 200: Type.Array(Automation) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await rules.listAutomations(deps, authOf(request), page), CREATED_ASC);
    },
  });

  app.get('/v1/automations/:automation_id', {
    config: { auth: { scope: 'automations:read' } },
    schema: { tags, summary: 'Get an automation', params: AutomationParams, response: responses({ 200: Automation, 404: ErrorBody }) },
    handler: (request) => rules.getAutomation(deps, authOf(request), request.params.automation_id),
  });

  app.post('/v1/automations', {
    config: { auth: { scope: 'automations:write' } },
    schema: {
      tags,
      summary: 'Create an automation',
      description: `Checked every AUTOMATIONS_INTERVAL_MS; a ticket gets its actions once each time its conditions become true. At most MAX_AUTOMATIONS_PER_ORG (default 100) per organization. ${see}`,
      body: CreateAutomationBody,
      response: responses({ 201: Automation }, [400, 413, 415]),
    },
    handler: async (request, reply) => reply.code(201).send(await rules.createAutomation(deps, authOf(request), request.body)),
  });

  app.patch('/v1/automations/:automation_id', {
    config: { auth: { scope: 'automations:write' } },
    schema: { tags, summary: 'Update an automation (partial)', params: AutomationParams, body: UpdateAutomationBody, response: responses({ 200: Automation, 404: ErrorBody }, [400, 413, 415]) },
    handler: (request) => rules.updateAutomation(deps, authOf(request), request.params.automation_id, request.body),
  });

  app.delete('/v1/automations/:automation_id', {
    config: { auth: { scope: 'automations:delete' } },
    schema: { tags, summary: 'Delete an automation', params: AutomationParams, response: responses({ 204: Type.Null(), 404: ErrorBody }) },
    handler: async (request, reply) => {
      await rules.deleteAutomation(deps, authOf(request), request.params.automation_id);
      return reply.code(204).send(null);
    },
  });
}
