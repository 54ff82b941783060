import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../shared/executor.js';
import { termPairs } from './search-pairs.js';
import type { Database } from '../db/types.js';

/** A search term as the repository receives it (docs/api-behaviour.md#search). */
export interface SearchTerm {
  text: string;
  /** The ticket the term names by number (`42`, `TKT-42`), or null. */
  ticketNumber: number | null;
  /**
   * When (ms since the epoch) the search must give up. On SQLite the text test checks it for every
   * ticket it tests, so a search that walks too many candidates fails instead of running on.
   */
  deadline: number;
}

/** Longest search term the API accepts, in characters (the TypeBox schema refuses longer: 422). */
export const MAX_SEARCH_TERM_LENGTH = 500;

/**
 * How many of the organization's newest tickets (matching the other filters) a term that no index
 * can answer (one or two characters; on PostgreSQL, no run of three letters or digits) looks
 * through. Such terms are so common that a page fills long before; when it does not, the answer
 * is a 422 rather than a walk of every ticket the organization has.
 */
export const UNINDEXED_TERM_WINDOW = 5_000;

export type TicketsQuery = SelectQueryBuilder<Database, 'tickets', object>;

/**
 * The dialect-specific half of ticket search: a case-insensitive substring match over the subject,
 * the description, and the customer's name and email. The repository adds the ticket-number match,
 * the organization and the filters, which are the same everywhere.
 */
export interface TicketSearch {
  /** True when the index answers this term; otherwise the repository walks a bounded window. */
  indexes(term: string): boolean;
  /**
   * The organization's tickets matching `term` through the index, ticket columns in scope as
   * `tickets`, and the expression their order newest first is read by (no sort when alone).
   */
  indexedTickets(db: Executor, organizationId: string, term: SearchTerm): { query: TicketsQuery; newestFirst: RawBuilder<number> };
  /**
   * When set, a search first reads the organization's tickets newest first (matching the other
   * filters, from their index), tests each with `scanMatch`, and stops when `need` (offset +
   * limit) match or after this many tickets; only when that does not fill the page does it read the index's
   * matches (`indexedTickets`). Where the index cannot yield matches newest first (PostgreSQL's
   * GIN), a common term's page then costs the page, not its thousands of matches, and the index
   * is read only for terms that have few matches among the newest tickets.
   */
  scanFirst?(need: number): number;
  /** The text test of that scan: a condition on `tickets`, the customer's part read once. */
  scanMatch?(term: SearchTerm, organizationId: string): Expression<SqlBool>;
  /** The ticket whose number the term names, in the same shape (SQLite: unioned with the matches). */
  numberedTicket?(db: Executor, organizationId: string, ticketNumber: number): { query: TicketsQuery; newestFirst: RawBuilder<number> };
  /** A condition on `tickets` true when the term occurs in the ticket's text, tested ticket by ticket. */
  textMatch(term: SearchTerm, organizationId: string): Expression<SqlBool>;
}

/** The term as a LIKE pattern matching it anywhere, with `\` escaping `\`, `%` and `_`. */
const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Characters of each piece of a term looked up in the SQLite index (a phrase of 4 trigrams). */
export const LOOKUP_PIECE_CHARS = 6;
/** At most this many pieces of a term are looked up; the rest of the term is rechecked. */
export const MAX_LOOKUP_PIECES = 6;

/**
 * The pieces of a term the SQLite index looks up, all of which a matching ticket must contain as
 * phrases (each a quoted FTS5 string: its trigrams, in order). A term up to LOOKUP_PIECE_CHARS
 * characters is its own piece, an exact phrase. A longer one gives at most MAX_LOOKUP_PIECES
 * distinct pieces: the window with the most distinct characters (the middle one of such windows),
 * its start, its end, and pieces spread between. So a long or repetitive term costs at most 24
 * trigram posting lists and short phrases, never the phrase of the whole term, whose every
 * position FTS5 would walk (bench/RESULTS.md#search); pieces rather than single trigrams keep the
 * candidates few, and the recheck makes the result exact.
 */
export function lookupPieces(term: string): string[] {
  const chars = [...term];
  const n = LOOKUP_PIECE_CHARS;
  if (chars.length <= n) return [term];
  const last = chars.length - n;
  const distinct = Array.from({ length: last + 1 }, (_, i) => new Set(chars.slice(i, i + n).map((c) => c.toLowerCase())).size);
  const most = Math.max(...distinct);
  const tied = distinct.flatMap((d, i) => (d === most ? [i] : []));
  const spread = Array.from({ length: MAX_LOOKUP_PIECES }, (_, k) => Math.round((k * last) / (MAX_LOOKUP_PIECES - 1)));
  // A term that repeats itself (a sentence twice) is best told by the piece where one repetition
  // meets the next: every other piece is also in a text holding the sentence once.
  const period = smallestPeriod(chars.map((c) => c.toLowerCase()));
  const seam = period < chars.length ? [Math.min(last, Math.max(0, period - Math.floor(n / 2)))] : [];
  const starts = [...seam, tied[Math.floor(tied.length / 2)]!, 0, last, ...spread];
  const pieces: string[] = [];
  const seen = new Set<string>();
  for (const start of starts) {
    const piece = chars.slice(start, start + n).join('');
    // Folded only to tell pieces apart: FTS5 folds what it looks up itself.
    if (seen.has(piece.toLowerCase())) continue;
    seen.add(piece.toLowerCase());
    pieces.push(piece);
    if (pieces.length === MAX_LOOKUP_PIECES) break;
  }
  return pieces;
}

/** Characters of the shorter pieces a repetitive term's seam is first looked up by (two trigrams each). */
const SEAM_PROBE_CHARS = 4;

/**
 * The phrases the SQLite index looks up on their own, in order, before the AND of a term's pieces
 * (`lookupPieces`): the first absent one ends the search. A term of one piece: none. A term that
 * repeats itself: the SEAM_PROBE_CHARS windows across its seam, then the seam piece, since a
 * phrase costs FTS5 the posting lists of all its trigrams and a short window may skip a common one
 * (bench/RESULTS.md#search). Otherwise its first piece (the window with the most distinct
 * characters).
 */
export function probePieces(term: string): string[] {
  const pieces = lookupPieces(term);
  if (pieces.length === 1) return [];
  const chars = [...term];
  const seam = pieces[0]!;
  if (smallestPeriod(chars.map((c) => c.toLowerCase())) === chars.length) return [seam];
  const seamChars = [...seam];
  const windows = Array.from({ length: seamChars.length - SEAM_PROBE_CHARS + 1 }, (_, i) => seamChars.slice(i, i + SEAM_PROBE_CHARS).join(''));
  return [...new Set([...windows, seam])];
}

/** The smallest p such that the sequence repeats with period p (its length when it does not). */
function smallestPeriod(chars: string[]): number {
  // Knuth–Morris–Pratt's failure function: the longest proper border of the whole sequence.
  const border = new Array<number>(chars.length + 1).fill(0);
  border[0] = -1;
  for (let i = 1, k = -1; i <= chars.length; i++) {
    while (k >= 0 && chars[k] !== chars[i - 1]) k = border[k]!;
    border[i] = ++k;
  }
  return chars.length - border[chars.length]!;
}

/** A piece as a quoted FTS5 string (a phrase: its trigrams, in order): only `"` is special, doubled. */
const quoted = (piece: string): string => `"${piece.replace(/"/g, '""')}"`;

/** An FTS5 query that matches nothing at once: the trigram tokenizer matches no row with a string of under 3 characters. */
const NO_MATCH = '""';

/** 2^40: an organization's entries in the SQLite index are the rowids key × 2^40 + ticket number. */
const PARTITION = 1099511627776;

/**
 * The recheck on SQLite: `search_contains(text, folded term, deadline)`, a function registered on
 * every connection (db/store.ts, search.worker.js): JavaScript's case folding and substring test,
 * which fail the statement once the deadline has passed.
 */
export function searchContains(value: unknown, foldedTerm: unknown, deadline: unknown): number {
  if (Date.now() > Number(deadline)) throw new Error(SEARCH_BUDGET_EXCEEDED);
  return typeof value === 'string' && value.toLowerCase().includes(String(foldedTerm)) ? 1 : 0;
}
export const SEARCH_BUDGET_EXCEEDED = 'search time budget exceeded';

const sqliteRecheck = (term: SearchTerm): RawBuilder<SqlBool> => {
  const folded = term.text.toLowerCase();
  const test = (column: string) => sql`search_contains(${sql.raw(column)}, ${folded}, ${term.deadline})`;
  return sql<SqlBool>`(${test('tickets.subject')} or ${test('tickets.description')}
      or exists (select 1 from customers c where c.id = tickets.customer_id and (${test('c.name')} or ${test('c.email')})))`;
};

/**
 * SQLite: an FTS5 trigram index partitioned by organization (migration 0009): each entry's rowid
 * is `organization key × 2^40 + ticket number`, so the caller's entries are one rowid range that
 * FTS5 seeks to in every posting list, and that range read backwards is newest first.
 */
export const sqliteTicketSearch: TicketSearch = {
  indexes: (term) => [...term].length >= 3,
  indexedTickets(db, organizationId, term) {
    // A bounded AND of short phrases (quoted FTS5 strings: only `"` is special, doubled).
    const match = lookupPieces(term.text).map(quoted).join(' AND ');
    const range = sql`(select k.key * ${sql.lit(PARTITION)} from ticket_search_organizations k where k.organization_id = ${organizationId})`;
    // A term of several pieces first looks up a few phrases on their own (probePieces: the seam
    // of a term that repeats itself, else its first piece), each newest first and stopping at its
    // first match in the organization's range; only if every one is there does the AND run. FTS5
    // steps every phrase of an AND over the candidates of each: for a sentence given three times
    // that no ticket holds, every ticket holding the sentence once, each phrase's common trigrams
    // sought in turn (17 ms at 200,000 tickets, against 0.7 ms for the probes). A present phrase
    // stops at its newest match (about 0.1 ms each). The probes are scalar subqueries in the MATCH
    // argument, evaluated once before FTS5 opens its cursor (a constant condition in WHERE was
    // tested only after the AND had started), and AND stops at the first that fails.
    const probes = probePieces(term.text).map(
      (piece) => sql<SqlBool>`(select p.rowid from ticket_search p where p.ticket_search match ${quoted(piece)}
          and p.rowid >= ${range} and p.rowid < ${range} + ${sql.lit(PARTITION)} order by p.rowid desc limit 1) is not null`,
    );
    // Before them, the term's inner word pairs (migration 0018, search-pairs.ts), each a seek of
    // the organization's pair counts: the sentence given three times needs `month please`, which no
    // ticket holds. Its trigrams are in every ticket holding the sentence once, so the probes above
    // step over those tickets (1.3 ms at a million, 0.04 ms at 10,000); the seeks do not grow.
    const pairs = termPairs(term.text.toLowerCase());
    if (pairs.length > 0) {
      // The pairs as one JSON array: one statement whatever their number (the worker threads
      // prepare each statement text once), and integers as SQLite reads them (a JavaScript number
      // parameter would be a REAL).
      probes.unshift(sql<SqlBool>`(select count(*) from ticket_search_pairs wp
          where wp.organization_key = (select k.key from ticket_search_organizations k where k.organization_id = ${organizationId})
          and wp.pair in (select j.value from json_each(${JSON.stringify(pairs)}) j)) = ${pairs.length}`);
    }
    const lookup = probes.length === 0 ? sql`${match}` : sql`(case when ${sql.join(probes, sql` and `)} then ${match} else ${NO_MATCH} end)`;
    // `s CROSS JOIN tickets` keeps the index as the outer loop: it yields the organization's
    // candidates newest first (FTS5 consumes `order by rowid desc`), each ticket fetched by its
    // number, each rechecked, until the page is full.
    const query = db
      .selectFrom(sql`ticket_search`.as('s'))
      .crossJoin('tickets')
      .where(sql<SqlBool>`s.ticket_search match ${lookup}`)
      .where(sql<SqlBool>`s.rowid >= ${range}`)
      .where(sql<SqlBool>`s.rowid < ${range} + ${sql.lit(PARTITION)}`)
      .where('tickets.organization_id', '=', organizationId)
      .where(sql<SqlBool>`tickets.ticket_number = s.rowid - ${range}`)
      .where(sqliteRecheck(term)) as unknown as TicketsQuery;
    return { query, newestFirst: sql<number>`s.rowid` };
  },
  numberedTicket(db, organizationId, ticketNumber) {
    const key = sql<number>`(select k.key * ${sql.lit(PARTITION)} from ticket_search_organizations k where k.organization_id = ${organizationId}) + tickets.ticket_number`;
    const query = db.selectFrom('tickets').where('tickets.organization_id', '=', organizationId).where('tickets.ticket_number', '=', ticketNumber);
    return { query, newestFirst: key };
  },
  textMatch(term) {
    // Terms of one or two characters, over a bounded window of tickets: SQLite's own LIKE, several
    // times faster than the JavaScript test (which folds the case of ASCII letters only, as these
    // short terms always did; longer terms fold every letter).
    const pattern = containsPattern(term.text);
    return sql<SqlBool>`(tickets.subject like ${pattern} escape '\\' or tickets.description like ${pattern} escape '\\'
      or exists (select 1 from customers c where c.id = tickets.customer_id
        and (c.name like ${pattern} escape '\\' or c.email like ${pattern} escape '\\')))`;
  },
};

/**
 * pg_trgm builds trigrams from runs of letters and digits only; a term with no run of three such
 * characters gives it no trigram to look up, and a GIN scan without one reads the whole index.
 */
const hasTrigram = (term: string): boolean => /[\p{L}\p{N}]{3}/u.test(term);

/**
 * PostgreSQL: a search tests up to this many of the organization's newest tickets (matching the
 * other filters) per ticket its page needs (offset + limit) before it reads the index's matches
 * (TicketSearch.scanFirst), and at most SCAN_MAX_TICKETS: a term in one ticket of 50 fills its
 * page from the scan (the bench's common term is in one of 33).
 */
export const SCAN_TICKETS_PER_MATCH = 50;
export const SCAN_MAX_TICKETS = 25_000;

/** Characters of a long term given to `ILIKE` (and so to the trigram index); the rest is rechecked by `strpos`. */
const PG_PATTERN_CHARS = 24;

/**
 * Up to three PG_PATTERN_CHARS-character pieces of a longer term: its start, its end, and a piece
 * with the most distinct characters (where a near miss is least likely to go on matching).
 */
function pgPieces(chars: string[]): string[] {
  const n = PG_PATTERN_CHARS;
  // Of the windows with the most distinct characters, the middle one: `a` × 300 + `b` + `a` × 199
  // gives `a` × 12 + `b` + `a` × 11, which a text of `a`s with one `baaa` does not contain, where
  // the first such window (`a` × 23 + `b`) it does, and strpos would then run.
  const distinct = Array.from({ length: chars.length - n + 1 }, (_, i) => new Set(chars.slice(i, i + n)).size);
  const most = Math.max(...distinct);
  const tied = distinct.flatMap((d, i) => (d === most ? [i] : []));
  const best = tied[Math.floor(tied.length / 2)]!;
  const pieces = [chars.slice(0, n), chars.slice(best, best + n), chars.slice(-n)].map((p) => p.join(''));
  return [...new Set(pieces)];
}

/**
 * The text test on PostgreSQL. Up to PG_PATTERN_CHARS characters: `ILIKE` as it is. Longer: `ILIKE`
 * with a few pieces of the term (pgPieces: what the trigram index looks up, and what each candidate
 * is rechecked with, at a cost bounded by their length), then the whole term by `strpos` over the
 * lower-cased text: `ILIKE '%…500 characters…%'` over 100 KB texts compared character by character
 * for seconds. `ILIKE` folds case as `lower()` does. What is left unbounded (a text that contains
 * every piece, many times) is bounded by the search's statement timeout.
 */
function pgTextTest(column: string, term: string): RawBuilder<SqlBool> {
  const chars = [...term];
  const ref = sql.raw(column);
  if (chars.length <= PG_PATTERN_CHARS) return sql<SqlBool>`${ref} ilike ${containsPattern(term)}`;
  const pieces = pgPieces(chars).map((piece) => sql`${ref} ilike ${containsPattern(piece)}`);
  return sql<SqlBool>`(${sql.join(pieces, sql` and `)} and strpos(lower(${ref}), lower(${term})) > 0)`;
}

/**
 * PostgreSQL: GIN indexes partitioned by organization (migration 0014): each key is the
 * organization and a trigram in one `bigint`, so the index yields only the caller's candidates and
 * never reads another organization's postings. `keys @> term keys` narrows the candidates (every
 * trigram of the term but those at its ends), the text test rechecks each one, so the result is
 * exactly the substring match. Backslash is `ILIKE`'s default escape character.
 */
export const postgresTicketSearch: TicketSearch = {
  indexes: hasTrigram,
  scanFirst: (need) => Math.min(SCAN_MAX_TICKETS, need * SCAN_TICKETS_PER_MATCH),
  indexedTickets(db, organizationId, term) {
    // The term's keys, a constant the planner folds (the function is immutable) and the index's
    // condition: the same expression as tickets_search_keys_idx / customers_search_keys_idx.
    const keys = sql`ticket_search_term_keys(${organizationId}::text, ${term.text}::text)`;
    const matches = sql<{ seq: number }>`select seq from tickets where organization_id = ${organizationId}
        and ticket_search_keys(organization_id, subject, description) @> ${keys}
        and (${pgTextTest('subject', term.text)} or ${pgTextTest('description', term.text)})
      union select t.seq from customers c
        join tickets t on t.organization_id = c.organization_id and t.customer_id = c.id
        where c.organization_id = ${organizationId} and ticket_search_keys(c.organization_id, c.name, c.email) @> ${keys}
          and (${pgTextTest('c.name', term.text)} or ${pgTextTest('c.email', term.text)})`;
    const byNumber =
      term.ticketNumber === null
        ? sql``
        : sql` union select seq from tickets where organization_id = ${organizationId} and ticket_number = ${term.ticketNumber}`;
    // The matches become one array (an InitPlan) and each ticket is fetched by its primary key.
    // Joined as a relation instead, a common term (thousands of matches) makes the planner read
    // the organization's tickets whole into a hash join: a table scan that grows with the table.
    // `offset 0` keeps the other filters outside: given them, the planner walked a filter's index
    // (every high-priority ticket of the organization) testing each against the array.
    const byKey = db.selectFrom('tickets').selectAll().where(sql<SqlBool>`tickets.seq = any(array(${matches}${byNumber}))`).offset(0);
    const query = db.selectFrom(byKey.as('tickets')) as unknown as TicketsQuery;
    return { query, newestFirst: sql<number>`tickets.ticket_number` };
  },
  scanMatch(term, organizationId) {
    // The organization's customers whose name or email holds the term, found once through their
    // index (a hashed subplan), so each ticket costs its own two texts and one hash probe.
    const keys = sql`ticket_search_term_keys(${organizationId}::text, ${term.text}::text)`;
    const byNumber = term.ticketNumber === null ? sql`` : sql` or tickets.ticket_number = ${term.ticketNumber}`;
    return sql<SqlBool>`(${pgTextTest('tickets.subject', term.text)} or ${pgTextTest('tickets.description', term.text)}
      or tickets.customer_id in (select c.id from customers c where c.organization_id = ${organizationId}
        and ticket_search_keys(c.organization_id, c.name, c.email) @> ${keys}
        and (${pgTextTest('c.name', term.text)} or ${pgTextTest('c.email', term.text)}))${byNumber})`;
  },
  textMatch(term, organizationId) {
    // The customer test names the organization as a value, so that a plan that reads the matching
    // customers first reads only this organization's.
    return sql<SqlBool>`(${pgTextTest('tickets.subject', term.text)} or ${pgTextTest('tickets.description', term.text)}
      or exists (select 1 from customers c where c.organization_id = ${organizationId} and c.id = tickets.customer_id
        and (${pgTextTest('c.name', term.text)} or ${pgTextTest('c.email', term.text)})))`;
  },
};
