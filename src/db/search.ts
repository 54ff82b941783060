import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../shared/executor.js';
import type { Database } from './types.js';

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

/** At most this many distinct trigrams of a term are looked up in the index; the rest are rechecked. */
export const MAX_LOOKUP_TRIGRAMS = 8;

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
  /** The ticket whose number the term names, in the same shape (SQLite: unioned with the matches). */
  numberedTicket?(db: Executor, organizationId: string, ticketNumber: number): { query: TicketsQuery; newestFirst: RawBuilder<number> };
  /** A condition on `tickets` true when the term occurs in the ticket's text, tested ticket by ticket. */
  textMatch(term: SearchTerm, organizationId: string): Expression<SqlBool>;
}

/** The term as a LIKE pattern matching it anywhere, with `\` escaping `\`, `%` and `_`. */
const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Up to `max` distinct trigrams of the term (by code point, distinct when case-folded), spread over its length so
 * that they cover its start, middle and end. A long or repetitive term (`a` × 500 has one) costs
 * at most `max` posting-list reads; exactness comes from the recheck.
 */
export function lookupTrigrams(term: string, max = MAX_LOOKUP_TRIGRAMS): string[] {
  // Folded only to find the distinct ones: FTS5 folds what it looks up itself, in its own way.
  const chars = [...term];
  const distinct: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) {
    const trigram = chars.slice(i, i + 3).join('');
    if (!seen.has(trigram.toLowerCase())) {
      seen.add(trigram.toLowerCase());
      distinct.push(trigram);
    }
  }
  if (distinct.length <= max) return distinct;
  return Array.from({ length: max }, (_, i) => distinct[Math.round((i * (distinct.length - 1)) / (max - 1))]!);
}

/** 2^40: an organization's entries in the SQLite index are the rowids key × 2^40 + ticket number. */
const PARTITION = 1099511627776;

/**
 * The recheck on SQLite: `search_contains(text, folded term, deadline)`, a function registered on
 * every connection (store.ts, search-readers.ts): JavaScript's case folding and substring test,
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
    // A bounded AND of distinct trigrams (each a quoted FTS5 string: only `"` is special, doubled),
    // never a phrase of hundreds: the phrase of `a` × 500 walked position lists for seconds.
    const match = lookupTrigrams(term.text).map((t) => `"${t.replace(/"/g, '""')}"`).join(' AND ');
    const range = sql`(select k.key * ${sql.lit(PARTITION)} from ticket_search_organizations k where k.organization_id = ${organizationId})`;
    // `s CROSS JOIN tickets` keeps the index as the outer loop: it yields the organization's
    // candidates newest first (FTS5 consumes `order by rowid desc`), each ticket fetched by its
    // number, each rechecked, until the page is full.
    const query = db
      .selectFrom(sql`ticket_search`.as('s'))
      .crossJoin('tickets')
      .where(sql<SqlBool>`s.ticket_search match ${match}`)
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
 * PostgreSQL: `ILIKE` over GIN trigram indexes (pg_trgm, each led by the organization through
 * btree_gin), one per searched column, so a match is a bitmap OR of index scans confined to the
 * organization. The index only narrows the candidates; the test rechecks each one, so the result
 * is exactly the substring match. Backslash is `ILIKE`'s default escape character.
 */
export const postgresTicketSearch: TicketSearch = {
  indexes: hasTrigram,
  indexedTickets(db, organizationId, term) {
    const matches = sql<{ seq: number }>`select seq from tickets where organization_id = ${organizationId}
        and (${pgTextTest('subject', term.text)} or ${pgTextTest('description', term.text)})
      union select t.seq from customers c
        join tickets t on t.organization_id = c.organization_id and t.customer_id = c.id
        where c.organization_id = ${organizationId} and (${pgTextTest('c.name', term.text)} or ${pgTextTest('c.email', term.text)})`;
    const byNumber =
      term.ticketNumber === null
        ? sql``
        : sql` union select seq from tickets where organization_id = ${organizationId} and ticket_number = ${term.ticketNumber}`;
    // The matches become one array (an InitPlan) and each ticket is fetched by its primary key.
    // Joined as a relation instead, a common term (thousands of matches) makes the planner read
    // the organization's tickets whole into a hash join: a table scan that grows with the table.
    const query = db.selectFrom('tickets').where(sql<SqlBool>`tickets.seq = any(array(${matches}${byNumber}))`);
    return { query, newestFirst: sql<number>`tickets.ticket_number` };
  },
  textMatch(term, organizationId) {
    // The customer test names the organization as a value, so that a plan that reads the matching
    // customers first reads only this organization's.
    return sql<SqlBool>`(${pgTextTest('tickets.subject', term.text)} or ${pgTextTest('tickets.description', term.text)}
      or exists (select 1 from customers c where c.organization_id = ${organizationId} and c.id = tickets.customer_id
        and (${pgTextTest('c.name', term.text)} or ${pgTextTest('c.email', term.text)})))`;
  },
};
