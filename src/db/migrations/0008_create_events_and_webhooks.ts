import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * The event log, the change feed's positions and webhooks (docs/api-behaviour.md#events, #webhooks).
 *
 * - `events`: one row per change, written in the changing transaction. `position` is the event's
 *   place in its organization's feed: null while the transaction runs, set just before it commits
 *   from `event_counters` (see events.repository.ts), so positions follow commit order, gapless.
 *   `seq` only orders the rows a transaction wrote; it is never exposed.
 * - `event_counters`: the last position handed out per organization. A row of its own, apart from
 *   `organizations` (whose row a ticket create locks for its whole transaction), so the short lock
 *   taken at the end of every writing transaction never waits behind, or deadlocks with, others.
 * - `webhook_endpoints`: subscriptions, with their delivery state (the position up to which events
 *   were handed to the endpoint, when it is next due, and the lease of the process delivering it).
 * - `webhook_deliveries`: the outbox and the delivery log: one row per (endpoint, event) once it is
 *   the endpoint's turn, with its attempts; deleted with its event or its endpoint.
 *
 * JSON (event data, scope and type lists) is text on both dialects, like the timestamps.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);

  await db.schema
    .createTable('events')
    .addColumn('seq', dialect === 'sqlite' ? 'integer' : 'bigint', (c) =>
      dialect === 'sqlite' ? c.primaryKey() : c.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('position', 'bigint')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_user_id', 'text')
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  // The feed reads an organization's events in position order; deliveries refer to events by it.
  // Rows still without a position (their transaction is running) are NULL, which a unique index allows.
  await db.schema.createIndex('events_org_position_key').unique().on('events').columns(['organization_id', 'position']).execute();
  // A ticket's history: its own events and those of its comments and attachments.
  await db.schema.createIndex('events_org_ticket_idx').on('events').columns(['organization_id', 'ticket_id', 'position']).execute();

  await db.schema
    .createTable('event_counters')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('position', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('disabled_reason', 'text')
    .addColumn('cursor_position', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_endpoints_org_id_key').unique().on('webhook_endpoints').columns(['organization_id', 'id']).execute();
  await db.schema
    .createIndex('webhook_endpoints_org_created_idx')
    .on('webhook_endpoints')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_position', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('manual', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_attempt_at', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('response_latency_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addForeignKeyConstraint('webhook_deliveries_endpoint_id_fkey', ['organization_id', 'endpoint_id'], 'webhook_endpoints', ['organization_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('webhook_deliveries_event_fkey', ['organization_id', 'event_position'], 'events', ['organization_id', 'position'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  // The delivery log of an endpoint, newest event first; one delivery per event and endpoint.
  await db.schema
    .createIndex('webhook_deliveries_org_endpoint_position_key')
    .unique()
    .on('webhook_deliveries')
    .columns(['organization_id', 'endpoint_id', 'event_position'])
    .execute();
  // An endpoint's next delivery: the oldest pending one. Pending deliveries are a handful per
  // endpoint, while the log holds everything retained, so they get an index of their own.
  await db.schema
    .createIndex('webhook_deliveries_pending_idx')
    .on('webhook_deliveries')
    .columns(['organization_id', 'endpoint_id', 'event_position'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // Pruning an event deletes its deliveries (the foreign key cascades): the index that finds them.
  await db.schema.createIndex('webhook_deliveries_org_event_idx').on('webhook_deliveries').columns(['organization_id', 'event_position']).execute();

  await grantNewScopesToUnrestrictedAdminKeys(db);
}

/** Every scope that existed before this migration, frozen: an admin key holding all of them was unrestricted. */
const SCOPES_BEFORE = [
  ...['tickets', 'comments', 'attachments', 'customers', 'teams', 'users'].flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:delete`]),
  'dashboard:read',
];
const NEW_SCOPES = ['events:read', 'webhooks:read', 'webhooks:write', 'webhooks:delete'];

/**
 * Keys store their scopes as an explicit list, so an admin key made with "all scopes" would not
 * get the new ones by itself. An admin key that holds every scope that existed until now was made
 * unrestricted (the default, and the first key of every installation): it gets the new scopes too
 * (admin keys get them by default). Keys with a narrower list, and read-only keys,
 * keep exactly what they were given.
 */
async function grantNewScopesToUnrestrictedAdminKeys(db: Kysely<any>): Promise<void> {
  const keys = await db.selectFrom('api_keys').select(['id', 'scopes']).where('role', '=', 'admin').execute();
  for (const key of keys as Array<{ id: string; scopes: string }>) {
    const scopes = JSON.parse(key.scopes) as string[];
    if (!SCOPES_BEFORE.every((s) => scopes.includes(s))) continue;
    const granted = [...scopes, ...NEW_SCOPES.filter((s) => !scopes.includes(s))];
    await db.updateTable('api_keys').set({ scopes: JSON.stringify(granted) }).where('id', '=', key.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_deliveries', 'webhook_endpoints', 'event_counters', 'events']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  const keys = await db.selectFrom('api_keys').select(['id', 'scopes']).execute();
  for (const key of keys as Array<{ id: string; scopes: string }>) {
    const scopes = JSON.parse(key.scopes) as string[];
    if (!scopes.some((s) => NEW_SCOPES.includes(s))) continue;
    await db.updateTable('api_keys').set({ scopes: JSON.stringify(scopes.filter((s) => !NEW_SCOPES.includes(s))) }).where('id', '=', key.id).execute();
  }
}
