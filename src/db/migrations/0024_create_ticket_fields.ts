import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Custom ticket fields (docs/api-behaviour.md, Custom fields):
 * - `ticket_fields`, an organization's definitions, unique by key;
 * - `tickets.custom_fields`, the ticket's values as a JSON object, so every read of a ticket has them;
 * - `ticket_field_values`, one row per value (per option of a multiselect), text or number, keyed
 *   so that a filter reads one field's value's tickets newest first from an index.
 * Admin keys that held every scope until now, and read-only keys that held every read scope, get
 * the new `fields:` scopes (as migration 0008 did for the event scopes).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ticket_fields')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('options', 'text')
    .addColumn('required', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // The organization leads every key (a schema that can be sharded by organization).
    .addPrimaryKeyConstraint('ticket_fields_pkey', ['organization_id', 'id'])
    .execute();
  await db.schema.createIndex('ticket_fields_org_key_key').unique().on('ticket_fields').columns(['organization_id', 'key']).execute();

  await db.schema.alterTable('tickets').addColumn('custom_fields', 'text', (c) => c.notNull().defaultTo('{}')).execute();

  await db.schema
    .createTable('ticket_field_values')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('field_id', 'text', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('ticket_number', 'bigint', (c) => c.notNull())
    .addColumn('value_text', 'text')
    .addColumn('value_number', 'double precision')
    .addPrimaryKeyConstraint('ticket_field_values_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint('ticket_field_values_ticket_id_fkey', ['organization_id', 'ticket_id'], 'tickets', ['organization_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('ticket_field_values_field_id_fkey', ['organization_id', 'field_id'], 'ticket_fields', ['organization_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  // A filter's value, newest first; and a ticket's own values (to change them, and the cascades).
  await db.schema
    .createIndex('ticket_field_values_text_idx')
    .on('ticket_field_values')
    .columns(['organization_id', 'field_id', 'value_text', 'ticket_number'])
    .execute();
  await db.schema
    .createIndex('ticket_field_values_number_idx')
    .on('ticket_field_values')
    .columns(['organization_id', 'field_id', 'value_number', 'ticket_number'])
    .execute();
  await db.schema.createIndex('ticket_field_values_ticket_idx').on('ticket_field_values').columns(['organization_id', 'ticket_id']).execute();
  await db.schema.createIndex('ticket_field_values_field_idx').on('ticket_field_values').columns(['organization_id', 'field_id', 'ticket_id']).execute();

  await grantFieldScopes(db);
}

/** Every scope before this migration, frozen. */
const SCOPES_BEFORE = [
  ...['tickets', 'comments', 'attachments', 'customers', 'teams', 'users'].flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:delete`]),
  'dashboard:read',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
];
const NEW_SCOPES = ['fields:read', 'fields:write', 'fields:delete'];

/**
 * Keys store their scopes as a list: an admin key holding every scope until now was made
 * unrestricted and gets the new ones; a read-only key holding every read scope gets fields:read.
 * Narrower keys keep exactly what they were given.
 */
async function grantFieldScopes(db: Kysely<any>): Promise<void> {
  const keys = await db.selectFrom('api_keys').select(['id', 'role', 'scopes']).execute();
  for (const key of keys as Array<{ id: string; role: string; scopes: string }>) {
    const scopes = JSON.parse(key.scopes) as string[];
    const admin = key.role === 'admin';
    const before = admin ? SCOPES_BEFORE : SCOPES_BEFORE.filter((s) => s.endsWith(':read'));
    if (!before.every((s) => scopes.includes(s))) continue;
    const added = (admin ? NEW_SCOPES : ['fields:read']).filter((s) => !scopes.includes(s));
    if (added.length === 0) continue;
    await db.updateTable('api_keys').set({ scopes: JSON.stringify([...scopes, ...added]) }).where('id', '=', key.id).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ticket_field_values').execute();
  await db.schema.alterTable('tickets').dropColumn('custom_fields').execute();
  await db.schema.dropTable('ticket_fields').execute();
  const keys = await db.selectFrom('api_keys').select(['id', 'scopes']).execute();
  for (const key of keys as Array<{ id: string; scopes: string }>) {
    const scopes = JSON.parse(key.scopes) as string[];
    if (!scopes.some((s) => NEW_SCOPES.includes(s))) continue;
    await db.updateTable('api_keys').set({ scopes: JSON.stringify(scopes.filter((s) => !NEW_SCOPES.includes(s))) }).where('id', '=', key.id).execute();
  }
}
