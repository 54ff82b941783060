import { ChannelField, DeliveryField, EmailField } from '../mail/mail.schemas.js';
import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, Uuid } from '../../shared/schemas.js';

/** Attachments one comment can carry. */
export const MAX_COMMENT_ATTACHMENTS = 10;

const Body = Type.String({ minLength: 1, maxLength: 100_000 });
const INTERNAL_NOTE = 'An internal note: the customer never sees it';
const IsInternal = Type.Boolean({ description: INTERNAL_NOTE });

export const Comment = named('Comment', Type.Object({
  id: Uuid(),
  ticket_id: Uuid(),
  body: Type.String(),
  is_internal: IsInternal,
  author_user_id: Nullable(Uuid({ description: 'The agent who wrote it' })),
  author_customer_id: Nullable(Uuid({ description: 'Set when the customer wrote it (through self-service or by mail)' })),
  created_at: DateTime(),
  updated_at: DateTime(),
  channel: ChannelField,
  email: EmailField,
  delivery: DeliveryField,
  attachment_ids: Type.Array(Uuid(), { description: 'The ticket\'s attachments this comment carries; a public agent comment is mailed with them' }),
}));
export type Comment = Static<typeof Comment>;

export const TicketCommentsParams = Type.Object({ ticket_id: Uuid() });
export const CommentParams = Type.Object({ ticket_id: Uuid(), comment_id: Uuid() });

export const CreateCommentBody = Type.Object(
  {
    body: Body,
    is_internal: Type.Optional(Type.Boolean({ default: false, description: INTERNAL_NOTE })),
    author_user_id: Type.Optional(
      Nullable(Uuid({ description: "A user of the organization; absent means the key's holder, null means none" })),
    ),
    attachment_ids: Type.Optional(
      Type.Array(Uuid(), {
        maxItems: MAX_COMMENT_ATTACHMENTS,
        uniqueItems: true,
        description: 'Attachments of this ticket (uploaded first) that the comment carries; a public one is mailed with them',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ body: 'Thanks for the report: we are looking into it.', is_internal: false }] },
);
export type CreateCommentBody = Static<typeof CreateCommentBody>;

export const UpdateCommentBody = Type.Object(
  {
    body: Type.Optional(Body),
    is_internal: Type.Optional(IsInternal),
  },
  { additionalProperties: false, examples: [{ body: 'Thanks for the report: a fix is on its way.' }] },
);
export type UpdateCommentBody = Static<typeof UpdateCommentBody>;

export const ListCommentsQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;
