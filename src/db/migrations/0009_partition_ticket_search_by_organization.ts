import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * SQLite: the ticket search index partitioned by organization (docs/architecture.md#search).
 *
 * The FTS5 trigram table of 0002 was keyed by `tickets.seq` and shared by every organization, so a
 * search fetched the other organizations' matches one by one only to filter them out: its time told
 * what the others' tickets contain. Here each entry's rowid is
 * `organization key × 2^40 + ticket number`, so one organization's entries are one rowid range:
 * FTS5 seeks every posting list straight to that range (its doclist index) and never reads the
 * others' entries; within the range rowid order is ticket-number order, so a page newest first is
 * read in index order and stops when full. The organization key is a small stable integer
 * (`ticket_search_organizations`, an INTEGER PRIMARY KEY that VACUUM keeps), never reused and kept
 * after the organization is deleted (the cascade deletes its tickets' entries first or after; a key
 * row that outlives them costs nothing). Ticket numbers at or above 2^40 are not indexed.
 *
 * PostgreSQL: nothing; its GIN indexes already lead with the organization.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  for (const trigger of ['customers_search_update', 'tickets_search_delete', 'tickets_search_update', 'tickets_search_insert']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists ticket_search`.execute(db);
  await sql`create table ticket_search_organizations (
      key integer primary key autoincrement,
      organization_id text not null unique
    )`.execute(db);
  await sql`insert into ticket_search_organizations (organization_id) select id from organizations order by created_at, id`.execute(db);
  await sql`create trigger organizations_search_key after insert on organizations begin
      insert or ignore into ticket_search_organizations (organization_id) values (new.id);
    end`.execute(db);
  await sql`
    create virtual table ticket_search using fts5(
      subject, description, customer_name, customer_email,
      content = '', contentless_delete = 1, tokenize = 'trigram'
    )`.execute(db);
  const entry = (t: string, name: string, email: string) => sql`
      insert into ticket_search (rowid, subject, description, customer_name, customer_email)
      select k.key * 1099511627776 + ${sql.raw(t)}.ticket_number, ${sql.raw(t)}.subject, ${sql.raw(t)}.description, ${sql.raw(name)}, ${sql.raw(email)}
      from ticket_search_organizations k`;
  const key = (t: string) => sql`(select k.key * 1099511627776 from ticket_search_organizations k where k.organization_id = ${sql.raw(t)}.organization_id) + ${sql.raw(t)}.ticket_number`;
  await sql`
    create trigger tickets_search_insert after insert on tickets when new.ticket_number < 1099511627776 begin
      ${entry('new', 'c.name', 'c.email')} join customers c on c.id = new.customer_id where k.organization_id = new.organization_id;
    end`.execute(db);
  await sql`
    create trigger tickets_search_update after update of subject, description, customer_id on tickets when new.ticket_number < 1099511627776 begin
      delete from ticket_search where rowid = ${key('old')};
      ${entry('new', 'c.name', 'c.email')} join customers c on c.id = new.customer_id where k.organization_id = new.organization_id;
    end`.execute(db);
  await sql`
    create trigger tickets_search_delete after delete on tickets when old.ticket_number < 1099511627776 begin
      delete from ticket_search where rowid = ${key('old')};
    end`.execute(db);
  await sql`
    create trigger customers_search_update after update of name, email on customers begin
      delete from ticket_search where rowid in (
        select ${key('t')} from tickets t
        where t.organization_id = new.organization_id and t.customer_id = new.id and t.ticket_number < 1099511627776);
      ${entry('t', 'new.name', 'new.email')} join tickets t on t.organization_id = k.organization_id
      where k.organization_id = new.organization_id and t.customer_id = new.id and t.ticket_number < 1099511627776;
    end`.execute(db);
  await sql`${entry('t', 'c.name', 'c.email')}
      join tickets t on t.organization_id = k.organization_id
      join customers c on c.id = t.customer_id
      where t.ticket_number < 1099511627776`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  for (const trigger of ['customers_search_update', 'tickets_search_delete', 'tickets_search_update', 'tickets_search_insert', 'organizations_search_key']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists ticket_search`.execute(db);
  await sql`drop table if exists ticket_search_organizations`.execute(db);
  // 0002's shared index, rebuilt.
  const m0002 = await import('./0002_add_ticket_search_index.js');
  await m0002.up(db);
  await sql`insert into ticket_search (rowid, subject, description, customer_name, customer_email)
    select t.seq, t.subject, t.description, c.name, c.email from tickets t join customers c on c.id = t.customer_id`.execute(db);
}
