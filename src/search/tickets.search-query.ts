import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, TicketsTable } from '../db/types.js';
import type { Executor } from '../shared/executor.js';
import type { Page } from '../shared/pagination.js';
import { UNINDEXED_TERM_WINDOW, type SearchTerm, type TicketSearch } from './search.js';

type TicketColumn = Exclude<keyof TicketsTable, 'seq'>;

/** What the tickets repository lends a search: its list filters and its column lists. */
export interface TicketListParts {
  /** The list filters other than search, and the page's cursor, on a query that has `tickets` in scope. */
  filtered: <O>(query: SelectQueryBuilder<Database, 'tickets', O>) => SelectQueryBuilder<Database, 'tickets', O>;
  /** The ticket columns a list returns. */
  columns: readonly TicketColumn[];
  /** The same, named through the table: a search query has the index's columns (subject...) in scope too. */
  qualified: ReadonlyArray<`tickets.${TicketColumn}`>;
}

/**
 * The query for one page of an organization's tickets matching a search term, newest first, built
 * but not run (so its plan can be checked); the work a search does is bounded by the page asked for
 * (README.md beside this file):
 *
 * - a term the search index answers: the index yields the organization's candidates (only its
 *   own: the index is partitioned or led by the organization), each ticket fetched by its key and
 *   rechecked; on SQLite newest first straight from the index, stopping when the page is full; on
 *   PostgreSQL (TicketSearch.scanFirst) the organization's newest tickets are tested first, the
 *   index read only when they do not fill the page;
 * - a term it cannot answer (one or two characters): the organization's newest
 *   UNINDEXED_TERM_WINDOW tickets matching the filters, each tested (`windowExceeded` tells when
 *   the page lies beyond them).
 */
export function searchTicketsQuery(
  db: Executor,
  search: TicketSearch,
  organizationId: string,
  term: SearchTerm,
  page: Page,
  parts: TicketListParts,
) {
  if (search.indexes(term.text)) {
    const matches = search.indexedTickets(db, organizationId, term);
    const text = parts.filtered(matches.query).select(parts.qualified).select(matches.newestFirst.as('newest_first'));
    if (search.scanFirst !== undefined && search.scanMatch) {
      // The organization's newest tickets (matching the filters, read from their index in order)
      // tested one by one, stopping when offset + limit match or after scanFirst(those) tickets; the
      // index's matches only when that comes back short, decided in the same statement: a page
      // filled from the newest tickets is the page (matches rank newest first).
      const need = page.offset + page.limit;
      const scanned = search.scanFirst(need);
      const newest = parts.filtered(db.selectFrom('tickets'))
        .selectAll('tickets')
        .orderBy('tickets.ticket_number', 'desc')
        .limit(scanned);
      const scan = db
        .selectFrom(newest.as('tickets'))
        .select(parts.columns)
        .select(sql<number>`tickets.ticket_number`.as('newest_first'))
        .where(search.scanMatch(term, organizationId))
        .orderBy('tickets.ticket_number', 'desc')
        .limit(need);
      const found = sql<number>`(select count(*) from scan)`;
      // Short, the scan is still the whole answer when it read every ticket the filters let
      // through (a customer's 500 tickets): the index would have fetched every match of the term.
      // Looked at only when the scan came back short (AND and OR stop at their first operand).
      // (The ticket number alone, so that the filter's index can answer without the table.)
      const beyond = parts.filtered(db.selectFrom('tickets'))
        .select('tickets.ticket_number')
        .orderBy('tickets.ticket_number', 'desc')
        .offset(scanned - 1)
        .limit(1);
      const more = sql<SqlBool>`(select beyond.more from beyond)`;
      return db
        .with((cte) => cte('scan').materialized(), () => scan)
        .with((cte) => cte('beyond').materialized(), (d) => d.selectNoFrom(sql<SqlBool>`exists (${beyond})`.as('more')))
        .selectFrom('scan')
        .selectAll()
        .where(sql<SqlBool>`(${found} >= ${need} or not ${more})`)
        .unionAll(text.where(sql<SqlBool>`(${found} < ${need} and ${more})`) as never)
        .orderBy(sql.ref('newest_first'), 'desc')
        .limit(page.limit)
        .offset(page.offset);
    }
    const numbered = term.ticketNumber === null ? undefined : search.numberedTicket?.(db, organizationId, term.ticketNumber);
    if (!numbered) return text.orderBy(sql.ref('newest_first'), 'desc').limit(page.limit).offset(page.offset);
    // The page of matches read from the index in its order (no sort), then the numbered ticket
    // put in its place among them: a sort of at most offset + limit + 1 rows.
    const firstMatches = text.orderBy(sql.ref('newest_first'), 'desc').limit(page.offset + page.limit);
    const ticket = parts.filtered(numbered.query).select(parts.qualified).select(numbered.newestFirst.as('newest_first'));
    return db
      .selectFrom(firstMatches.as('m'))
      .selectAll()
      .union(db.selectFrom(ticket.as('n')).selectAll())
      .orderBy(sql.ref('newest_first'), 'desc')
      .limit(page.limit)
      .offset(page.offset);
  }
  // The newest tickets of the window, then the text test on each.
  const window = parts.filtered(db.selectFrom('tickets'))
    .selectAll('tickets')
    .orderBy('tickets.ticket_number', 'desc')
    .limit(UNINDEXED_TERM_WINDOW);
  return db
    .selectFrom(window.as('tickets'))
    .select(parts.columns)
    .where((eb) => {
      const text = search.textMatch(term, organizationId);
      return term.ticketNumber === null ? text : eb.or([text, eb('tickets.ticket_number', '=', term.ticketNumber)]);
    })
    .orderBy('tickets.ticket_number', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}
