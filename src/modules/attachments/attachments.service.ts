import { randomUUID } from 'node:crypto';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { AuthContext } from '../../auth/authenticate.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { AttachmentRow } from '../../db/types.js';
import { AppError, errors } from '../../errors.js';
import { toAppError } from '../../http/error-handler.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import { pipeline } from 'node:stream';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { SignedUrl, UrlSigner } from '../../storage/signed-urls.js';
import { actorOf, withEvents, type Actor, type EventLog } from '../events/events.log.js';
import { storageUsed } from '../organizations/organizations.repository.js';
import { getTicketRow } from '../tickets/tickets.service.js';
import type { Attachment } from './attachments.schemas.js';
import {
  deleteAttachment as deleteAttachmentRow,
  findAttachment,
  insertAttachment,
  listAttachments as listAttachmentRows,
} from './attachments.repository.js';
import type { UploadFingerprint } from '../../idempotency/idempotency.plugin.js';
import { ALLOWED_TYPES, normalizeMimeType, SignatureCheck } from './file-types.js';
import { storedFilename } from './filenames.js';
import { dropAttachmentFromComments } from '../comments/comments.repository.js';

export interface AttachmentDeps {
  store: Store;
  blobs: BlobStore;
  signer: UrlSigner;
  config: Pick<Config, 'storageQuotaBytes'>;
}

/** 30 MiB (docs/api-behaviour.md#attachments-and-downloads). */
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
  /** With an Idempotency-Key: takes in the file's bytes as they stream to storage. */
  fingerprint: UploadFingerprint | null = null,
): Promise<Attachment> {
  const id = randomUUID();
  const quota = deps.config.storageQuotaBytes;
  // Room left under the organization's quota: checked while the file streams in, so an upload that
  // cannot fit stops early; the commit checks again, exactly, against uploads committed meanwhile.
  const { usedBefore, room } = await quotaRoom(deps, auth.organizationId);
  let upload: { filename: string; contentType: string; size: number } | null = null;
  try {
    for await (const part of readableParts(parts)) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || upload) {
        part.file.destroy();
        throw errors.badRequest(ONE_FILE_PART);
      }
      let accepted: AcceptedPart;
      try {
        accepted = acceptPart(part);
      } catch (error) {
        part.file.destroy();
        throw error;
      }
      const { contentType, filename } = accepted;
      const overQuota = () => errors.storageQuotaExceeded(usedBefore, quota);
      fingerprint?.begin(part.filename, part.mimetype);
      const size = await stageFile(deps.blobs, id, auth.organizationId, part, contentType, overQuota, room, fingerprint);
      fingerprint?.finish();
      upload = { filename, contentType, size };
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
    const actor = actorOf(auth);
    await withEvents(deps.store.db, auth.organizationId, actor, async (trx, events) => {
      await recordAttachment(trx, events, row, quota);
    }).catch(async (error: unknown) => {
      if (error instanceof AppError) throw error;
      // The ticket may have been deleted while the file streamed: the foreign key refuses the row.
      if (!(await findTicketQuietly(deps, auth.organizationId, ticketId))) throw errors.notFound('Ticket');
      throw error;
    });
    await deps.blobs.publish(id).catch(async (error: unknown) => {
      // The row was committed (and announced): take it back the same way, so the log stays true.
      await removeAttachmentRow(deps, auth.organizationId, ticketId, id, actor);
      throw error;
    });
    return presentAttachment(row);
  } catch (error) {
    await deps.blobs.discard(id);
    throw error;
  }
}

/** What a file part declares, once accepted: its normalized type and the name it is stored under. */
export interface AcceptedPart {
  contentType: string;
  filename: string;
}

/** A file part's declared type and name, checked before any of its bytes is read (§8's allowed types). */
export function acceptPart(part: MultipartFile): AcceptedPart {
  const contentType = normalizeMimeType(part.mimetype);
  if (!ALLOWED_TYPES.has(contentType)) throw errors.fileTypeNotAllowed(contentType, [...ALLOWED_TYPES]);
  return { contentType, filename: storedFilename(part.filename) };
}

/** The organization's usage and the room left under its quota (infinite without a quota). */
export async function quotaRoom(deps: Pick<AttachmentDeps, 'store' | 'config'>, organizationId: string): Promise<{ usedBefore: number; room: number }> {
  const quota = deps.config.storageQuotaBytes;
  const usedBefore = quota === 0 ? 0 : await storageUsed(deps.store.db, organizationId);
  return { usedBefore, room: quota === 0 ? Number.POSITIVE_INFINITY : quota - usedBefore };
}

/**
 * Inserts an attachment row with its `attachment.created` event, inside the caller's transaction,
 * and checks the quota exactly: the insert's trigger added the size to the organization's usage
 * and holds its lock until commit, so concurrent uploads (any process) are counted here: over the
 * quota rolls back. The caller publishes the staged bytes after the commit.
 */
export async function recordAttachment(trx: Executor, events: EventLog, row: AttachmentRow & { created_at: string }, quota: number): Promise<Attachment> {
  await insertAttachment(trx, row);
  if (quota > 0) {
    const used = await storageUsed(trx, row.organization_id);
    if (used > quota) throw errors.storageQuotaExceeded(used - Number(row.size_bytes), quota);
  }
  const attachment = presentAttachment(row);
  events.add({ type: 'attachment.created', resourceType: 'attachment', resourceId: row.id, ticketId: row.ticket_id, object: attachment, occurredAt: row.created_at });
  return attachment;
}

async function findTicketQuietly(deps: AttachmentDeps, organizationId: string, ticketId: string): Promise<boolean> {
  return getTicketRow(deps.store.db, organizationId, ticketId).then(
    () => true,
    () => false,
  );
}

/**
 * The parts of the request. A body the parser cannot read — one that ends before its closing
 * boundary, uses another boundary than its Content-Type names, or has a broken part header — is
 * the client's error: a 400, never a 500. (Only the parser's errors pass through here: an error of
 * the loop body ends this generator with `return`, not by throwing into it.)
 */
export async function* readableParts(parts: AsyncIterable<Multipart>): AsyncGenerator<Multipart> {
  try {
    for await (const part of parts) yield part;
  } catch (error) {
    throw asUploadError(error);
  }
}

/** Errors of the multipart parser as the client's errors: ours and Fastify's keep their meaning. */
function asUploadError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  // Fastify's multipart errors (limits, a premature close) carry a 4xx; busboy's own carry nothing.
  const mapped = toAppError(error as Error);
  return mapped.statusCode < 500 ? mapped : errors.malformedUpload();
}

/**
 * The bytes of one file part. Read by async iteration, which (unlike `pipe` and `'error'`
 * listeners attached now) also reports a stream that already failed before we got to it: with
 * PostgreSQL the ticket check takes a round trip, and a small body that ends without its closing
 * boundary has by then been parsed to the end, its file stream already destroyed with the parser's
 * error. Listening for events that had already happened is what made such uploads hang forever.
 */
async function* fileBytes(
  file: MultipartFile['file'],
  tooMuch: () => AppError,
  room: number,
  fingerprint: UploadFingerprint | null,
): AsyncGenerator<Buffer> {
  let seen = 0;
  try {
    for await (const chunk of file) {
      seen += (chunk as Buffer).length;
      if (seen > room) throw tooMuch();
      fingerprint?.add(chunk as Buffer);
      yield chunk as Buffer;
    }
  } catch (error) {
    throw asUploadError(error);
  }
  // The parser stops a file at the size limit and ends it short; a truncated file is never kept.
  if (file.truncated) throw errors.fileTooLarge();
}

/**
 * Streams one part to staging through the signature check. The parser stops a file at the size
 * limit and emits `limit`; the read is then failed at once, so no truncated file is ever kept and
 * the rest of the request is not read. Any failure destroys the part's stream, which makes the
 * parser stop reading the request (it is then closed), as soon as the upload fails rather than
 * once the store has cleaned up (a database round trip or two), so a fast client cannot push
 * megabytes more meanwhile.
 */
export async function stageFile(
  blobs: BlobStore,
  id: string,
  organizationId: string,
  part: MultipartFile,
  contentType: string,
  overQuota: () => AppError,
  room: number,
  fingerprint: UploadFingerprint | null,
): Promise<number> {
  const file = part.file;
  const onLimit = () => file.destroy(errors.fileTooLarge());
  if (file.truncated) onLimit();
  else file.once('limit', onLimit);
  // pipeline, not pipe: an error anywhere (the parser's, the size limit, a mismatching signature,
  // the store's) ends every stage, and ending the generator destroys the part's stream.
  const source = pipeline(fileBytes(file, overQuota, room, fingerprint), new SignatureCheck(contentType), () => undefined);
  try {
    const size = await blobs.stage(id, source, { organizationId });
    if (size > MAX_FILE_BYTES) throw errors.fileTooLarge();
    return size;
  } catch (error) {
    file.destroy();
    throw error;
  } finally {
    file.off('limit', onLimit);
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

/** Deletes the row with its `attachment.deleted` event; false when there was none. */
async function removeAttachmentRow(deps: AttachmentDeps, organizationId: string, ticketId: string, id: string, actor: Actor, ifMatch?: IfMatch): Promise<boolean> {
  return withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    const current = await findAttachment(trx, organizationId, ticketId, id, true);
    if (!current) return false;
    assertIfMatch(ifMatch, presentAttachment(current), 'The attachment');
    if (!(await deleteAttachmentRow(trx, organizationId, ticketId, id))) return false;
    await dropAttachmentFromComments(trx, organizationId, ticketId, id);
    events.add({ type: 'attachment.deleted', resourceType: 'attachment', resourceId: id, ticketId, object: presentAttachment(current) });
    return true;
  });
}

/**
 * Removes the row, then the bytes. The database store's bytes go with the row (cascade); on disk
 * a crash between the two leaves only a file, which the start-up sweep removes.
 */
export async function deleteAttachment(deps: AttachmentDeps, organizationId: string, ticketId: string, id: string, actor: Actor, ifMatch?: IfMatch): Promise<void> {
  await getTicketRow(deps.store.db, organizationId, ticketId);
  if (!(await removeAttachmentRow(deps, organizationId, ticketId, id, actor, ifMatch))) throw errors.notFound('Attachment');
  await deps.blobs.remove([id]);
}

export async function downloadLink(deps: AttachmentDeps, organizationId: string, ticketId: string, id: string): Promise<SignedUrl> {
  const row = await getAttachmentRow(deps, organizationId, ticketId, id);
  return deps.signer.sign(row.id);
}
