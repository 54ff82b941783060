import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Business-hours calendars (docs/api-behaviour.md, Business hours): an organization's named weekly
 * hours and holidays in one time zone, which SLA policies count time in. Keys made with the
 * defaults get the `sla:` scopes (as migration 0030 did for the `views:` scopes).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('business_hours')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('weekly', 'text', (c) => c.notNull())
    .addColumn('holidays', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('business_hours_pkey', ['organization_id', 'id'])
    .execute();
  await db.schema.createIndex('business_hours_org_created_idx').on('business_hours').columns(['organization_id', 'created_at', 'id']).execute();
  await grantScopes(db);
}

/** Every scope up to the views: ones (0030), frozen: a key holding all of them held every scope of its day. */
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
const NEW_ADMIN_SCOPES = ['sla:read', 'sla:write', 'sla:delete'];
const NEW_READ_SCOPES = ['sla:read'];

/** Keys store their scopes as a list: an admin key holding every scope, or a read-only key every read scope, gets the new ones. */
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
  await db.schema.dropTable('business_hours').ifExists().execute();
  const keys = await db.selectFrom('api_keys').select(['id', 'scopes']).execute();
  for (const key of keys as Array<{ id: string; scopes: string }>) {
    const scopes = JSON.parse(key.scopes) as string[];
    if (!scopes.some((s) => NEW_ADMIN_SCOPES.includes(s))) continue;
    await db.updateTable('api_keys').set({ scopes: JSON.stringify(scopes.filter((s) => !NEW_ADMIN_SCOPES.includes(s))) }).where('id', '=', key.id).execute();
  }
}
