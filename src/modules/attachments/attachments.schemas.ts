import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, Uuid } from '../../shared/schemas.js';

export const Attachment = named('Attachment', Type.Object({
  id: Uuid(),
  ticket_id: Uuid(),
  filename: Type.String({ description: 'The name the file was uploaded with; shown, never used as a path' }),
  content_type: Type.String({ examples: ['image/png'] }),
  size_bytes: Type.Integer({ minimum: 0 }),
  uploaded_by_user_id: Nullable(Uuid({ description: "The API key holder's user, when the key has one" })),
  created_at: DateTime(),
}));
export type Attachment = Static<typeof Attachment>;

export const TicketAttachmentsParams = Type.Object({ ticket_id: Uuid() });
export const AttachmentParams = Type.Object({ ticket_id: Uuid(), attachment_id: Uuid() });

export const ListAttachmentsQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
export type ListAttachmentsQuery = Static<typeof ListAttachmentsQuery>;

export const DownloadLink = named('DownloadLink', Type.Object({
  signed_url: Type.String({ description: 'Fetch without Authorization; valid until expires_at' }),
  expires_at: DateTime({ description: 'One hour after issue' }),
}));
