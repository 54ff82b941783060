import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * PostgreSQL: the search index keys gain the text's **word pairs**, and lose the ticket-number
 * column (docs/architecture.md#search).
 *
 * Word pairs: pg_trgm's trigrams are made word by word, so a term of several words has the
 * trigrams of its words only, which every text holding those words anywhere has too: a sentence
 * given three times that no ticket holds had as candidates every ticket holding it once (1.5 % of
 * the tickets, each read and rechecked: 308 ms at a million tickets against 26 ms at 10,000).
 * Each row now also has a key per pair of adjacent words (`lower()`, words are runs of
 * `[[:alnum:]]`), organization in the high 32 bits as the trigrams' keys; a term requires the
 * pairs of its inner words (all but its first and last, which may be parts of longer words in the
 * text), so the sentence given three times requires `month please`, found where one repetition
 * meets the next. A hash collision with a trigram's key only adds candidates, as before.
 *
 * The ticket-number column (0014's newest-tickets window inside the GIN scan) is dropped: a range
 * of ticket numbers in a GIN index is one entry per number, 20,000 of them read on every search,
 * and its `<=` bound read every entry below it (other organizations' too) in a partial match from
 * the column's start. A search now reads the newest tickets from the btree instead
 * (search.ts, scanFirst).
 *
 * Building the two indexes again takes minutes on a large database (4.5 minutes for 1,100,000
 * tickets on a loaded 2-core machine), past the default statement timeout (10 s): there, run
 * `DATABASE_STATEMENT_TIMEOUT_MS=0 ticketing migrate` before starting the new version.
 *
 * SQLite: nothing (0009's FTS5 index looks terms up by their characters, across words).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop index if exists tickets_search_keys_idx`.execute(db);
  await sql`drop index if exists customers_search_keys_idx`.execute(db);
  await sql`drop function if exists ticket_search_number_key(text, bigint)`.execute(db);
  // The pairs of adjacent words of a text as keys; inner_only: of its inner words only (a term's:
  // not its first word nor its last, which may be parts of longer words where it occurs).
  // A high cost, as ticket_search_trigram_keys': computed where an index holds it, not row by row.
  await sql`create function ticket_search_pair_keys(organization text, t text, inner_only boolean) returns bigint[]
      language sql immutable parallel safe cost 100000
      return array(select (hashtext(organization)::bigint << 32) | (hashtext(p.w || ' ' || p.n)::bigint & 4294967295)
        from (select u.w, lead(u.w) over (order by u.i) n, u.i, count(*) over () k
          from unnest(regexp_split_to_array(lower(coalesce(t, '')), '[^[:alnum:]]+')) with ordinality u(w, i)) p
        where p.n <> '' and p.w <> '' and (not inner_only or (p.i > 1 and p.i + 1 < p.k)))`.execute(db);
  await sql`create or replace function ticket_search_keys(organization text, a text, b text) returns bigint[]
      language sql immutable parallel safe
      return ticket_search_trigram_keys(organization, show_trgm(coalesce(a, '') || ' ' || coalesce(b, '')))
        || ticket_search_pair_keys(organization, a, false) || ticket_search_pair_keys(organization, b, false)`.execute(db);
  await sql`create or replace function ticket_search_term_keys(organization text, term text) returns bigint[]
      language sql immutable parallel safe
      return ticket_search_trigram_keys(organization, array(
        select unnest(show_trgm(term)) intersect select unnest(show_trgm('q' || term)) intersect select unnest(show_trgm(term || 'q'))))
        || ticket_search_pair_keys(organization, term, true)`.execute(db);
  await sql`create index tickets_search_keys_idx on tickets
      using gin (ticket_search_keys(organization_id, subject, description)) with (fastupdate = off)`.execute(db);
  await sql`create index customers_search_keys_idx on customers
      using gin (ticket_search_keys(organization_id, name, email)) with (fastupdate = off)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop index if exists tickets_search_keys_idx`.execute(db);
  await sql`drop index if exists customers_search_keys_idx`.execute(db);
  await sql`create or replace function ticket_search_keys(organization text, a text, b text) returns bigint[]
      language sql immutable parallel safe
      return ticket_search_trigram_keys(organization, show_trgm(coalesce(a, '') || ' ' || coalesce(b, '')))`.execute(db);
  await sql`create or replace function ticket_search_term_keys(organization text, term text) returns bigint[]
      language sql immutable parallel safe
      return ticket_search_trigram_keys(organization, array(
        select unnest(show_trgm(term)) intersect select unnest(show_trgm('q' || term)) intersect select unnest(show_trgm(term || 'q'))))`.execute(db);
  await sql`drop function if exists ticket_search_pair_keys(text, text, boolean)`.execute(db);
  await sql`create function ticket_search_number_key(organization text, ticket_number bigint) returns bigint
      language sql immutable parallel safe
      return (hashtext(organization)::bigint << 32) | greatest(0, least(ticket_number, 2147483647))`.execute(db);
  await sql`create index tickets_search_keys_idx on tickets
      using gin (ticket_search_keys(organization_id, subject, description), ticket_search_number_key(organization_id, ticket_number))
      with (fastupdate = off)`.execute(db);
  await sql`create index customers_search_keys_idx on customers
      using gin (ticket_search_keys(organization_id, name, email)) with (fastupdate = off)`.execute(db);
}
