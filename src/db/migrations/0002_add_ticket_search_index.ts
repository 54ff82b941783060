import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * The ticket search index (decisions §5): a case-insensitive substring match over subject,
 * description, customer name and customer email. On SQLite an FTS5 table with the trigram
 * tokenizer, contentless (it stores no second copy of the text), kept in step by triggers on
 * tickets and customers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') throw new Error('The PostgreSQL store is not available in this version');
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
  for (const trigger of ['customers_search_update', 'tickets_search_delete', 'tickets_search_update', 'tickets_search_insert']) {
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists ticket_search`.execute(db);
}
