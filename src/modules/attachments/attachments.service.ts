import { randomUUID } from 'node:crypto';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { AuthContext } from '../../auth/authenticate.js';
import type { Store } from '../../db/store.js';
import type { AttachmentRow } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { SignedUrl, UrlSigner } from '../../storage/signed-urls.js';
import { getTicketRow } from '../tickets/tickets.service.js';
import type { Attachment } from './attachments.schemas.js';
import {
  deleteAttachment as deleteAttachmentRow,
  findAttachment,
  insertAttachment,
  listAttachments as listAttachmentRows,
} from './attachments.repository.js';
import { ALLOWED_TYPES, normalizeMimeType, SignatureCheck } from './file-types.js';

export interface AttachmentDeps {
  store: Store;
  blobs: BlobStore;
  signer: UrlSigner;
}

/** 30 MiB (decisions §8). */
export const MAX_FILE_BYTES = 31_457_280;

export const ONE_FILE_PART = "Upload must be multipart/form-data with exactly one file part named 'file'";

export function presentAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    filename: row.filename,
    content_type: row.content_type,
    size_bytes: Number(row.size_bytes),
    uploaded_by_user_id: row.uploaded_by_user_id,
    created_at: toIso(row.created_at),
  };
}

async function getAttachmentRow(deps: AttachmentDeps, organizationId: string, ticketId: string, id: string): Promise<AttachmentRow> {
  await getTicketRow(deps.store.db, organizationId, ticketId);
  const row = await findAttachment(deps.store.db, organizationId, ticketId, id);
  if (!row) throw errors.notFound('Attachment');
  return row;
}

/** 404 before any byte of an upload is read. */
export async function checkTicket(deps: AttachmentDeps, organizationId: string, ticketId: string): Promise<void> {
  await getTicketRow(deps.store.db, organizationId, ticketId);
}

/**
 * Streams the one `file` part to staging, then commits the row and publishes the bytes. Text
 * fields are ignored; a second file part ends the request (the parser's files limit). Whatever
 * goes wrong before the row is committed, the staged bytes are discarded.
 */
export async function uploadAttachment(
  deps: AttachmentDeps,
  auth: AuthContext,
  ticketId: string,
  parts: AsyncIterable<Multipart>,
): Promise<Attachment> {
  const id = randomUUID();
  let upload: { filename: string; contentType: string; size: number } | null = null;
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || upload) {
        part.file.destroy();
        throw errors.badRequest(ONE_FILE_PART);
      }
      const contentType = normalizeMimeType(part.mimetype);
      if (!ALLOWED_TYPES.has(contentType)) {
        part.file.destroy();
        throw errors.fileTypeNotAllowed(contentType);
      }
      const size = await stageFile(deps.blobs, id, auth.organizationId, part, contentType);
      upload = { filename: part.filename, contentType, size };
    }
    if (!upload) throw errors.badRequest(`${ONE_FILE_PART}; the request has no file part`);
    const row = {
      id,
      organization_id: auth.organizationId,
      ticket_id: ticketId,
      filename: upload.filename,
      content_type: upload.contentType,
      size_bytes: upload.size,
      uploaded_by_user_id: auth.holderUserId,
      created_at: nowIso(),
    };
    // The ticket may have been deleted while the file streamed: the foreign key refuses the row.
    await insertAttachment(deps.store.db, row).catch(async (error: unknown) => {
      if (!(await findTicketQuietly(deps, auth.organizationId, ticketId))) throw errors.notFound('Ticket');
      throw error;
    });
    await deps.blobs.publish(id).catch(async (error: unknown) => {
      await deleteAttachmentRow(deps.store.db, auth.organizationId, ticketId, id);
      throw error;
    });
    return presentAttachment(row);
  } catch (error) {
    await deps.blobs.discard(id);
    throw error;
  }
}

async function findTicketQuietly(deps: AttachmentDeps, organizationId: string, ticketId: string): Promise<boolean> {
  return getTicketRow(deps.store.db, organizationId, ticketId).then(
    () => true,
    () => false,
  );
}

/**
 * Streams one part to staging through the signature check. The parser stops a file at the size
 * limit and emits `limit`; the write is then failed at once, so no truncated file is ever kept.
 */
async function stageFile(blobs: BlobStore, id: string, organizationId: string, part: MultipartFile, contentType: string): Promise<number> {
  const check = new SignatureCheck(contentType);
  // Stop reading the part: the parser then stops reading the request, which is closed. Done as
  // soon as the upload fails, not once the store has cleaned up (a database round trip or two),
  // or a fast client could push megabytes more meanwhile.
  const stopReading = () => {
    part.file.unpipe(check);
    part.file.destroy();
  };
  check.once('error', stopReading);
  part.file.on('limit', () => check.destroy(errors.fileTooLarge()));
  part.file.on('error', (error) => check.destroy(error));
  try {
    const size = await blobs.stage(id, part.file.pipe(check), { organizationId });
    if (part.file.truncated || size > MAX_FILE_BYTES) throw errors.fileTooLarge();
    return size;
  } catch (error) {
    stopReading();
    throw error;
  }
}

export async function listAttachments(deps: AttachmentDeps, organizationId: string, ticketId: string, page: Page): Promise<Attachment[]> {
  await getTicketRow(deps.store.db, organizationId, ticketId);
  const rows = await listAttachmentRows(deps.store.db, organizationId, ticketId, page);
  return rows.map(presentAttachment);
}

export async function getAttachment(deps: AttachmentDeps, organizationId: string, ticketId: string, id: string): Promise<Attachment> {
  return presentAttachment(await getAttachmentRow(deps, organizationId, ticketId, id));
}

/**
 * Removes the row, then the bytes. The database store's bytes go with the row (cascade); on disk
 * a crash between the two leaves only a file, which the start-up sweep removes.
 */
export async function deleteAttachment(deps: AttachmentDeps, organizationId: string, ticketId: string, id: string): Promise<void> {
  await getTicketRow(deps.store.db, organizationId, ticketId);
  if (!(await deleteAttachmentRow(deps.store.db, organizationId, ticketId, id))) throw errors.notFound('Attachment');
  await deps.blobs.remove([id]);
}

export async function downloadLink(deps: AttachmentDeps, organizationId: string, ticketId: string, id: string): Promise<SignedUrl> {
  const row = await getAttachmentRow(deps, organizationId, ticketId, id);
  return deps.signer.sign(row.id);
}
