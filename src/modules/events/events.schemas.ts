import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';
import { TICKET_EXAMPLE as TICKET } from '../tickets/tickets.schemas.js';

/**
 * Every event type, `<resource>.<what happened>` (docs/api-behaviour.md#events lists when each is
 * emitted). A new type is added here and nowhere else for validation and the OpenAPI document.
 */
export const EVENT_TYPES = [
  'ticket.created',
  'ticket.updated',
  'ticket.deleted',
  'comment.created',
  'comment.updated',
  'comment.deleted',
  'attachment.created',
  'attachment.deleted',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'team.created',
  'team.updated',
  'team.deleted',
  'team.member_added',
  'team.member_removed',
  'user.created',
  'user.updated',
  'user.deleted',
  'api_key.created',
  'api_key.updated',
  'api_key.revoked',
  'sla.warning',
  'sla.breached',
  'sla.fulfilled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const RESOURCE_TYPES = ['ticket', 'comment', 'attachment', 'customer', 'team', 'user', 'api_key'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

export const ACTOR_TYPES = ['api_key', 'user', 'customer', 'system', 'trigger', 'automation'] as const;

export const EventActor = named(
  'EventActor',
  Type.Object(
    {
      type: StringEnum(ACTOR_TYPES, {
        description: '`api_key`: a request with an API key; `user`: a signed-in agent (a session of the console); `customer`: the customer through the portal; `system`: the command line or the service itself; `trigger`, `automation`: one of the organization\'s triggers or automations (docs/api-behaviour.md#triggers-and-automations)',
      }),
      api_key_id: Nullable(Uuid({ description: 'The key that made the change (type api_key)' })),
      user_id: Nullable(Uuid({ description: "The key's holder, when it has one (type api_key), or the signed-in user (type user)" })),
      customer_id: Nullable(Uuid({ description: 'The customer who made the change through the portal (type customer)' })),
      trigger_id: Type.Optional(Uuid({ description: 'The trigger that made the change (type trigger only)' })),
      automation_id: Type.Optional(Uuid({ description: 'The automation that made the change (type automation only)' })),
    },
    { description: 'Who made the change' },
  ),
);

const Change = Type.Union([
  Type.Object({ old: Type.Unknown(), new: Type.Unknown() }, { description: 'The old and the new value' }),
  Type.Object(
    { changed: Type.Literal(true) },
    { description: 'A credential (a ticket\'s tracking_token) that changed: no event carries its value, old or new' },
  ),
]);

// As events show a ticket: never with its tracking token.
const TICKET_EXAMPLE: Record<string, unknown> = { ...TICKET, assigned_user_id: null, due_date: null };
delete TICKET_EXAMPLE.tracking_token;

export const Event = named(
  'Event',
  Type.Object(
    {
      id: Uuid({ description: 'Unique per event; also the `webhook-id` of its webhook deliveries' }),
      cursor: Type.String({ description: "The event's place in the change feed: pass it as `after` to read what follows it" }),
      type: StringEnum(EVENT_TYPES),
      occurred_at: DateTime({ description: "When the change was made: the record's own created_at or updated_at where it has one" }),
      actor: EventActor,
      resource_type: StringEnum(RESOURCE_TYPES),
      resource_id: Uuid({ description: 'The record that changed (for team membership events, the team)' }),
      ticket_id: Nullable(Uuid({ description: 'The ticket the record belongs to (tickets, comments, attachments), else null' })),
      object: Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'The record as the API shows it: after the change, or as it was for a deletion; a ticket never with its tracking_token. ' +
            'Membership events carry `{team_id, user_id}`.',
        },
      ),
      changes: Nullable(
        // additionalProperties rather than a Record's patternProperties: what client generators understand.
        Type.Object(
          {},
          {
            additionalProperties: Change,
            description:
              'Updates only: each changed field with its old and new value, as the API shows them (updated_at left out); ' +
              'a changed tracking_token is `{"changed": true}`, without values',
          },
        ),
      ),
    },
    {
      examples: [
        {
          id: '0c4f3f0e-2b57-4d8e-9a55-3f0f5b2a9d11',
          cursor: '1047',
          type: 'ticket.updated',
          occurred_at: '2026-01-31T10:02:47.512Z',
          actor: { type: 'api_key', api_key_id: '5d0c9a1e-7b2f-4c1d-9e8a-3f6b2c1d0e9f', user_id: null, customer_id: null },
          resource_type: 'ticket',
          resource_id: TICKET_EXAMPLE.id,
          ticket_id: TICKET_EXAMPLE.id,
          object: TICKET_EXAMPLE,
          changes: { status: { old: 'new', new: 'open' } },
        },
      ],
    },
  ),
);
export type Event = Static<typeof Event>;

/** An opaque cursor of the feed; today the decimal position of an event in its organization's feed. */
const Cursor = Type.String({
  pattern: '^(0|[1-9][0-9]{0,14}|now)$',
  description:
    "A cursor from an earlier answer (`next_cursor` or an event's `cursor`), or `now`: the feed's current end, " +
    'answered with no events and the `next_cursor` to follow from (only what happens from then on)',
});

const TypesFilter = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'Comma-separated event types (ticket.created,comment.created); only these are returned',
});

export const FeedQuery = Type.Object(
  {
    after: Type.Optional(Cursor),
    types: Type.Optional(TypesFilter),
    limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Events per page, 1 to 1000' }),
  },
  { additionalProperties: false },
);
export type FeedQuery = Static<typeof FeedQuery>;

export const FeedPage = named(
  'EventFeedPage',
  Type.Object({
    events: Type.Array(Event, { description: 'In commit order, oldest first' }),
    next_cursor: Type.String({ description: 'Pass as `after` for the next page; store it to resume later. Present even when `events` is empty.' }),
    has_more: Type.Boolean({ description: 'True when more events follow already; false when the feed is read to its end for now' }),
  }),
);
export type FeedPage = Static<typeof FeedPage>;

export const TicketEventsParams = Type.Object({ ticket_id: Uuid() });

export const TicketEventsQuery = Type.Object({ types: Type.Optional(TypesFilter), ...pageQuery(100, 500) }, { additionalProperties: false });
export type TicketEventsQuery = Static<typeof TicketEventsQuery>;
