import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf } from '../../auth/authenticate.js';
import { ifMatchOf } from '../../http/conditional.js';
import { DELIVERY_ORDER } from './webhooks.repository.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  Delivery,
  DeliveryParams,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  TestDelivery,
  UpdatedWebhook,
  UpdateWebhookBody,
  Webhook,
  WebhookParams,
} from './webhooks.schemas.js';
import * as webhooks from './webhooks.service.js';

export async function webhooksRoutes(fastify: FastifyInstance, deps: webhooks.WebhookDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Webhooks'];

  app.get('/v1/webhooks', {
    config: { auth: { scope: 'webhooks:read' } },
    schema: { tags, summary: 'List webhook endpoints, oldest first', querystring: ListWebhooksQuery, response: responses({ 200: Type.Array(Webhook) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await webhooks.listWebhooks(deps, authOf(request).organizationId, page), CREATED_ASC);
    },
  });

  app.post('/v1/webhooks', {
    config: { auth: { scope: 'webhooks:write' }, idempotency: { secretFields: ['secret'] } },
    schema: {
      tags,
      summary: 'Create a webhook endpoint; the answer carries its signing secret, shown this once',
      description:
        'Deliveries follow Standard Webhooks 1.0: a JSON POST `{type, timestamp, data}` (data is the Event) with the headers ' +
        'webhook-id, webhook-timestamp and webhook-signature. The endpoint receives the events committed after it was created. ' +
        'An organization has at most MAX_WEBHOOKS_PER_ORG (default 100) endpoints: one more is 422 naming the cap.',
      body: CreateWebhookBody,
      response: responses({ 201: CreatedWebhook }, [400, 413, 415]),
    },
    handler: async (request, reply) => {
      const created = await webhooks.createWebhook(deps, authOf(request).organizationId, request.body, authOf(request));
      return reply.code(201).send(created);
    },
  });

  app.get('/v1/webhooks/:webhook_id', {
    config: { auth: { scope: 'webhooks:read' } },
    schema: { tags, summary: 'Get a webhook endpoint', params: WebhookParams, response: responses({ 200: Webhook, 404: ErrorBody }) },
    handler: (request) => webhooks.getWebhook(deps, authOf(request).organizationId, request.params.webhook_id),
  });

  app.patch('/v1/webhooks/:webhook_id', {
    config: { auth: { scope: 'webhooks:write' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Update a webhook endpoint: URL, events, description, pause or resume, rotate the secret',
      params: WebhookParams,
      body: UpdateWebhookBody,
      response: responses({ 200: UpdatedWebhook, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) =>
      webhooks.updateWebhook(deps, authOf(request).organizationId, request.params.webhook_id, request.body, ifMatchOf(request), authOf(request)),
  });

  app.delete('/v1/webhooks/:webhook_id', {
    config: { auth: { scope: 'webhooks:delete' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Delete a webhook endpoint and its delivery log',
      params: WebhookParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await webhooks.deleteWebhook(deps, authOf(request).organizationId, request.params.webhook_id, ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });

  app.get('/v1/webhooks/:webhook_id/deliveries', {
    config: { auth: { scope: 'webhooks:read' } },
    schema: {
      tags,
      summary: "The endpoint's delivery log, newest event first",
      params: WebhookParams,
      querystring: ListDeliveriesQuery,
      response: responses({ 200: Type.Array(Delivery), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await webhooks.listDeliveries(deps, authOf(request).organizationId, request.params.webhook_id, request.query, page), DELIVERY_ORDER);
    },
  });

  app.post('/v1/webhooks/:webhook_id/deliveries/:delivery_id/retry', {
    config: { auth: { scope: 'webhooks:write' } },
    schema: {
      tags,
      summary: 'Send a delivery again, now (once the endpoint is active)',
      description:
        'A failed delivery (after fixing the receiver), or a successful one to send it again, gets one more attempt, sent now; ' +
        'a pending delivery waiting for its next retry is tried now instead, its retry schedule going on from there. No request body.',
      params: DeliveryParams,
      response: responses({ 202: Delivery, 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      const { webhook_id, delivery_id } = request.params;
      const delivery = await webhooks.retryDelivery(deps, authOf(request).organizationId, webhook_id, delivery_id);
      return reply.code(202).send(delivery);
    },
  });

  app.post('/v1/webhooks/:webhook_id/test', {
    config: { auth: { scope: 'webhooks:write' } },
    schema: {
      tags,
      summary: 'Send a signed webhook.test event to the endpoint now, and answer with how the receiver answered',
      description:
        'Signed, checked and timed like a delivery (whatever the endpoint\'s status, paused and disabled included): the body is ' +
        '`{type: "webhook.test", timestamp, data: {webhook_id, message}}`. A test is no change in the event feed, so it is not in the ' +
        'delivery log: the answer is its record. No request body.',
      params: WebhookParams,
      response: responses({ 200: TestDelivery, 404: ErrorBody }),
    },
    handler: (request) => webhooks.sendTest(deps, authOf(request).organizationId, request.params.webhook_id),
  });
}
