import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * A comment names the ticket's attachments it carries (docs/api-behaviour.md#email: a public
 * agent comment is mailed with them): a JSON array of attachment ids, null for none. Deleting an
 * attachment takes its id out of the comments that name it.
 *
 * A message taken in by mail whose attachments are still to be kept has `attachments_pending = 1`
 * from the transaction that made its ticket or comment until they are all kept: a crash in between
 * leaves the mark, and the recovery job keeps the rest (only marked rows are indexed).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').addColumn('attachment_ids', 'text').execute();
  await db.schema.alterTable('mail_messages').addColumn('attachments_pending', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createIndex('mail_messages_attachments_pending_idx')
    .on('mail_messages')
    .column('created_at')
    .where(sql.ref('attachments_pending'), '=', 1)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mail_messages_attachments_pending_idx').execute();
  await db.schema.alterTable('mail_messages').dropColumn('attachments_pending').execute();
  await db.schema.alterTable('comments').dropColumn('attachment_ids').execute();
}
