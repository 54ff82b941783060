import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';
import { TicketPriority, TicketStatus } from '../tickets/tickets.schemas.js';

/** A customer's reply: 1 to 10,000 characters, not only white space (checked by the service). */
export const REPLY_MAX_CHARS = 10_000;

// Deliberately loose: a malformed token is the same 404 as an unknown one, never a 422.
const TrackingToken = Type.String({ description: "The ticket's tracking_token" });

export const PortalTicketParams = Type.Object({ tracking_token: TrackingToken });
export const PortalPageQuery = Type.Object({
  sent: Type.Optional(Type.String({ maxLength: 10, description: '`1` right after a reply was sent: the page confirms it' })),
});

export const PortalAttachmentParams = Type.Object({ tracking_token: TrackingToken, attachment_id: Type.String() });

export const PortalComment = named(
  'PortalComment',
  Type.Object(
    {
      id: Uuid(),
      body: Type.String(),
      author_type: StringEnum(['customer', 'agent'] as const, { description: 'customer: written through the portal' }),
      author_name: Nullable(
        Type.String({ description: "The agent's full name; null for the customer's own replies and for agents not on record" }),
      ),
      attachment_ids: Type.Array(Uuid(), { description: "The ticket's files this comment carries (see the ticket's `attachments`)" }),
      created_at: DateTime(),
    },
    { description: 'A public comment of the thread. Internal notes are never shown, nor agent emails.' },
  ),
);
export type PortalComment = Static<typeof PortalComment>;

export const PortalAttachment = named(
  'PortalAttachment',
  Type.Object({
    id: Uuid(),
    filename: Type.String(),
    content_type: Type.String(),
    size_bytes: Type.Integer({ minimum: 0 }),
    created_at: DateTime(),
    download_url: Type.String({
      description: 'Opens the file: redirects (303) to a freshly signed download address; works as long as the token does',
    }),
  }),
);
export type PortalAttachment = Static<typeof PortalAttachment>;

export const PortalTicket = named(
  'PortalTicket',
  Type.Object(
    {
      ticket_number: Type.Integer({ minimum: 1 }),
      ticket_display_id: Type.String({ examples: ['TKT-42'] }),
      subject: Type.String(),
      description: Type.String(),
      status: TicketStatus,
      priority: TicketPriority,
      created_at: DateTime(),
      updated_at: DateTime({ description: "The last activity the customer can see: the ticket's own last change, its newest public message or its newest file, whichever is latest" }),
      resolved_at: Nullable(DateTime()),
      closed_at: Nullable(DateTime()),
      accepts_replies: Type.Boolean({ description: 'False once the ticket is closed' }),
      comment_count: Type.Integer({ minimum: 0, description: 'Public comments in the thread' }),
      comments: Type.Array(PortalComment, {
        description: 'The latest 500 public comments, oldest first; GET .../comments pages through all of them',
      }),
      attachments: Type.Array(PortalAttachment, { description: 'The first 500 attachments, oldest first' }),
    },
    { description: 'What the holder of a tracking token may see of a ticket' },
  ),
);
export type PortalTicket = Static<typeof PortalTicket>;

export const PortalCommentsQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
export type PortalCommentsQuery = Static<typeof PortalCommentsQuery>;

export const PortalReplyBody = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: REPLY_MAX_CHARS, description: 'Plain text; not only white space' }) },
  { additionalProperties: false, examples: [{ body: 'It still happens on every invoice.' }] },
);
export type PortalReplyBody = Static<typeof PortalReplyBody>;

/** The web page's reply form (application/x-www-form-urlencoded); the service checks the text. */
export const PortalReplyForm = Type.Object({ body: Type.Optional(Type.String()) });
export type PortalReplyForm = Static<typeof PortalReplyForm>;
