import type { Insertable } from 'kysely';
import type { AttachmentBlobsTable } from '../db/types.js';
import type { Executor } from '../shared/executor.js';

/** SQL of the `database` attachment backend (tables from migration 0003). */

export async function insertBlob(db: Executor, row: Insertable<AttachmentBlobsTable>): Promise<void> {
  await db.insertInto('attachment_blobs').values(row).execute();
}

export async function insertChunk(db: Executor, blobId: string, organizationId: string, seq: number, data: Uint8Array): Promise<void> {
  await db.insertInto('attachment_chunks').values({ blob_id: blobId, organization_id: organizationId, seq, data }).execute();
}

/** Marks a staged blob as still being written, so a sweep leaves it alone. */
export async function touchBlob(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('attachment_blobs').set({ updated_at: now }).where('id', '=', id).execute();
}

export async function setBlobSize(db: Executor, id: string, sizeBytes: number): Promise<void> {
  await db.updateTable('attachment_blobs').set({ size_bytes: sizeBytes }).where('id', '=', id).execute();
}

/** Size and chunk size of a blob, staged or published; undefined when there is none. */
export async function findBlob(db: Executor, id: string): Promise<{ size: number; chunkBytes: number } | undefined> {
  const row = await db.selectFrom('attachment_blobs').select(['size_bytes', 'chunk_bytes']).where('id', '=', id).executeTakeFirst();
  return row && { size: Number(row.size_bytes), chunkBytes: Number(row.chunk_bytes) };
}

/** One chunk's bytes; undefined when the row is missing. */
export async function readChunk(db: Executor, blobId: string, seq: number): Promise<Uint8Array | undefined> {
  const row = await db.selectFrom('attachment_chunks').select('data').where('blob_id', '=', blobId).where('seq', '=', seq).executeTakeFirst();
  return row?.data;
}

/**
 * Links a staged blob to its committed attachment row, after which deleting the row deletes the
 * bytes. Does nothing if the blob is already published or the attachment row is gone.
 */
export async function publishBlob(db: Executor, id: string): Promise<void> {
  await db
    .updateTable('attachment_blobs')
    .set({ attachment_id: id })
    .where('id', '=', id)
    .where('attachment_id', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('attachments').select('attachments.id').where('attachments.id', '=', id)))
    .execute();
}

/** Deletes a blob (its chunks cascade) if it is still staged. */
export async function deleteStagedBlob(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('attachment_blobs').where('id', '=', id).where('attachment_id', 'is', null).execute();
}

/** Deletes blobs, staged or published, with their chunks. */
export async function deleteBlobs(db: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('attachment_blobs').where('id', 'in', ids).execute();
}

/** Publishes every staged blob whose attachment row exists; resolves to how many. */
export async function publishStagedBlobsWithRows(db: Executor): Promise<number> {
  const result = await db
    .updateTable('attachment_blobs')
    .set((eb) => ({ attachment_id: eb.ref('attachment_blobs.id') }))
    .where('attachment_id', 'is', null)
    .where((eb) => eb.exists(eb.selectFrom('attachments').select('attachments.id').whereRef('attachments.id', '=', 'attachment_blobs.id')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes staged blobs last written before `before` (ISO 8601) with their chunks; resolves to how many. */
export async function removeStagedBlobsBefore(db: Executor, before: string): Promise<number> {
  const result = await db.deleteFrom('attachment_blobs').where('attachment_id', 'is', null).where('updated_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
