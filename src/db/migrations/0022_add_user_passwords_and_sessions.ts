import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Agents sign in: a user may have a password (`password_hash`, scrypt with its parameters and salt in
 * the value; null: cannot sign in), and a signed-in browser holds a session. A session row keeps
 * only the SHA-256 of its token; it goes with its user (deleted with them). Sign-in looks a user up
 * by email before the organization is known, hence the index on `email_normalized` alone.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
  await db.schema.createIndex('users_email_normalized_idx').on('users').column('email_normalized').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    // Looked up before the organization is known: the cookie is the only thing a request carries.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addForeignKeyConstraint('sessions_user_id_fkey', ['organization_id', 'user_id'], 'users', ['organization_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('sessions_org_user_idx').on('sessions').columns(['organization_id', 'user_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropIndex('users_email_normalized_idx').execute();
  await db.schema.alterTable('users').dropColumn('password_hash').execute();
}
