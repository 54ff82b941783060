import { sql, type Insertable, type SelectQueryBuilder, type SqlBool, type Updateable } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import { UNINDEXED_TERM_WINDOW, type SearchTerm, type TicketSearch } from '../../db/search.js';
import type { Database, TicketRow, TicketsTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { afterCursor, type Page, type SortKey } from '../../shared/pagination.js';

export type TicketColumns = Omit<TicketRow, 'seq'>;

/** A ticket's columns, all but the store's own `seq`. */
export const TICKET_COLUMNS = [
  'id', 'organization_id', 'ticket_number', 'tracking_token', 'customer_id', 'subject', 'description', 'status',
  'priority', 'category', 'assigned_user_id', 'assigned_team_id', 'due_date', 'created_at', 'updated_at',
  'resolved_at', 'closed_at',
] as const;
const COLUMNS = TICKET_COLUMNS;

/** The same, named through the table: a search query has the index's columns (subject...) in scope too. */
const QUALIFIED = COLUMNS.map((c) => `tickets.${c}` as const);

export interface TicketFilters {
  status?: TicketRow['status'] | undefined;
  priority?: TicketRow['priority'] | undefined;
  assignedUserId?: string | undefined;
  assignedTeamId?: string | undefined;
  customerId?: string | undefined;
  category?: string | undefined;
  unassigned?: boolean | undefined;
  search?: SearchTerm | undefined;
  /** ISO 8601 UTC: tickets whose `updated_at` is at or after it (tickets_org_updated_at_idx). */
  updatedSince?: string | undefined;
}

/** Newest first: the ticket number is unique in the organization and never changes. */
export const TICKET_ORDER: SortKey<{ ticket_number: number }> = {
  columns: ['tickets.ticket_number'],
  types: ['number'],
  direction: 'desc',
  of: (ticket) => [ticket.ticket_number],
};

export async function insertTicket(db: Executor, row: Insertable<TicketsTable>): Promise<void> {
  await db.insertInto('tickets').values(row).execute();
}

// The get-by-id read: compiled once (and a named statement on PostgreSQL), it runs on every GET.
const findTicketQuery = preparedQuery((db: Executor, organizationId: string, id: string) =>
  db.selectFrom('tickets').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id),
);

export async function findTicket(db: Executor, organizationId: string, id: string): Promise<TicketColumns | undefined> {
  return (await findTicketQuery(db, organizationId, id))[0];
}

/**
 * The ticket, locked until the transaction ends (PostgreSQL `for update`; SQLite's one writer at a
 * time holds the whole store), so what a change replaces is what the change's event says it replaced.
 */
export function findTicketForUpdate(trx: Executor, organizationId: string, id: string): Promise<TicketColumns | undefined> {
  const query = trx.selectFrom('tickets').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(trx, query).executeTakeFirst();
}

/**
 * The list filters other than search, and the cursor's start (a page read by `cursor` starts after
 * its ticket number), on a query that has `tickets` in scope.
 */
function withFilters<O>(query: SelectQueryBuilder<Database, 'tickets', O>, organizationId: string, filters: TicketFilters, page?: Page) {
  let q = query.where('tickets.organization_id', '=', organizationId);
  if (filters.status) q = q.where('tickets.status', '=', filters.status);
  if (filters.priority) q = q.where('tickets.priority', '=', filters.priority);
  if (filters.assignedUserId) q = q.where('tickets.assigned_user_id', '=', filters.assignedUserId);
  if (filters.assignedTeamId) q = q.where('tickets.assigned_team_id', '=', filters.assignedTeamId);
  if (filters.customerId) q = q.where('tickets.customer_id', '=', filters.customerId);
  if (filters.category !== undefined) q = q.where('tickets.category', '=', filters.category);
  if (filters.unassigned !== undefined) q = q.where('tickets.assigned_user_id', filters.unassigned ? 'is' : 'is not', null);
  if (filters.updatedSince !== undefined) q = q.where('tickets.updated_at', '>=', filters.updatedSince);
  if (page?.after) q = q.where(afterCursor(page.after, TICKET_ORDER));
  return q;
}

/**
 * The query for one page of an organization's tickets, newest first, built but not run (so its
 * plan can be checked); every filter is served by an index, and the work a search does is
 * bounded by the page asked for (docs/architecture.md#search):
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
export function listTicketsQuery(
  db: Executor,
  search: TicketSearch,
  organizationId: string,
  filters: TicketFilters,
  page: Page,
) {
  const term = filters.search;
  if (term && search.indexes(term.text)) {
    const matches = search.indexedTickets(db, organizationId, term);
    const text = withFilters(matches.query, organizationId, filters, page).select(QUALIFIED).select(matches.newestFirst.as('newest_first'));
    if (search.scanFirst !== undefined && search.scanMatch) {
      // The organization's newest tickets (matching the filters, read from their index in order)
      // tested one by one, stopping when offset + limit match or after scanFirst(those) tickets; the
      // index's matches only when that comes back short, decided in the same statement: a page
      // filled from the newest tickets is the page (matches rank newest first).
      const need = page.offset + page.limit;
      const scanned = search.scanFirst(need);
      const newest = withFilters(db.selectFrom('tickets'), organizationId, filters, page)
        .selectAll('tickets')
        .orderBy('tickets.ticket_number', 'desc')
        .limit(scanned);
      const scan = db
        .selectFrom(newest.as('tickets'))
        .select(COLUMNS)
        .select(sql<number>`tickets.ticket_number`.as('newest_first'))
        .where(search.scanMatch(term, organizationId))
        .orderBy('tickets.ticket_number', 'desc')
        .limit(need);
      const found = sql<number>`(select count(*) from scan)`;
      // Short, the scan is still the whole answer when it read every ticket the filters let
      // through (a customer's 500 tickets): the index would have fetched every match of the term.
      // Looked at only when the scan came back short (AND and OR stop at their first operand).
      // (The ticket number alone, so that the filter's index can answer without the table.)
      const beyond = withFilters(db.selectFrom('tickets'), organizationId, filters, page)
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
    const ticket = withFilters(numbered.query, organizationId, filters, page).select(QUALIFIED).select(numbered.newestFirst.as('newest_first'));
    return db
      .selectFrom(firstMatches.as('m'))
      .selectAll()
      .union(db.selectFrom(ticket.as('n')).selectAll())
      .orderBy(sql.ref('newest_first'), 'desc')
      .limit(page.limit)
      .offset(page.offset);
  }
  if (term) {
    // The newest tickets of the window, then the text test on each.
    const window = withFilters(db.selectFrom('tickets'), organizationId, filters, page)
      .selectAll('tickets')
      .orderBy('tickets.ticket_number', 'desc')
      .limit(UNINDEXED_TERM_WINDOW);
    return db
      .selectFrom(window.as('tickets'))
      .select(COLUMNS)
      .where((eb) => {
        const text = search.textMatch(term, organizationId);
        return term.ticketNumber === null ? text : eb.or([text, eb('tickets.ticket_number', '=', term.ticketNumber)]);
      })
      .orderBy('tickets.ticket_number', 'desc')
      .limit(page.limit)
      .offset(page.offset);
  }
  return withFilters(db.selectFrom('tickets'), organizationId, filters, page)
    .select(COLUMNS)
    .orderBy('tickets.ticket_number', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * A query that finds a ticket beyond the window of a term no index answers: when a page of such
 * a search comes back short and this finds one, the page could not be answered within the window.
 */
export function beyondWindowQuery(db: Executor, organizationId: string, filters: TicketFilters, page: Page) {
  return withFilters(db.selectFrom('tickets'), organizationId, filters, page)
    .select('tickets.seq')
    .orderBy('tickets.ticket_number', 'desc')
    .limit(1)
    .offset(UNINDEXED_TERM_WINDOW);
}

/** One page of an organization's tickets, newest first. */
export function listTickets(
  db: Executor,
  search: TicketSearch,
  organizationId: string,
  filters: TicketFilters,
  page: Page,
): Promise<TicketColumns[]> {
  return listTicketsQuery(db, search, organizationId, filters, page).execute();
}

export async function updateTicket(
  db: Executor,
  organizationId: string,
  id: string,
  changes: Updateable<TicketsTable>,
): Promise<void> {
  await db.updateTable('tickets').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Deletes a ticket; its comments and attachment rows go with it (foreign keys cascade). */
export async function deleteTicket(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('tickets').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Unassigns every ticket of a user or a team, touching `updated_at` (docs/api-behaviour.md, Users and teams). */
export async function unassignTickets(
  db: Executor,
  organizationId: string,
  column: 'assigned_user_id' | 'assigned_team_id',
  id: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('tickets')
    .set({ [column]: null, updated_at: at })
    .where('organization_id', '=', organizationId)
    .where(column, '=', id)
    .execute();
}

/** Ids of a customer's tickets (to remove their attachments' bytes when the customer goes). */
export async function ticketIdsOfCustomer(db: Executor, organizationId: string, customerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tickets')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('customer_id', '=', customerId)
    .execute();
  return rows.map((r) => r.id);
}
