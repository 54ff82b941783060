import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';
import { EVENT_TYPES } from '../events/events.schemas.js';

export const WEBHOOK_STATUSES = ['active', 'paused', 'disabled'] as const;
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'An https:// URL on a public address (http:// and private addresses only with WEBHOOKS_ALLOW_PRIVATE=true)',
});
const Events = Type.Array(StringEnum([...EVENT_TYPES, '*']), {
  minItems: 1,
  maxItems: 100,
  description: 'The event types to deliver, or ["*"] for all of them (new types included)',
});
const Description = Nullable(Type.String({ maxLength: 1000 }));

const webhookProperties = {
  id: Uuid(),
  url: Type.String({ description: 'Stored in normalized form (as the WHATWG URL parser writes it)' }),
  description: Nullable(Type.String()),
  events: Type.Array(Type.String()),
  status: StringEnum(WEBHOOK_STATUSES, {
    description:
      '`active`: delivering; `paused`: set by you, events wait and are delivered in order once active again; ' +
      '`disabled`: set by the service after a delivery failed through every retry (see disabled_reason); make it active to resume',
  }),
  disabled_at: Nullable(DateTime()),
  disabled_reason: Nullable(Type.String()),
  previous_secret_expires_at: Nullable(
    DateTime({ description: 'After a secret rotation: until then deliveries are signed with the previous secret too' }),
  ),
  created_at: DateTime(),
  updated_at: DateTime(),
};

const EXAMPLE = {
  id: '2b6f0c3e-5a4d-4e2f-9c1b-7d8e9f0a1b2c',
  url: 'https://hooks.example.com/ticketing',
  description: 'Urgent tickets to the on-call chat',
  events: ['ticket.created', 'ticket.updated'],
  status: 'active',
  disabled_at: null,
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: '2026-01-31T09:15:02.123Z',
  updated_at: '2026-01-31T09:15:02.123Z',
};

/** A webhook endpoint as the API shows it: never its secret, but in the answers that make one. */
export const Webhook = named('Webhook', Type.Object(webhookProperties, { examples: [EXAMPLE] }));
export type Webhook = Static<typeof Webhook>;

const Secret = Type.String({
  description: 'The signing secret (whsec_ + base64), shown only in this answer: store it to verify deliveries',
  examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7zgz6ZnTMAI='],
});

export const CreatedWebhook = named(
  'CreatedWebhook',
  Type.Object({
    ...webhookProperties,
    secret: Nullable(
      Type.String({
        description:
          'The signing secret (whsec_ + base64), shown only in this answer: store it to verify deliveries ' +
          '(null in an answer replayed for an Idempotency-Key)',
        examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7zgz6ZnTMAI='],
      }),
    ),
  }),
);
export type CreatedWebhook = Static<typeof CreatedWebhook>;

/** PATCH answers with the new secret when it rotated it, and only then. */
export const UpdatedWebhook = named('UpdatedWebhook', Type.Object({ ...webhookProperties, secret: Type.Optional(Secret) }));
export type UpdatedWebhook = Static<typeof UpdatedWebhook>;

export const WebhookParams = Type.Object({ webhook_id: Uuid() });
export const DeliveryParams = Type.Object({ webhook_id: Uuid(), delivery_id: Uuid() });

export const CreateWebhookBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description) },
  { additionalProperties: false, examples: [{ url: 'https://hooks.example.com/ticketing', events: ['ticket.created', 'comment.created'], description: 'Chat notifications' }] },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
    status: Type.Optional(StringEnum(['active', 'paused'] as const, { description: 'Pause, or resume (also an endpoint the service disabled)' })),
    rotate_secret: Type.Optional(
      Type.Boolean({
        description: 'true: make a new secret (in the answer, once); the previous one still signs deliveries for 24 hours',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ status: 'paused' }] },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const ListWebhooksQuery = Type.Object({ ...pageQuery(50, 100) }, { additionalProperties: false });
export type ListWebhooksQuery = Static<typeof ListWebhooksQuery>;

export const Delivery = named(
  'WebhookDelivery',
  Type.Object(
    {
      id: Uuid(),
      webhook_id: Uuid(),
      event_id: Uuid({ description: 'Also the webhook-id header of every attempt' }),
      event_type: Type.String(),
      event_cursor: Type.String({ description: "The event's cursor in the change feed" }),
      status: StringEnum(DELIVERY_STATUSES, {
        description: '`pending`: waiting for its (next) attempt; `succeeded`: a 2xx was received; `failed`: every attempt failed',
      }),
      attempts: Type.Integer({ minimum: 0 }),
      next_attempt_at: Nullable(DateTime({ description: 'When a pending delivery is tried next' })),
      last_attempt_at: Nullable(DateTime()),
      response_status: Nullable(Type.Integer({ description: "The HTTP status of the last attempt's answer; null when there was none" })),
      response_latency_ms: Nullable(Type.Integer({ description: 'How long the last attempt took, in milliseconds' })),
      response_body: Nullable(
        Type.String({
          description: "The first 4 KiB of the last attempt's answer body, as UTF-8 text; null when there was no answer (or before this was kept)",
        }),
      ),
      error: Nullable(Type.String({ description: 'Why the last attempt failed' })),
      created_at: DateTime(),
      completed_at: Nullable(DateTime({ description: 'When it succeeded or finally failed' })),
    },
    {
      examples: [
        {
          id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
          webhook_id: EXAMPLE.id,
          event_id: '0c4f3f0e-2b57-4d8e-9a55-3f0f5b2a9d11',
          event_type: 'ticket.updated',
          event_cursor: '1047',
          status: 'pending',
          attempts: 1,
          next_attempt_at: '2026-01-31T10:02:53.001Z',
          last_attempt_at: '2026-01-31T10:02:48.001Z',
          response_status: 503,
          response_latency_ms: 42,
          response_body: '{"error":"temporarily unavailable"}',
          error: 'HTTP 503',
          created_at: '2026-01-31T10:02:47.600Z',
          completed_at: null,
        },
      ],
    },
  ),
);
export type Delivery = Static<typeof Delivery>;

export const TestDelivery = named(
  'WebhookTestDelivery',
  Type.Object(
    {
      webhook_id: Uuid(),
      event_id: Uuid({ description: 'The webhook-id header of the test request' }),
      event_type: Type.Literal('webhook.test'),
      status: StringEnum(['succeeded', 'failed'] as const, { description: '`succeeded`: the receiver answered 2xx; `failed`: anything else (see error)' }),
      attempted_at: DateTime(),
      response_status: Nullable(Type.Integer({ description: "The HTTP status of the receiver's answer; null when there was none" })),
      response_latency_ms: Type.Integer({ description: 'How long the attempt took, in milliseconds' }),
      response_body: Nullable(Type.String({ description: "The first 4 KiB of the receiver's answer body, as UTF-8 text; null when there was no answer" })),
      error: Nullable(Type.String({ description: 'Why the attempt failed' })),
    },
    {
      examples: [
        {
          webhook_id: EXAMPLE.id,
          event_id: '5d0a3c1e-8f2b-4a6c-9e1d-2b3c4d5e6f70',
          event_type: 'webhook.test',
          status: 'succeeded',
          attempted_at: '2026-01-31T10:05:00.000Z',
          response_status: 200,
          response_latency_ms: 87,
          response_body: 'ok',
          error: null,
        },
      ],
    },
  ),
);
export type TestDelivery = Static<typeof TestDelivery>;

export const ListDeliveriesQuery = Type.Object(
  { status: Type.Optional(StringEnum(DELIVERY_STATUSES)), ...pageQuery(50, 100) },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;
