import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * IMAP intake (docs/api-behaviour.md#email): per mailbox the UIDVALIDITY and the last UID taken,
 * so no message is lost or taken twice across restarts; when it is next due and how many checks
 * failed in a row (backoff); and the lease of the process reading it, so one process of a fleet
 * reads a mailbox at a time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('mailboxes')
    .addColumn('imap_uid_validity', 'text')
    .execute();
  await db.schema.alterTable('mailboxes').addColumn('imap_last_uid', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('mailboxes').addColumn('next_check_at', 'text').execute();
  await db.schema.alterTable('mailboxes').addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('mailboxes').addColumn('lease_owner', 'text').execute();
  await db.schema.alterTable('mailboxes').addColumn('lease_expires_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['lease_expires_at', 'lease_owner', 'failures', 'next_check_at', 'imap_last_uid', 'imap_uid_validity']) {
    await db.schema.alterTable('mailboxes').dropColumn(column).execute();
  }
}
