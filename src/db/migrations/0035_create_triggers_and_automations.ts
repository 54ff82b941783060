import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Triggers and automations (docs/api-behaviour.md, Triggers and automations):
 * - `triggers`, run by the trigger worker, which follows each organization's event log with the
 *   cursor and lease of `trigger_cursors`; `trigger_runs` holds one row per (trigger, event) it
 *   acted on, written in the transaction of the trigger's changes, so an event never runs a trigger twice;
 * - `automations`, checked by a periodic job; `automation_runs` holds, per (automation, ticket),
 *   the moment of the ticket's last status change when it last ran, so a ticket gets an
 *   automation once per period of matching;
 * - `tickets.status_changed_at`, the time of a ticket's last status change (null: none since it was
 *   created), kept by a database trigger on both stores so every path that changes a status keeps it.
 * Keys made with the defaults get the `automations:` scopes (as migration 0030 gave `views:`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .createTable('triggers')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('on_types', 'text', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    // Events at or before this position of the feed (those before the trigger existed) never run it.
    .addColumn('after_position', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('triggers_pkey', ['organization_id', 'id'])
    .execute();
  await db.schema.createIndex('triggers_org_position_idx').on('triggers').columns(['organization_id', 'position', 'created_at', 'id']).execute();

  await db.schema
    .createTable('trigger_cursors')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .execute();

  await db.schema
    .createTable('trigger_runs')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('trigger_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trigger_runs_pkey', ['organization_id', 'trigger_id', 'event_id'])
    .addForeignKeyConstraint('trigger_runs_trigger_fkey', ['organization_id', 'trigger_id'], 'triggers', ['organization_id', 'id'], (c) => c.onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('automations')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    // The sweep's turn: due at next_run_at, leased to one process of a fleet while it runs.
    .addColumn('next_run_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('automations_pkey', ['organization_id', 'id'])
    .execute();
  await db.schema.createIndex('automations_org_created_idx').on('automations').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('automation_runs')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('automation_id', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('matched_since', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('automation_runs_pkey', ['organization_id', 'automation_id', 'ticket_id'])
    .addForeignKeyConstraint('automation_runs_automation_fkey', ['organization_id', 'automation_id'], 'automations', ['organization_id', 'id'], (c) =>
      c.onDelete('cascade'),
    )
    .execute();

  // The last status change: tickets changed before this migration get their best known time.
  await db.schema.alterTable('tickets').addColumn('status_changed_at', 'text').execute();
  await sql`update tickets set status_changed_at = case status
      when 'resolved' then coalesce(resolved_at, updated_at) when 'closed' then coalesce(closed_at, updated_at) else updated_at end
    where status <> 'new'`.execute(db);
  if (dialect === 'postgres') {
    await sql`create function tickets_status_changed() returns trigger language plpgsql as $$
      begin
        new.status_changed_at := new.updated_at;
        return new;
      end
      $$`.execute(db);
    await sql`create trigger tickets_status_changed before update on tickets for each row
      when (old.status is distinct from new.status) execute function tickets_status_changed()`.execute(db);
  } else {
    await sql`create trigger tickets_status_changed after update of status on tickets when old.status is not new.status begin
      update tickets set status_changed_at = new.updated_at where rowid = new.rowid;
    end`.execute(db);
  }
  await grantScopes(db);
}

/** Every scope before this migration, frozen (the keys that held all of these held every scope). */
const SCOPES_BEFORE = [
  ...['tickets', 'comments', 'attachments', 'customers', 'teams', 'users'].flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:delete`]),
  'dashboard:read',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  'fields:read',
  'fields:write',
  'fields:delete',
  'mailboxes:read',
  'mailboxes:write',
  'mailboxes:delete',
  'views:read',
  'views:write',
  'views:delete',
];
const READ_SCOPES_BEFORE = SCOPES_BEFORE.filter((s) => s.endsWith(':read'));
const NEW_ADMIN_SCOPES = ['automations:read', 'automations:write', 'automations:delete'];
const NEW_READ_SCOPES = ['automations:read'];

/** An admin key holding every scope, or a read-only key every read scope, gets the new ones. */
async function grantScopes(db: Kysely<any>): Promise<void> {
  const keys = await db.selectFrom('api_keys').select(['id', 'role', 'scopes']).execute();
  for (const key of keys as Array<{ id: string; role: string; scopes: string }>) {
    const scopes = JSON.parse(key.scopes) as string[];
    const [before, added] = key.role === 'admin' ? [SCOPES_BEFORE, NEW_ADMIN_SCOPES] : [READ_SCOPES_BEFORE, NEW_READ_SCOPES];
    if (!before.every((s) => scopes.includes(s))) continue;
    const granted = [...scopes, ...added.filter((s) => !scopes.includes(s))];
    if (granted.length === scopes.length) continue;
    await db.updateTable('api_keys').set({ scopes: JSON.stringify(granted) }).where('id', '=', key.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger if exists tickets_status_changed on tickets`.execute(db);
    await sql`drop function if exists tickets_status_changed()`.execute(db);
  } else {
    await sql`drop trigger if exists tickets_status_changed`.execute(db);
  }
  await db.schema.alterTable('tickets').dropColumn('status_changed_at').execute();
  for (const table of ['automation_runs', 'automations', 'trigger_runs', 'trigger_cursors', 'triggers']) await db.schema.dropTable(table).ifExists().execute();
  const keys = await db.selectFrom('api_keys').select(['id', 'scopes']).execute();
  for (const key of keys as Array<{ id: string; scopes: string }>) {
    const scopes = JSON.parse(key.scopes) as string[];
    if (!scopes.some((s) => NEW_ADMIN_SCOPES.includes(s))) continue;
    await db.updateTable('api_keys').set({ scopes: JSON.stringify(scopes.filter((s) => !NEW_ADMIN_SCOPES.includes(s))) }).where('id', '=', key.id).execute();
  }
}
