import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Mailboxes of the email channel (docs/api-behaviour.md#email).
 *
 * - `inbound` and `outbound` are JSON text (passwords included: the service needs them to log in;
 *   the API never shows them). `outbound` null sends through the installation's SMTP_URL.
 * - `address` is stored lower-cased, once per organization.
 * - At most one `is_default` mailbox per organization: a partial unique index, so two concurrent
 *   requests cannot both make one.
 * - The mailboxes scopes are granted to the admin keys that held every scope until now, and
 *   `mailboxes:read` to the read-only keys that held every read scope (the defaults of new keys).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mailboxes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('auto_reply', 'integer', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('inbound', 'text', (c) => c.notNull())
    .addColumn('outbound', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('last_checked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mailboxes_org_address_key').unique().on('mailboxes').columns(['organization_id', 'address']).execute();
  await db.schema.createIndex('mailboxes_org_created_idx').on('mailboxes').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('mailboxes_org_default_key')
    .unique()
    .on('mailboxes')
    .column('organization_id')
    .where(sql.ref('is_default'), '=', 1)
    .execute();
  await grantScopes(db);
}

/** Every scope that existed before this migration, frozen. */
const SCOPES_BEFORE = [
  ...['tickets', 'comments', 'attachments', 'customers', 'teams', 'users'].flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:delete`]),
  'dashboard:read',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
];
const READ_SCOPES_BEFORE = SCOPES_BEFORE.filter((s) => s.endsWith(':read'));
const NEW_ADMIN_SCOPES = ['mailboxes:read', 'mailboxes:write', 'mailboxes:delete'];
const NEW_READ_SCOPES = ['mailboxes:read'];

/** Keys store their scopes as a list: those made with the defaults get the new scopes too. */
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
  await db.schema.dropTable('mailboxes').ifExists().execute();
  const keys = await db.selectFrom('api_keys').select(['id', 'scopes']).execute();
  for (const key of keys as Array<{ id: string; scopes: string }>) {
    const scopes = JSON.parse(key.scopes) as string[];
    if (!scopes.some((s) => NEW_ADMIN_SCOPES.includes(s))) continue;
    await db.updateTable('api_keys').set({ scopes: JSON.stringify(scopes.filter((s) => !NEW_ADMIN_SCOPES.includes(s))) }).where('id', '=', key.id).execute();
  }
}
