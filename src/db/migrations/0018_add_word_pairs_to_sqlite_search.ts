import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * SQLite: the word pairs of the organization's texts, counted, beside 0009's trigram index
 * (docs/architecture.md#search).
 *
 * Every trigram of a sentence given three times that no ticket holds (`Please process a refund for
 * last month. ` × 3) is in every ticket holding the sentence once, so any lookup of it through the
 * FTS5 trigram index steps over those tickets (14,933 at a million: 1.3–1.8 ms, against 0.04 ms at
 * 10,000). Its word pair `month please`, where one repetition meets the next, is in none. As
 * PostgreSQL's keys since 0017 (the same words: runs of letters and digits, lower-cased; the same
 * pairs: each two adjacent words of one column), `ticket_search_pairs` holds, per organization
 * key (0009's `ticket_search_organizations`) and pair hash (search-pairs.ts), how many tickets
 * (subject, description) and customers (name, email) of the organization hold the pair. A search
 * first looks up its term's inner pairs there, one primary-key seek each in the caller's
 * organization (search.ts), and a term with one absent answers empty without reading the trigram
 * index. Counts rather than one row per ticket: a few bytes per distinct pair instead of one entry
 * per pair of every ticket, and a create changes counts that mostly exist already. A customer's
 * pairs count once, not once per ticket: a pair then looks present while a customer without tickets
 * holds it, which only lets the search go on to the trigram index (as a hash collision does).
 *
 * The triggers call `search_pairs_added` and `search_pairs_removed`, JavaScript functions every
 * connection that writes tickets or customers registers (openStore, search-pairs.ts); a write
 * through a connection without them (an older version of the service, the sqlite3 shell) fails
 * rather than leaving the counts behind. A count that reaches 0 is deleted.
 *
 * PostgreSQL: nothing (0017).
 */
const TRIGGERS = [
  'tickets_search_pairs_insert',
  'tickets_search_pairs_update',
  'tickets_search_pairs_delete',
  'customers_search_pairs_insert',
  'customers_search_pairs_update',
  'customers_search_pairs_delete',
];

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  await sql`create table ticket_search_pairs (
      organization_key integer not null,
      pair integer not null,
      n integer not null,
      primary key (organization_key, pair)
    ) without rowid`.execute(db);
  const key = (row: string) => sql.raw(`(select k.key from ticket_search_organizations k where k.organization_id = ${row}.organization_id)`);
  // Adds the pairs the new text has and the old had not; removes those it had and has no more
  // (first deleting the counts the change takes to 0, then lowering the others).
  const changes = (table: string, a: string, b: string, event: 'insert' | 'update' | 'delete') => {
    const args = `${event === 'insert' ? 'null, null' : `old.${a}, old.${b}`}, ${event === 'delete' ? 'null, null' : `new.${a}, new.${b}`}`;
    const removed = sql.raw(`select j.value from json_each(search_pairs_removed(${args})) j`);
    const remove = sql`
        delete from ticket_search_pairs where organization_key = ${key('old')} and n <= 1 and pair in (${removed});
        update ticket_search_pairs set n = n - 1 where organization_key = ${key('old')} and pair in (${removed});`;
    const add = sql`
        insert into ticket_search_pairs (organization_key, pair, n)
          select ${key('new')}, j.value, 1 from json_each(search_pairs_added(${sql.raw(args)})) j where true
          on conflict do update set n = n + 1;`;
    const body = event === 'insert' ? add : event === 'delete' ? remove : sql`${remove}${add}`;
    const when = event === 'update' ? sql.raw(` of ${a}, ${b} on ${table} when old.${a} is not new.${a} or old.${b} is not new.${b}`) : sql.raw(` on ${table}`);
    return sql`create trigger ${sql.id(`${table}_search_pairs_${event}`)} after ${sql.raw(event)}${when} begin ${body} end`;
  };
  for (const event of ['insert', 'update', 'delete'] as const) {
    await changes('tickets', 'subject', 'description', event).execute(db);
    await changes('customers', 'name', 'email', event).execute(db);
  }
  // The texts already stored, one count per row holding the pair.
  for (const [table, a, b] of [['tickets', 'subject', 'description'], ['customers', 'name', 'email']] as const) {
    await sql`insert into ticket_search_pairs (organization_key, pair, n)
        select k.key, d.value, 1 from ${sql.table(table)} t
        join ticket_search_organizations k on k.organization_id = t.organization_id
        join json_each(search_pairs_added(null, null, t.${sql.raw(a)}, t.${sql.raw(b)})) d
        where true
        on conflict do update set n = n + 1`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') return;
  for (const trigger of TRIGGERS) await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists ticket_search_pairs`.execute(db);
}
