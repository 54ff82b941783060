import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * The core tables, the same on SQLite and PostgreSQL but for the few branches below.
 *
 * - Timestamps are `text` holding ISO 8601 UTC with milliseconds on both, so rows (and responses)
 *   are identical whichever store serves them; ISO strings sort as the instants they name.
 * - Booleans are integers 0/1 on both.
 * - Every table carries `organization_id`, and every index that a query or a foreign-key action
 *   searches leads with it, so the schema can later be split by organization.
 * - A reference between records points at a row of the same organization:
 *   `(organization_id, x_id) -> target (organization_id, id)`. The database itself refuses a link
 *   across organizations, and the index serving the foreign-key action leads with the organization.
 *   Optional references are set to null when their target goes: PostgreSQL nulls just that column
 *   (`on delete set null (x_id)`); SQLite can only null every column of the key, the organization
 *   included, so there these few are single-column references with an index of their own.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);

  /** `(organization_id, id)`: what same-organization references point at. */
  const referenceable = (table: string) =>
    db.schema.createIndex(`${table}_org_id_key`).unique().on(table).columns(['organization_id', 'id']).execute();
  /** A required reference to a row of the same organization, deleted with it. */
  const owned = <T extends CreateTableBuilder<any, any>>(tb: T, table: string, column: string, target: string): T =>
    tb.addForeignKeyConstraint(`${table}_${column}_fkey`, ['organization_id', column], target, ['organization_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    ) as T;
  /** An optional reference, set to null when its target is deleted: SQLite's half, in the table. */
  const optional = <T extends CreateTableBuilder<any, any>>(tb: T, table: string, column: string, target: string): T =>
    dialect === 'sqlite'
      ? (tb.addForeignKeyConstraint(`${table}_${column}_fkey`, [column], target, ['id'], (fk) => fk.onDelete('set null')) as T)
      : tb;
  /**
   * PostgreSQL's half of `optional`, once the table exists, and the index the set-null action
   * searches: `orgIndex` is false where an index leading with (organization_id, column) exists.
   */
  const optionalAfter = async (table: string, column: string, target: string, orgIndex: boolean) => {
    if (dialect === 'sqlite') {
      await db.schema.createIndex(`${table}_${column}_idx`).on(table).column(column).execute();
      return;
    }
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_${column}_fkey`)}
      foreign key (organization_id, ${sql.ref(column)}) references ${sql.table(target)} (organization_id, id)
      on delete set null (${sql.ref(column)})`.execute(db);
    if (orgIndex) await db.schema.createIndex(`${table}_org_${column}_idx`).on(table).columns(['organization_id', column]).execute();
  };

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('ticket_counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await referenceable('users');
  await db.schema.createIndex('users_org_email_key').unique().on('users').columns(['organization_id', 'email_normalized']).execute();
  await db.schema.createIndex('users_org_created_idx').on('users').columns(['organization_id', 'created_at', 'id']).execute();

  await optional(
    db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      // Looked up before the organization is known: the key is the only thing a request carries.
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('holder_user_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('last_used_at', 'text')
      .addColumn('revoked_at', 'text'),
    'api_keys',
    'holder_user_id',
    'users',
  ).execute();
  await db.schema.createIndex('api_keys_org_created_idx').on('api_keys').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('api_keys_holder_idx').on('api_keys').columns(['organization_id', 'holder_user_id']).execute();
  await optionalAfter('api_keys', 'holder_user_id', 'users', false);

  await db.schema
    .createTable('customers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_normalized', 'text', (c) => c.notNull())
    .addColumn('company', 'text')
    .addColumn('department', 'text')
    .addColumn('title', 'text')
    .addColumn('customer_tier', 'text')
    .addColumn('contact_number', 'text')
    .addColumn('pronoun', 'text')
    .addColumn('location_country', 'text')
    .addColumn('location_city', 'text')
    .addColumn('location_state', 'text')
    .addColumn('location_zip', 'text')
    .addColumn('location_address', 'text')
    .addColumn('region', 'text')
    .addColumn('timezone', 'text')
    .addColumn('account_value_cents', 'bigint')
    .addColumn('has_premium_support', 'integer', (c) => c.notNull())
    .addColumn('is_vip', 'integer', (c) => c.notNull())
    .addColumn('social_linkedin', 'text')
    .addColumn('social_website', 'text')
    .addColumn('social_github', 'text')
    .addColumn('notes', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await referenceable('customers');
  await db.schema.createIndex('customers_org_email_key').unique().on('customers').columns(['organization_id', 'email_normalized']).execute();
  await db.schema.createIndex('customers_org_created_idx').on('customers').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await referenceable('teams');
  await db.schema.createIndex('teams_org_created_idx').on('teams').columns(['organization_id', 'created_at', 'id']).execute();

  let teamMembers = db.schema
    .createTable('team_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // (team, user) is the identity (a user is in a team once); the organization leads the index.
    .addPrimaryKeyConstraint('team_members_pkey', ['organization_id', 'team_id', 'user_id']);
  teamMembers = owned(teamMembers, 'team_members', 'team_id', 'teams');
  teamMembers = owned(teamMembers, 'team_members', 'user_id', 'users');
  await teamMembers.execute();
  await db.schema.createIndex('team_members_org_user_idx').on('team_members').columns(['organization_id', 'user_id']).execute();

  let tickets = db.schema
    .createTable('tickets')
    // Internal integer key, referred to by the search index on SQLite. An identity on PostgreSQL.
    .addColumn('seq', dialect === 'sqlite' ? 'integer' : 'bigint', (c) =>
      dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('ticket_number', 'bigint', (c) => c.notNull())
    // Looked up without the organization (the customer's self-service link carries only it).
    .addColumn('tracking_token', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('assigned_user_id', 'text')
    .addColumn('assigned_team_id', 'text')
    .addColumn('due_date', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('closed_at', 'text');
  tickets = owned(tickets, 'tickets', 'customer_id', 'customers');
  tickets = optional(tickets, 'tickets', 'assigned_user_id', 'users');
  tickets = optional(tickets, 'tickets', 'assigned_team_id', 'teams');
  await tickets.execute();
  await referenceable('tickets');
  // Every list filter has an index that leads with the organization and ends with the sort key,
  // so a filtered page is one index range read in order, never a scan and sort.
  await db.schema.createIndex('tickets_org_number_key').unique().on('tickets').columns(['organization_id', 'ticket_number']).execute();
  for (const column of ['status', 'priority', 'assigned_user_id', 'assigned_team_id', 'customer_id', 'category']) {
    await db.schema
      .createIndex(`tickets_org_${column}_idx`)
      .on('tickets')
      .columns(['organization_id', column, 'ticket_number'])
      .execute();
  }
  await optionalAfter('tickets', 'assigned_user_id', 'users', false);
  await optionalAfter('tickets', 'assigned_team_id', 'teams', false);

  let comments = db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('is_internal', 'integer', (c) => c.notNull())
    .addColumn('author_user_id', 'text')
    .addColumn('author_customer_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull());
  comments = owned(comments, 'comments', 'ticket_id', 'tickets');
  comments = optional(comments, 'comments', 'author_user_id', 'users');
  comments = optional(comments, 'comments', 'author_customer_id', 'customers');
  await comments.execute();
  await db.schema.createIndex('comments_org_ticket_created_idx').on('comments').columns(['organization_id', 'ticket_id', 'created_at', 'id']).execute();
  await optionalAfter('comments', 'author_user_id', 'users', true);
  await optionalAfter('comments', 'author_customer_id', 'customers', true);

  let attachments = db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('uploaded_by_user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull());
  attachments = owned(attachments, 'attachments', 'ticket_id', 'tickets');
  attachments = optional(attachments, 'attachments', 'uploaded_by_user_id', 'users');
  await attachments.execute();
  await db.schema.createIndex('attachments_org_ticket_created_idx').on('attachments').columns(['organization_id', 'ticket_id', 'created_at', 'id']).execute();
  await optionalAfter('attachments', 'uploaded_by_user_id', 'users', true);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['attachments', 'comments', 'tickets', 'team_members', 'teams', 'customers', 'api_keys', 'users', 'organizations']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
