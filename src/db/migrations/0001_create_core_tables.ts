import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

export async function up(db: Kysely<any>): Promise<void> {
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
  await db.schema.createIndex('users_org_email_key').unique().on('users').columns(['organization_id', 'email_normalized']).execute();
  await db.schema.createIndex('users_org_created_idx').on('users').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('holder_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_org_created_idx').on('api_keys').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('api_keys_holder_idx').on('api_keys').columns(['organization_id', 'holder_user_id']).execute();

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
  await db.schema.createIndex('teams_org_created_idx').on('teams').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('team_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pkey', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_org_user_idx').on('team_members').columns(['organization_id', 'user_id']).execute();

  await db.schema
    .createTable('tickets')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('ticket_number', 'bigint', (c) => c.notNull())
    .addColumn('tracking_token', 'text', (c) => c.notNull().unique())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id').onDelete('cascade'))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('category', 'text')
    .addColumn('assigned_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('assigned_team_id', 'text', (c) => c.references('teams.id').onDelete('set null'))
    .addColumn('due_date', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('closed_at', 'text')
    .execute();
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

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('is_internal', 'integer', (c) => c.notNull())
    .addColumn('author_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author_customer_id', 'text', (c) => c.references('customers.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_org_ticket_created_idx').on('comments').columns(['organization_id', 'ticket_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('comments_ticket_idx').on('comments').column('ticket_id').execute();
  await db.schema.createIndex('comments_author_user_idx').on('comments').column('author_user_id').execute();
  await db.schema.createIndex('comments_author_customer_idx').on('comments').column('author_customer_id').execute();

  await db.schema
    .createTable('attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('ticket_id', 'text', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('uploaded_by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_org_ticket_created_idx').on('attachments').columns(['organization_id', 'ticket_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('attachments_ticket_idx').on('attachments').column('ticket_id').execute();
  await db.schema.createIndex('attachments_uploader_idx').on('attachments').column('uploaded_by_user_id').execute();
  // Foreign keys that point at users/teams need an index on the referencing side, or deleting a
  // user or team scans every ticket.
  await db.schema.createIndex('tickets_assigned_user_idx').on('tickets').column('assigned_user_id').execute();
  await db.schema.createIndex('tickets_assigned_team_idx').on('tickets').column('assigned_team_id').execute();
  await db.schema.createIndex('tickets_customer_idx').on('tickets').column('customer_id').execute();
  await db.schema.createIndex('team_members_user_idx').on('team_members').column('user_id').execute();
  await db.schema.createIndex('api_keys_holder_user_idx').on('api_keys').column('holder_user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['attachments', 'comments', 'tickets', 'team_members', 'teams', 'customers', 'api_keys', 'users', 'organizations']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
