import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

const PG_INDEXED = [
  ['tickets', 'subject'],
  ['tickets', 'description'],
  ['customers', 'name'],
  ['customers', 'email'],
] as const;

/**
 * The ticket search index (docs/api-behaviour.md#search): a case-insensitive substring match over
 * subject, description, customer name and customer email.
 *
 * On SQLite an FTS5 table with the trigram tokenizer, contentless (it stores no second copy of the
 * text), kept in step by triggers on tickets and customers.
 *
 * On PostgreSQL GIN trigram indexes (pg_trgm) on the columns themselves, which `ILIKE` uses, so
 * nothing needs keeping in step. Each leads with the organization (btree_gin lets a GIN index hold
 * the plain text column), so a search reads only the caller's organization's entries. Both
 * extensions are trusted: the owner of the database can create them without superuser rights.
 * `fastupdate = off`: new entries go straight into the index rather than into a pending list that
 * every search must read through until (auto)vacuum merges it; creates pay a little, searches stay
 * as fast as the index, and the planner costs them as such.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create extension if not exists btree_gin`.execute(db);
    for (const [table, column] of PG_INDEXED) {
      await sql`create index ${sql.id(`${table}_search_${column}_idx`)} on ${sql.table(table)}
        using gin (organization_id, ${sql.ref(column)} gin_trgm_ops) with (fastupdate = off)`.execute(db);
    }
    return;
  }
  await sql`
    create virtual table ticket_search using fts5(
      subject, description, customer_name, customer_email,
      content = '', contentless_delete = 1, tokenize = 'trigram'
    )`.execute(db);
  await sql`
    create trigger tickets_search_insert after insert on tickets begin
      insert into ticket_search (rowid, subject, description, customer_name, customer_email)
      select new.seq, new.subject, new.description, c.name, c.email from customers c where c.id = new.customer_id;
    end`.execute(db);
  await sql`
    create trigger tickets_search_update after update of subject, description, customer_id on tickets begin
      delete from ticket_search where rowid = old.seq;
      insert into ticket_search (rowid, subject, description, customer_name, customer_email)
      select new.seq, new.subject, new.description, c.name, c.email from customers c where c.id = new.customer_id;
    end`.execute(db);
  await sql`
    create trigger tickets_search_delete after delete on tickets begin
      delete from ticket_search where rowid = old.seq;
    end`.execute(db);
  await sql`
    create trigger customers_search_update after update of name, email on customers begin
      delete from ticket_search where rowid in (
        select seq from tickets where organization_id = new.organization_id and customer_id = new.id);
      insert into ticket_search (rowid, subject, description, customer_name, customer_email)
      select t.seq, t.subject, t.description, new.name, new.email from tickets t
      where t.organization_id = new.organization_id and t.customer_id = new.id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    // The extensions stay: other objects of the database may use them.
    for (const [table, column] of PG_INDEXED) await db.schema.dropIndex(`${table}_search_${column}_idx`).ifExists().execute();
    return;
  }
  for (const trigger of ['customers_search_update', 'tickets_search_delete', 'tickets_search_update', 'tickets_search_insert']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists ticket_search`.execute(db);
}
