import { Type, type Static } from 'typebox';
import { MAX_SEARCH_TERM_LENGTH, UNINDEXED_TERM_WINDOW } from '../../search/search.js';
import { CustomFieldsInput, TicketCustomFields } from '../ticket-fields/ticket-fields.schemas.js';
import { TagList, TagQuery, TicketTags } from '../tags/tags.schemas.js';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';
import { ChannelField, EmailField } from '../mail/mail.schemas.js';
import { TicketSla } from '../sla/sla-policies.schemas.js';

/** A custom field filter's parameter name, `custom_fields[<key>]`. */
export const CUSTOM_FIELD_PARAMETER = /^custom_fields\[([a-z][a-z0-9_]{0,49})\]$/;

export const TICKET_STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

export const TicketStatus = StringEnum(TICKET_STATUSES);
export const TicketPriority = StringEnum(TICKET_PRIORITIES);

const Subject = Type.String({ minLength: 1, maxLength: 500 });
const Description = Type.String({ minLength: 1, maxLength: 100_000 });
const Category = Type.String({ maxLength: 100 });

/** A ticket as the API answers it: the example of Ticket, and of the events that carry one. */
export const TICKET_EXAMPLE = {
  id: '6f1c2a3e-8d4b-4c5a-9e7f-0a1b2c3d4e5f',
  ticket_number: 42,
  tracking_token: 'b7e3f1a2-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
  ticket_display_id: 'TKT-42',
  customer_id: '3d2c1b0a-9f8e-4d7c-b6a5-4f3e2d1c0b9a',
  subject: 'Invoice shows the wrong total',
  description: 'The March invoice adds VAT twice.',
  status: 'open',
  priority: 'high',
  category: 'billing',
  assigned_user_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  assigned_team_id: null,
  due_date: '2026-02-06T17:00:00.000Z',
  created_at: '2026-01-31T09:15:02.123Z',
  updated_at: '2026-01-31T10:02:47.512Z',
  resolved_at: null,
  closed_at: null,
  tags: ['billing', 'vat'],
  custom_fields: { plan: 'pro', seats: 12 },
  channel: 'api',
  email: null,
  sla: {
    policy_id: '2b7d4c1e-5a3f-4e2d-9c8b-7a6f5e4d3c2b',
    first_response_due_at: null,
    next_response_due_at: null,
    resolution_due_at: '2026-02-02T09:15:02.123Z',
    paused: false,
    breaches: [],
  },
};

export const Ticket = named(
  'Ticket',
  Type.Object(
    {
      id: Uuid(),
      ticket_number: Type.Integer({ minimum: 1 }),
      tracking_token: Nullable(
        Uuid({
          description:
            'Lets the customer reach the ticket through self-service: a credential, shown only to keys holding tickets:write ' +
            '(null for others, and in an answer replayed for an Idempotency-Key)',
        }),
      ),
      ticket_display_id: Type.String({ examples: ['TKT-42'] }),
      customer_id: Uuid(),
      subject: Type.String(),
      description: Type.String(),
      status: TicketStatus,
      priority: TicketPriority,
      category: Nullable(Type.String()),
      assigned_user_id: Nullable(Uuid()),
      assigned_team_id: Nullable(Uuid()),
      due_date: Nullable(DateTime()),
      created_at: DateTime(),
      updated_at: DateTime(),
      resolved_at: Nullable(DateTime()),
      closed_at: Nullable(DateTime()),
      tags: TicketTags,
      custom_fields: TicketCustomFields,
      channel: ChannelField,
      email: EmailField,
      sla: TicketSla,
    },
    { examples: [TICKET_EXAMPLE] },
  ),
);
export type Ticket = Static<typeof Ticket>;

export const TicketParams = Type.Object({ ticket_id: Uuid() });

export const CreateTicketBody = Type.Object(
  {
    customer_name: Type.String({ minLength: 1, maxLength: 255 }),
    customer_email: Type.String({ format: 'email', maxLength: 320 }),
    subject: Subject,
    description: Description,
    priority: Type.Optional(StringEnum(TICKET_PRIORITIES, { default: 'medium' })),
    category: Type.Optional(Category),
    assigned_user_id: Type.Optional(Nullable(Uuid())),
    assigned_team_id: Type.Optional(Nullable(Uuid())),
    due_date: Type.Optional(Nullable(DateTime())),
    tags: Type.Optional(TagList("The ticket's tags")),
    custom_fields: Type.Optional(CustomFieldsInput),
  },
  { additionalProperties: false, examples: [{ customer_name: 'Ada Lovelace', customer_email: 'ada@example.com', subject: 'Cannot download my invoice', description: 'The invoice page shows an error since this morning.', priority: 'high', category: 'billing' }] },
);
export type CreateTicketBody = Static<typeof CreateTicketBody>;

export const UpdateTicketBody = Type.Object(
  {
    subject: Type.Optional(Subject),
    description: Type.Optional(Description),
    status: Type.Optional(TicketStatus),
    priority: Type.Optional(TicketPriority),
    category: Type.Optional(Nullable(Category)),
    assigned_user_id: Type.Optional(Nullable(Uuid({ description: 'null unassigns' }))),
    assigned_team_id: Type.Optional(Nullable(Uuid({ description: 'null unassigns' }))),
    due_date: Type.Optional(Nullable(DateTime())),
    tags: Type.Optional(TagList('Replaces all the ticket\'s tags (not with add_tags or remove_tags)')),
    add_tags: Type.Optional(TagList('Tags to add to the ticket\'s (those it has stay)')),
    remove_tags: Type.Optional(TagList('Tags to take off the ticket (a tag it does not have is ignored)')),
    custom_fields: Type.Optional(CustomFieldsInput),
  },
  { additionalProperties: false, examples: [{ status: 'pending', priority: 'urgent' }] },
);
export type UpdateTicketBody = Static<typeof UpdateTicketBody>;

/** A filter of one value or several, any of which matches (`open,pending`); each value is checked by the service (422 naming it). */
const anyOfFilter = (what: string, values: readonly string[], example: string) =>
  Type.String({
    minLength: 1,
    maxLength: 200,
    description: `One ${what}, or several separated by commas (tickets with any of them): ${example}. Each is one of ${values.join(', ')}.`,
    examples: [example],
  });

export const ListTicketsQuery = Type.Object(
  {
    status: Type.Optional(anyOfFilter('status', TICKET_STATUSES, 'open,pending')),
    priority: Type.Optional(anyOfFilter('priority', TICKET_PRIORITIES, 'high,urgent')),
    assigned_user_id: Type.Optional(Uuid()),
    assigned_team_id: Type.Optional(Uuid()),
    customer_id: Type.Optional(Uuid()),
    category: Type.Optional(Category),
    unassigned: Type.Optional(Type.Boolean({ description: 'true: no agent assigned; false: an agent assigned' })),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_SEARCH_TERM_LENGTH,
        description:
          'Case-insensitive substring of subject, description, customer name or email; or a ticket number / TKT- id. ' +
          `At most ${MAX_SEARCH_TERM_LENGTH} characters. A term of one or two characters looks through the newest ${UNINDEXED_TERM_WINDOW} tickets matching the other filters (422 search_term_too_short when the page lies beyond them). ` +
          'A search past its time budget is 503 search_timeout; more searches of one organization at once than allowed, 429 search_busy.',
      }),
    ),
    updated_since: Type.Optional(
      DateTime({ description: 'Only tickets changed at or after this moment (updated_at >= it): what changed since the last sync' }),
    ),
    tag: Type.Optional(TagQuery('Only tickets carrying every one of these tags')),
    any_tag: Type.Optional(TagQuery('Only tickets carrying at least one of these tags')),
    ...pageQuery(100, 500),
  },
  {
    additionalProperties: false,
    // `custom_fields[<key>]=<value>` arrives as a parameter of that name (the query parser does not
    // nest brackets): every such name is allowed here and checked against the definitions by the service.
    patternProperties: { [CUSTOM_FIELD_PARAMETER.source]: Type.String({ maxLength: 10_000 }) },
  },
);
export type ListTicketsQuery = Static<typeof ListTicketsQuery>;
