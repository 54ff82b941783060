import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Mail taken in (docs/api-behaviour.md#email).
 *
 * - `tickets.channel` and `comments.channel`: `api`, `portal` or `email`. Existing comments
 *   written by a customer came through the portal; everything else through the API.
 * - `tickets.email` and `comments.email`: the `email` block of what came by mail (JSON text).
 * - `mail_messages`: every message taken in, once per organization by `message_key` (its
 *   Message-ID, or a hash of its bytes when it has none): the unique index is what makes a second
 *   intake of the same message a duplicate, also across processes. It keeps the raw message
 *   (for download and for the record) and what became of it. No foreign key to tickets or
 *   comments: the record of a message outlives them, so it is never taken again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  for (const table of ['tickets', 'comments']) {
    await db.schema.alterTable(table).addColumn('channel', 'text', (c) => c.notNull().defaultTo('api')).execute();
    await db.schema.alterTable(table).addColumn('email', 'text').execute();
  }
  await db.updateTable('comments').set({ channel: 'portal' }).where('author_customer_id', 'is not', null).execute();

  await db.schema
    .createTable('mail_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('mailbox_id', 'text')
    .addColumn('message_key', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text')
    .addColumn('comment_id', 'text')
    .addColumn('raw', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_messages_org_key_key').unique().on('mail_messages').columns(['organization_id', 'message_key']).execute();
  await db.schema.createIndex('mail_messages_org_ticket_idx').on('mail_messages').columns(['organization_id', 'ticket_id']).execute();
  await db.schema
    .createIndex('mail_messages_org_comment_idx')
    .on('mail_messages')
    .columns(['organization_id', 'comment_id'])
    .where(sql.ref('comment_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('mail_messages').ifExists().execute();
  for (const table of ['tickets', 'comments']) {
    await db.schema.alterTable(table).dropColumn('email').execute();
    await db.schema.alterTable(table).dropColumn('channel').execute();
  }
}
