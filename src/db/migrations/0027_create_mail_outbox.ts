import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Mail going out (docs/api-behaviour.md#email): a durable outbox, written in the transaction of
 * what causes the mail (a public agent comment) or right after it (an acknowledgement), and sent
 * by a job that leases rows (`lease_owner`, `lease_expires_at`) so one process of a fleet sends
 * each message. `comments.delivery` is the comment's view of its row (JSON), kept in step by the
 * job.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('mailbox_id', 'text')
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('comment_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('from_name', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('in_reply_to', 'text')
    .addColumn('references', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // The job's queue: queued rows by when they are due.
  await db.schema.createIndex('mail_outbox_due_idx').on('mail_outbox').column('next_attempt_at').where(sql.ref('status'), '=', 'queued').execute();
  // A ticket's thread (References), and the hourly count of automated mail per recipient.
  await db.schema.createIndex('mail_outbox_org_ticket_idx').on('mail_outbox').columns(['organization_id', 'ticket_id', 'created_at']).execute();
  await db.schema.createIndex('mail_outbox_org_to_idx').on('mail_outbox').columns(['organization_id', 'to_address', 'created_at']).execute();
  await db.schema.alterTable('comments').addColumn('delivery', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').dropColumn('delivery').execute();
  await db.schema.dropTable('mail_outbox').ifExists().execute();
}
