import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Executor } from '../shared/executor.js';
import type { Database } from './types.js';

/**
 * The dialect-specific half of ticket search: a case-insensitive substring match over the subject,
 * the description, and the customer's name and email. The repository adds the ticket-number match
 * and the organization, which are the same everywhere.
 */
export interface TicketSearch {
  /**
   * A statement selecting `seq` of the tickets whose text contains the term, answered from the
   * search index; it may return other organizations' tickets too (the caller filters), never fewer
   * of this one's. Undefined when the index cannot answer this term, and then `textMatch` is used.
   */
  indexedMatches(term: string, organizationId: string): RawBuilder<{ seq: number }> | undefined;
  /**
   * A query on `tickets` limited to the `seq`s that `matches` selects, in the shape this dialect's
   * planner serves by fetching each match by its key, however many there are: never by reading
   * the organization's tickets whole to join them against the matches.
   */
  matchedTickets(db: Executor, matches: RawBuilder<{ seq: number }>): SelectQueryBuilder<Database, 'tickets', object>;
  /**
   * A condition on the organization's `tickets` that is true when the term occurs in the ticket's
   * text, tested ticket by ticket while the list walks them newest first.
   */
  textMatch(term: string, organizationId: string): Expression<SqlBool>;
}

/** The term as a LIKE pattern matching it anywhere, with `\` escaping `\`, `%` and `_`. */
const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** SQLite: FTS5 trigram index for terms of three characters or more. */
export const sqliteTicketSearch: TicketSearch = {
  indexedMatches(term) {
    if ([...term].length < 3) return undefined;
    // A quoted FTS5 string of trigrams matches exactly where the term is a substring; inside the
    // quotes every character is literal except the quote itself, which is doubled.
    const phrase = `"${term.replace(/"/g, '""')}"`;
    return sql<{ seq: number }>`select rowid as seq from ticket_search where ticket_search match ${phrase}`;
  },
  matchedTickets(db, matches) {
    // `m CROSS JOIN tickets` makes SQLite loop over the matches and fetch each ticket by its rowid
    // (a cross join keeps the order written). Written as `seq IN (...)` instead, the planner walks
    // every ticket of the organization newest-first and tests each against the match list. `m`
    // only adds `seq`, which nothing else names unqualified: the rest is a query on tickets.
    return db.selectFrom(sql<{ seq: number }>`(${matches})`.as('m')).crossJoin('tickets').whereRef('tickets.seq', '=', 'm.seq');
  },
  textMatch(term) {
    // A trigram index cannot answer one- or two-character terms; such short terms match so many
    // tickets that walking the organization's tickets newest-first fills a page quickly.
    const pattern = containsPattern(term);
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
 * PostgreSQL: `ILIKE` over GIN trigram indexes (pg_trgm, each led by the organization through
 * btree_gin), one per searched column, so a match is a bitmap OR of index scans confined to the
 * organization. The index only narrows the candidates; `ILIKE` rechecks each one, so the result is
 * exactly the substring match. Backslash is `ILIKE`'s default escape character, so no `ESCAPE`
 * clause (which would wrap the pattern in a function call) is needed.
 */
export const postgresTicketSearch: TicketSearch = {
  indexedMatches(term, organizationId) {
    if (!hasTrigram(term)) return undefined;
    const pattern = containsPattern(term);
    return sql<{ seq: number }>`select seq from tickets where organization_id = ${organizationId}
        and (subject ilike ${pattern} or description ilike ${pattern})
      union select t.seq from customers c
        join tickets t on t.organization_id = c.organization_id and t.customer_id = c.id
        where c.organization_id = ${organizationId} and (c.name ilike ${pattern} or c.email ilike ${pattern})`;
  },
  matchedTickets(db, matches) {
    // The matches become one array (an InitPlan) and each ticket is fetched by its primary key.
    // Joined as a relation instead, a common term (thousands of matches) makes the planner read
    // the organization's tickets whole into a hash join: a table scan that grows with the table.
    return db.selectFrom('tickets').where(sql<SqlBool>`tickets.seq = any(array(${matches}))`);
  },
  textMatch(term, organizationId) {
    // As on SQLite: terms without a trigram walk the organization's tickets newest-first. The
    // customer test names the organization as a value, so that a plan that reads the matching
    // customers first reads only this organization's.
    const pattern = containsPattern(term);
    return sql<SqlBool>`(tickets.subject ilike ${pattern} or tickets.description ilike ${pattern}
      or exists (select 1 from customers c where c.organization_id = ${organizationId} and c.id = tickets.customer_id
        and (c.name ilike ${pattern} or c.email ilike ${pattern})))`;
  },
};
