import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Bounces (docs/api-behaviour.md#email): a customer whose mail bounced hard 3 times in a row is
 * `bouncing` and is sent no more mail until their address changes. `email_hard_bounces` counts
 * the run.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('customers').addColumn('email_status', 'text', (c) => c.notNull().defaultTo('ok')).execute();
  await db.schema.alterTable('customers').addColumn('email_hard_bounces', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('customers').dropColumn('email_hard_bounces').execute();
  await db.schema.alterTable('customers').dropColumn('email_status').execute();
}
