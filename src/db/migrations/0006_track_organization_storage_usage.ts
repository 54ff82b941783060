import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * `organizations.storage_used_bytes`: the bytes of the organization's attachments, which the
 * storage quota (STORAGE_QUOTA_BYTES) is checked against.
 *
 * Kept by the database itself, with triggers on `attachments`: a row inserted adds its size, a row
 * deleted takes it off, in the same transaction as the change. Deleting a ticket, a customer or an
 * organization deletes attachments through foreign-key cascades, and cascaded deletes fire these
 * triggers on both SQLite and PostgreSQL, so every way an attachment goes (and `ticketing import`,
 * which inserts rows) keeps the figure exact without any code path having to remember it. The
 * trigger's update also takes the organization row's lock (PostgreSQL) or the write lock (SQLite)
 * until commit, so uploads committing at once, from any process, see each other's bytes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organizations')
    .addColumn('storage_used_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    update organizations set storage_used_bytes =
      (select coalesce(sum(size_bytes), 0) from attachments where attachments.organization_id = organizations.id)
  `.execute(db);

  if (dialectOf(db) === 'postgres') {
    await sql`
      create function attachments_storage_usage() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          update organizations set storage_used_bytes = storage_used_bytes + new.size_bytes where id = new.organization_id;
        else
          update organizations set storage_used_bytes = storage_used_bytes - old.size_bytes where id = old.organization_id;
        end if;
        return null;
      end
      $$
    `.execute(db);
    await sql`
      create trigger attachments_storage_usage after insert or delete on attachments
      for each row execute function attachments_storage_usage()
    `.execute(db);
  } else {
    await sql`
      create trigger attachments_storage_usage_insert after insert on attachments begin
        update organizations set storage_used_bytes = storage_used_bytes + new.size_bytes where id = new.organization_id;
      end
    `.execute(db);
    await sql`
      create trigger attachments_storage_usage_delete after delete on attachments begin
        update organizations set storage_used_bytes = storage_used_bytes - old.size_bytes where id = old.organization_id;
      end
    `.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger if exists attachments_storage_usage on attachments`.execute(db);
    await sql`drop function if exists attachments_storage_usage()`.execute(db);
  } else {
    await sql`drop trigger if exists attachments_storage_usage_insert`.execute(db);
    await sql`drop trigger if exists attachments_storage_usage_delete`.execute(db);
  }
  await db.schema.alterTable('organizations').dropColumn('storage_used_bytes').execute();
}
