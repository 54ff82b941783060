import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

const OLD_INDEXES = [
  ['tickets', 'subject'],
  ['tickets', 'description'],
  ['customers', 'name'],
  ['customers', 'email'],
] as const;

/**
 * PostgreSQL: the ticket search index partitioned by organization (docs/architecture.md#search).
 *
 * 0002's GIN indexes were `(organization_id, column gin_trgm_ops)` through btree_gin: GIN keeps the
 * organization and each trigram as separate keys and intersects their posting lists, so a
 * trigram's posting list held every organization's entries and a search read them all (a word in
 * 4,000 of another organization's tickets cost about 10 ms more than an absent one: one tenant
 * could time what another's tickets contain).
 *
 * Here each key is the organization and the trigram in one `bigint`:
 * `hashtext(organization_id) << 32 | hashtext(trigram) & 0xffffffff`, over pg_trgm's own trigrams
 * (`show_trgm`, so case folding and word splitting are pg_trgm's). A posting list then holds one
 * organization's tickets only, and a search reads only the caller's. One index per table, over
 * both searched columns: tickets (subject, description) and customers (name, email). A hash
 * collision only adds candidates, which the `ILIKE` recheck drops.
 *
 * - `ticket_search_keys(organization, a, b)`: the keys of a row (every trigram of both texts).
 * - `ticket_search_term_keys(organization, term)`: the keys every text containing `term` has: the
 *   term's trigrams but for those at its two ends (`  a`, ` ab`, `yz `), which depend on what
 *   surrounds the term in the text; they are what stays the same when a letter is put before or
 *   after it. A term with none (no run of three letters or digits) is never looked up this way.
 *
 * SQLite: nothing (0009 partitions its FTS5 index by organization).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  // A high cost: computing a row's keys (every trigram of its texts, up to 1 MiB of them) is what
  // the index is for; costed as cheap, a plan may compute them row by row as a filter instead
  // (seen: a fresh table, one second for 300 tickets of 100 KB).
  await sql`create function ticket_search_trigram_keys(organization text, trigrams text[]) returns bigint[]
      language sql immutable parallel safe cost 100000
      return array(select (hashtext(organization)::bigint << 32) | (hashtext(t)::bigint & 4294967295) from unnest(trigrams) t)`.execute(db);
  await sql`create function ticket_search_keys(organization text, a text, b text) returns bigint[]
      language sql immutable parallel safe
      return ticket_search_trigram_keys(organization, show_trgm(coalesce(a, '') || ' ' || coalesce(b, '')))`.execute(db);
  await sql`create function ticket_search_term_keys(organization text, term text) returns bigint[]
      language sql immutable parallel safe
      return ticket_search_trigram_keys(organization, array(
        select unnest(show_trgm(term)) intersect select unnest(show_trgm('q' || term)) intersect select unnest(show_trgm(term || 'q'))))`.execute(db);
  // fastupdate = off, as 0002's: entries go straight into the index, not into a pending list
  // every search would read through until (auto)vacuum merged it.
  // The ticket number too, as a second column (btree_gin) carrying the organization in its high
  // 32 bits: a search that looks among the newest tickets first (search.ts, newestWindow)
  // intersects the term's keys with that range of the caller's own numbers inside the one index
  // scan, so it fetches only the window's matches, and never reads another organization's numbers.
  await sql`create extension if not exists btree_gin`.execute(db);
  await sql`create function ticket_search_number_key(organization text, ticket_number bigint) returns bigint
      language sql immutable parallel safe
      return (hashtext(organization)::bigint << 32) | greatest(0, least(ticket_number, 2147483647))`.execute(db);
  await sql`create index tickets_search_keys_idx on tickets
      using gin (ticket_search_keys(organization_id, subject, description), ticket_search_number_key(organization_id, ticket_number))
      with (fastupdate = off)`.execute(db);
  await sql`create index customers_search_keys_idx on customers
      using gin (ticket_search_keys(organization_id, name, email)) with (fastupdate = off)`.execute(db);
  for (const [table, column] of OLD_INDEXES) await db.schema.dropIndex(`${table}_search_${column}_idx`).ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create extension if not exists btree_gin`.execute(db);
  for (const [table, column] of OLD_INDEXES) {
    await sql`create index if not exists ${sql.id(`${table}_search_${column}_idx`)} on ${sql.table(table)}
      using gin (organization_id, ${sql.ref(column)} gin_trgm_ops) with (fastupdate = off)`.execute(db);
  }
  await sql`drop index if exists customers_search_keys_idx`.execute(db);
  await sql`drop index if exists tickets_search_keys_idx`.execute(db);
  await sql`drop function if exists ticket_search_term_keys(text, text)`.execute(db);
  await sql`drop function if exists ticket_search_keys(text, text, text)`.execute(db);
  await sql`drop function if exists ticket_search_trigram_keys(text, text[])`.execute(db);
  await sql`drop function if exists ticket_search_number_key(text, bigint)`.execute(db);
}
