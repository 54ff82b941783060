import { Type, type Static } from 'typebox';
import { DateTime, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';

export const TICKET_STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

export const TicketStatus = StringEnum(TICKET_STATUSES);
export const TicketPriority = StringEnum(TICKET_PRIORITIES);

const Subject = Type.String({ minLength: 1, maxLength: 500 });
const Description = Type.String({ minLength: 1, maxLength: 100_000 });
const Category = Type.String({ maxLength: 100 });

export const Ticket = Type.Object({
  id: Uuid(),
  ticket_number: Type.Integer({ minimum: 1 }),
  tracking_token: Uuid({ description: 'Lets the customer reach the ticket through self-service' }),
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
});
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
  },
  { additionalProperties: false },
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
  },
  { additionalProperties: false },
);
export type UpdateTicketBody = Static<typeof UpdateTicketBody>;

export const ListTicketsQuery = Type.Object(
  {
    status: Type.Optional(TicketStatus),
    priority: Type.Optional(TicketPriority),
    assigned_user_id: Type.Optional(Uuid()),
    assigned_team_id: Type.Optional(Uuid()),
    customer_id: Type.Optional(Uuid()),
    category: Type.Optional(Category),
    unassigned: Type.Optional(Type.Boolean({ description: 'true: no agent assigned; false: an agent assigned' })),
    search: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'Case-insensitive substring of subject, description, customer name or email; or a ticket number / TKT- id',
      }),
    ),
    ...pageQuery(100, 500),
  },
  { additionalProperties: false },
);
export type ListTicketsQuery = Static<typeof ListTicketsQuery>;
