import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * `idempotency_keys`: one row per `Idempotency-Key` a client sent on a POST (src/idempotency/,
 * docs/api-behaviour.md#safe-retries-idempotency-key): who sent it (organization and API key), what
 * was sent (a SHA-256 fingerprint of method, path and body), whether the first request is still
 * running (`in_flight`) or done (`complete`, with the status, the headers worth replaying and the
 * body of its answer), and when the key may be forgotten (`expires_at`, 24 hours after it was first
 * used).
 *
 * The primary key decides which of several concurrent requests with one key does the work, in
 * every process at once: the one whose insert succeeds. `expires_at` is indexed per organization
 * for the purge of expired keys.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['organization_id', 'api_key_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_org_expires_idx').on('idempotency_keys').columns(['organization_id', 'expires_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}
