import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * `updated_since` on the ticket and customer lists ("what changed since my last sync")
 * is served by an index per organization on `updated_at`, like every other list filter. `id` ends
 * each, so the index also orders a sync by (updated_at, id) should a list ever be read that way.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tickets_org_updated_at_idx').on('tickets').columns(['organization_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('customers_org_updated_at_idx').on('customers').columns(['organization_id', 'updated_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('customers_org_updated_at_idx').ifExists().execute();
  await db.schema.dropIndex('tickets_org_updated_at_idx').ifExists().execute();
}
