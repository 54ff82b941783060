import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * The delivery log keeps the start (4 KiB) of the receiver's answer body of the last attempt, next
 * to its HTTP status, so an integrator can see why a receiver refused a delivery. Null for
 * deliveries made before, and for attempts that got no answer.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('response_body', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('response_body').execute();
}
