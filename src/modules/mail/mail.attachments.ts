import { createHash, randomUUID } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import { AppError } from '../../errors.js';
import { creationTimeIso } from '../../shared/clock.js';
import { nowIso } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { findAttachment, insertAttachment } from '../attachments/attachments.repository.js';
import { isUniqueViolation } from '../customers/customers.repository.js';
import { clearAttachmentsPending } from './mail.repository.js';
import { MAX_FILE_BYTES, presentAttachment } from '../attachments/attachments.service.js';
import { ALLOWED_TYPES, normalizeMimeType, SignatureCheck } from '../attachments/file-types.js';
import { storedFilename } from '../attachments/filenames.js';
import { insertComment } from '../comments/comments.repository.js';
import { presentComment } from '../comments/comments.service.js';
import { SYSTEM_ACTOR, withEvents } from '../events/events.log.js';
import { storageUsed } from '../organizations/organizations.repository.js';
import type { ParsedMail } from './mail.parse.js';

export interface MailAttachmentDeps {
  store: Store;
  blobs: BlobStore;
  config: Pick<Config, 'storageQuotaBytes'>;
}

/** Parts of one message kept as attachments at most; the rest stay in the raw message only. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 50;

type Part = ParsedMail['attachments'][number];

/** The message whose parts are kept: its organization, its ticket and its key (mail_messages.message_key). */
export interface MessageOfParts {
  organizationId: string;
  ticketId: string;
  messageKey: string;
}

/**
 * Keeps the message's parts as the ticket's attachments under the upload rules
 * (docs/api-behaviour.md#attachments-and-downloads): allowed types, 30 MB, content matching the
 * declared type, the organization's storage quota. Each part is its own attachment (row, event and
 * bytes, as an upload) with an id derived from the message and the part's place, so keeping them
 * again after a crash (mail.attachments.recovery.ts) skips those already kept; a refused part is
 * named, with why, in one internal note on the ticket, written with the clearing of the message's
 * `attachments_pending` mark, once.
 */
export async function keepAttachments(deps: MailAttachmentDeps, message: MessageOfParts, parts: Part[]): Promise<void> {
  const { organizationId, ticketId } = message;
  const refused: string[] = [];
  for (const [index, part] of parts.entries()) {
    const name = `${part.filename} (${normalizeMimeType(part.mimeType)}, ${part.content.length} bytes)`;
    if (index >= MAX_ATTACHMENTS_PER_MESSAGE) {
      refused.push(`${name}: a message keeps at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments`);
      continue;
    }
    const reason = await keepOne(deps, organizationId, ticketId, partAttachmentId(message, index), part);
    if (reason !== null) refused.push(`${name}: ${reason}`);
  }
  await finishParts(deps.store, message, refused);
}

/** A UUID (version 5 layout) from the message and the part's place: the same part, the same id. */
export function partAttachmentId(message: Pick<MessageOfParts, 'organizationId' | 'messageKey'>, index: number): string {
  const hex = createHash('sha256').update(`${message.organizationId}\n${message.messageKey}\n${index}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Stores one part as an attachment; null, or why it was refused. */
async function keepOne(deps: MailAttachmentDeps, organizationId: string, ticketId: string, id: string, part: Part): Promise<string | null> {
  // Kept before a crash: not again.
  if (await findAttachment(deps.store.db, organizationId, ticketId, id)) return null;
  const type = normalizeMimeType(part.mimeType);
  if (!ALLOWED_TYPES.has(type)) return `File type '${type}' is not allowed`;
  if (part.content.length > MAX_FILE_BYTES) return 'File size exceeds the 30 MB maximum';
  const quota = deps.config.storageQuotaBytes;
  try {
    const source = pipeline(Readable.from([Buffer.from(part.content)]), new SignatureCheck(type), () => undefined);
    const size = await deps.blobs.stage(id, source, { organizationId }).catch((error: unknown) => {
      // The same part is being staged by another recovery (its id derives from the message): leave it to that one.
      if ((error as { code?: unknown }).code === 'EEXIST' || isUniqueViolation(error)) throw new PartBusy(id);
      throw error;
    });
    const row = {
      id,
      organization_id: organizationId,
      ticket_id: ticketId,
      filename: safeFilename(part.filename),
      content_type: type,
      size_bytes: size,
      uploaded_by_user_id: null,
      created_at: nowIso(),
    };
    const over = await withEvents(deps.store.db, organizationId, SYSTEM_ACTOR, async (trx, events) => {
      await insertAttachment(trx, row);
      // As for uploads: the insert's trigger counted it, so concurrent ones are seen; over rolls back.
      if (quota > 0 && (await storageUsed(trx, organizationId)) > quota) throw new QuotaExceeded();
      events.add({ type: 'attachment.created', resourceType: 'attachment', resourceId: id, ticketId, object: presentAttachment(row), occurredAt: row.created_at });
      return false;
    }).catch((error: unknown) => {
      if (error instanceof QuotaExceeded) return true;
      // Another process recovering the same message kept it first.
      if (isUniqueViolation(error)) return 'kept';
      throw error;
    });
    if (over === 'kept') {
      await deps.blobs.discard(id);
      return null;
    }
    if (over) {
      await deps.blobs.discard(id);
      return "the organization's storage quota is used up";
    }
    await deps.blobs.publish(id);
    return null;
  } catch (error) {
    if (error instanceof PartBusy) throw error;
    await deps.blobs.discard(id).catch(() => undefined);
    if (error instanceof AppError) return error.detail;
    throw error;
  }
}

class QuotaExceeded extends Error {}

/** Another recovery is keeping this very part now: this one stops, leaving the message marked for the next pass. */
export class PartBusy extends Error {
  constructor(id: string) {
    super(`attachment ${id} is being kept by another process`);
  }
}

function safeFilename(name: string): string {
  try {
    return storedFilename(name);
  } catch {
    return 'attachment';
  }
}

/**
 * Clears the message's mark and, when parts were refused, adds the note naming them, in one
 * transaction: only the caller that clears the mark writes the note, so it is never written twice.
 */
async function finishParts(store: Store, message: MessageOfParts, refused: string[]): Promise<void> {
  const { organizationId, ticketId } = message;
  const now = creationTimeIso();
  const row = {
    id: randomUUID(),
    organization_id: organizationId,
    ticket_id: ticketId,
    body: ['Parts of the message were not kept as attachments (they remain in the original message):', ...refused.map((r) => `- ${r}`)].join('\n').slice(0, 100_000),
    is_internal: 1,
    author_user_id: null,
    author_customer_id: null,
    created_at: now,
    updated_at: now,
    channel: 'email' as const,
    email: null,
  };
  await withEvents(store.db, organizationId, SYSTEM_ACTOR, async (trx, events) => {
    if (!(await clearAttachmentsPending(trx, organizationId, message.messageKey)) || refused.length === 0) return;
    await insertComment(trx, row);
    events.add({ type: 'comment.created', resourceType: 'comment', resourceId: row.id, ticketId, object: presentComment(row), occurredAt: now });
  });
}
