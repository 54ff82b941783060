import { randomUUID } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import { AppError } from '../../errors.js';
import { creationTimeIso } from '../../shared/clock.js';
import { nowIso } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { insertAttachment } from '../attachments/attachments.repository.js';
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

/**
 * Keeps the message's parts as the ticket's attachments under the upload rules
 * (docs/api-behaviour.md#attachments-and-downloads): allowed types, 30 MB, content matching the
 * declared type, the organization's storage quota. Each part is its own attachment (row, event and
 * bytes, as an upload); a refused part is named, with why, in one internal note on the ticket.
 */
export async function keepAttachments(deps: MailAttachmentDeps, organizationId: string, ticketId: string, parts: Part[]): Promise<void> {
  const refused: string[] = [];
  for (const [index, part] of parts.entries()) {
    const name = `${part.filename} (${normalizeMimeType(part.mimeType)}, ${part.content.length} bytes)`;
    if (index >= MAX_ATTACHMENTS_PER_MESSAGE) {
      refused.push(`${name}: a message keeps at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments`);
      continue;
    }
    const reason = await keepOne(deps, organizationId, ticketId, part);
    if (reason !== null) refused.push(`${name}: ${reason}`);
  }
  if (refused.length > 0) await addNote(deps.store, organizationId, ticketId, refused);
}

/** Stores one part as an attachment; null, or why it was refused. */
async function keepOne(deps: MailAttachmentDeps, organizationId: string, ticketId: string, part: Part): Promise<string | null> {
  const type = normalizeMimeType(part.mimeType);
  if (!ALLOWED_TYPES.has(type)) return `File type '${type}' is not allowed`;
  if (part.content.length > MAX_FILE_BYTES) return 'File size exceeds the 30 MB maximum';
  const quota = deps.config.storageQuotaBytes;
  const id = randomUUID();
  try {
    const source = pipeline(Readable.from([Buffer.from(part.content)]), new SignatureCheck(type), () => undefined);
    const size = await deps.blobs.stage(id, source, { organizationId });
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
      throw error;
    });
    if (over) {
      await deps.blobs.discard(id);
      return "the organization's storage quota is used up";
    }
    await deps.blobs.publish(id);
    return null;
  } catch (error) {
    await deps.blobs.discard(id).catch(() => undefined);
    if (error instanceof AppError) return error.detail;
    throw error;
  }
}

class QuotaExceeded extends Error {}

function safeFilename(name: string): string {
  try {
    return storedFilename(name);
  } catch {
    return 'attachment';
  }
}

async function addNote(store: Store, organizationId: string, ticketId: string, refused: string[]): Promise<void> {
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
    await insertComment(trx, row);
    events.add({ type: 'comment.created', resourceType: 'comment', resourceId: row.id, ticketId, object: presentComment(row), occurredAt: now });
  });
}
