import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/** The index of tickets' text (0017) takes new entries into its pending list; this many kB at most. */
export const TICKETS_SEARCH_PENDING_LIST_KB = 1024;

/**
 * PostgreSQL: less server work a create (docs/architecture.md#creates); what the search index
 * holds and what a search finds are unchanged.
 *
 * - **The keys computed in PL/pgSQL.** `ticket_search_trigram_keys` and `ticket_search_pair_keys`
 *   were SQL functions with a subquery (a window function for the pairs), which PostgreSQL cannot
 *   inline: every statement that evaluated the index expression parsed and planned their bodies
 *   again, and every row started an executor for each. As PL/pgSQL loops they return the same keys
 *   in the same order (a test compares them with 0017's definitions on awkward texts); PL/pgSQL
 *   keeps its compiled function for the session. Measured (500 statements of 6 tickets, backend
 *   CPU): 237 µs a ticket with the old functions, 130 µs with these (pending list on for both).
 *   `ticket_search_keys` (the index expression) and `ticket_search_term_keys` still call them by
 *   name, so the index is not rebuilt and the plans are the same.
 * - **`fastupdate = on` for tickets_search_keys_idx**, with a pending list of at most
 *   TICKETS_SEARCH_PENDING_LIST_KB. An insert appends its keys to the pending list instead of
 *   descending the index once per key (a ticket has about 35 keys; a key's posting list was decoded,
 *   merged and written again, WAL included, for every ticket that has it). Searches read the
 *   pending list too, so a ticket is found as soon as it is committed. The list is merged into the
 *   index in bulk, one descent per key for all the tickets that have it, by the search index job
 *   (search-index.job.ts, every few hundred milliseconds, outside any create's transaction) or, if
 *   it ever fills, by the insert that finds it full. A search reads every pending page, whoever
 *   wrote it: bounded by the job's interval and by the limit (1 MiB, 128 pages, 800-1,500
 *   tickets). The customers' index keeps `fastupdate = off`: a customer is created once.
 * - **`fillfactor = 10` for organizations and event_counters**, whose rows every group of creates
 *   updates (the ticket counter, the feed's position): each update leaves a dead version on the
 *   row's page, and a page is pruned of them only once it is nearly full. Until then every read of
 *   the row walks them all, and the foreign-key checks of each ticket and event read the
 *   organization's row (on a small table by scanning its page): 10% of the backends' CPU of a
 *   create (perf, groups of 6) went to those scans. With the page's target at a tenth, it is
 *   pruned after a few updates (0.3% then). Only new pages are filled to a tenth: an
 *   organization's row takes a page of its own, more or less, which is what it needs.
 *
 * SQLite: nothing (0009's FTS5 index).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create or replace function ticket_search_trigram_keys(organization text, trigrams text[]) returns bigint[]
      language plpgsql immutable parallel safe cost 100000 as $$
      declare
        h bigint := hashtext(organization)::bigint << 32;
        keys bigint[] := '{}';
        t text;
      begin
        if trigrams is not null then
          foreach t in array trigrams loop
            keys := array_append(keys, h | (hashtext(t)::bigint & 4294967295));
          end loop;
        end if;
        return keys;
      end $$`.execute(db);
  // The words of the text split as before; a pair is two adjacent non-empty words, of the inner
  // words only when inner_only (not the first word nor the last of the split, as before).
  await sql`create or replace function ticket_search_pair_keys(organization text, t text, inner_only boolean) returns bigint[]
      language plpgsql immutable parallel safe cost 100000 as $$
      declare
        h bigint := hashtext(organization)::bigint << 32;
        words text[] := regexp_split_to_array(lower(coalesce(t, '')), '[^[:alnum:]]+');
        k integer := cardinality(words);
        keys bigint[] := '{}';
      begin
        for i in 1 .. k - 1 loop
          if words[i] <> '' and words[i + 1] <> '' and (not inner_only or (i > 1 and i + 1 < k)) then
            keys := array_append(keys, h | (hashtext(words[i] || ' ' || words[i + 1])::bigint & 4294967295));
          end if;
        end loop;
        return keys;
      end $$`.execute(db);
  await sql.raw(`alter index tickets_search_keys_idx set (fastupdate = on, gin_pending_list_limit = ${TICKETS_SEARCH_PENDING_LIST_KB})`).execute(db);
  await sql`alter table organizations set (fillfactor = 10)`.execute(db);
  await sql`alter table event_counters set (fillfactor = 10)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`alter table organizations reset (fillfactor)`.execute(db);
  await sql`alter table event_counters reset (fillfactor)`.execute(db);
  // Merged first: with fastupdate off, nothing would read the pending list's entries into the index.
  await sql`select gin_clean_pending_list('tickets_search_keys_idx'::regclass)`.execute(db);
  await sql`alter index tickets_search_keys_idx set (fastupdate = off)`.execute(db);
  await sql`alter index tickets_search_keys_idx reset (gin_pending_list_limit)`.execute(db);
  await sql`create or replace function ticket_search_trigram_keys(organization text, trigrams text[]) returns bigint[]
      language sql immutable parallel safe cost 100000
      return array(select (hashtext(organization)::bigint << 32) | (hashtext(t)::bigint & 4294967295) from unnest(trigrams) t)`.execute(db);
  await sql`create or replace function ticket_search_pair_keys(organization text, t text, inner_only boolean) returns bigint[]
      language sql immutable parallel safe cost 100000
      return array(select (hashtext(organization)::bigint << 32) | (hashtext(p.w || ' ' || p.n)::bigint & 4294967295)
        from (select u.w, lead(u.w) over (order by u.i) n, u.i, count(*) over () k
          from unnest(regexp_split_to_array(lower(coalesce(t, '')), '[^[:alnum:]]+')) with ordinality u(w, i)) p
        where p.n <> '' and p.w <> '' and (not inner_only or (p.i > 1 and p.i + 1 < p.k)))`.execute(db);
}
