import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Tables of the `database` attachment backend (STORAGE_BACKEND=database).
 *
 * `attachment_blobs` has one row per stored file, keyed by the attachment id. While an upload
 * streams in, the row is *staged*: `attachment_id` is null, so nothing refers to an attachment
 * that does not exist yet. Once the attachment row is committed, `attachment_id` is set to the same
 * id (publishing: one small update, the bytes are not copied), and from then on deleting the
 * attachment — directly, or through its ticket, customer or organization — cascades to the blob
 * and its chunks in the same statement. A staged blob whose upload failed is deleted at once; one
 * left by a crash is deleted by the sweep.
 *
 * `attachment_chunks` holds the bytes, `chunk_bytes` per row (the last row may be shorter), so a
 * byte range maps to the few rows that hold it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';

  await db.schema
    .createTable('attachment_blobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('attachment_id', 'text', (c) => c.unique().references('attachments.id').onDelete('cascade'))
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('chunk_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Moved on with every chunk written: a staged blob untouched for long is an abandoned upload.
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Deleting an organization cascades here through organization_id: index the referencing side.
  await db.schema.createIndex('attachment_blobs_org_idx').on('attachment_blobs').column('organization_id').execute();
  // The sweep looks for staged blobs only, by when they were last written.
  await db.schema
    .createIndex('attachment_blobs_staged_idx')
    .on('attachment_blobs')
    .column('updated_at')
    .where(sql<boolean>`attachment_id is null`)
    .execute();

  await db.schema
    .createTable('attachment_chunks')
    .addColumn('blob_id', 'text', (c) => c.notNull().references('attachment_blobs.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('attachment_chunks_pkey', ['blob_id', 'seq'])
    .execute();
  if (postgres) {
    // Uploads are mostly compressed already (images, video, archives, PDF): skip TOAST's attempt to
    // compress them again; uncompressed out-of-line storage also lets slices be read cheaply.
    await sql`alter table attachment_chunks alter column data set storage external`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('attachment_chunks').ifExists().execute();
  await db.schema.dropTable('attachment_blobs').ifExists().execute();
}
