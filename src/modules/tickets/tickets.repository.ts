import { sql, type Insertable, type SelectQueryBuilder, type Updateable } from 'kysely';
import type { TicketSearch } from '../../db/search.js';
import type { Database, TicketRow, TicketsTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { afterCursor, type Page, type SortKey } from '../../shared/pagination.js';

export type TicketColumns = Omit<TicketRow, 'seq'>;

const COLUMNS = [
  'id', 'organization_id', 'ticket_number', 'tracking_token', 'customer_id', 'subject', 'description', 'status',
  'priority', 'category', 'assigned_user_id', 'assigned_team_id', 'due_date', 'created_at', 'updated_at',
  'resolved_at', 'closed_at',
] as const;

export interface TicketFilters {
  status?: TicketRow['status'] | undefined;
  priority?: TicketRow['priority'] | undefined;
  assignedUserId?: string | undefined;
  assignedTeamId?: string | undefined;
  customerId?: string | undefined;
  category?: string | undefined;
  unassigned?: boolean | undefined;
  search?: { text: string; ticketNumber: number | null } | undefined;
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

export function findTicket(db: Executor, organizationId: string, id: string): Promise<TicketColumns | undefined> {
  return db
    .selectFrom('tickets')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The ticket, locked until the transaction ends (PostgreSQL `for update`; SQLite's one writer at a
 * time holds the whole store), so what a change replaces is what the change's event says it replaced.
 */
export function findTicketForUpdate(trx: Executor, organizationId: string, id: string): Promise<TicketColumns | undefined> {
  const query = trx.selectFrom('tickets').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(trx, query).executeTakeFirst();
}

type TicketsQuery = SelectQueryBuilder<Database, 'tickets', object>;

/**
 * Where a list query reads its tickets from. With a term the search index answers, the matches
 * (plus the ticket the term names by number) drive the query, each ticket fetched by its key, in
 * the shape the dialect plans that way (TicketSearch.matchedTickets).
 */
function ticketsSource(db: Executor, search: TicketSearch, organizationId: string, term: TicketFilters['search']): TicketsQuery | undefined {
  const matches = term ? search.indexedMatches(term.text, organizationId) : undefined;
  if (!term || !matches) return undefined;
  const byNumber =
    term.ticketNumber === null
      ? sql``
      : sql` union select seq from tickets where organization_id = ${organizationId} and ticket_number = ${term.ticketNumber}`;
  return search.matchedTickets(db, sql<{ seq: number }>`${matches}${byNumber}`);
}

/**
 * The query for one page of an organization's tickets, newest first, built but not run (so its
 * plan can be checked); every filter is served by an index.
 */
export function listTicketsQuery(
  db: Executor,
  search: TicketSearch,
  organizationId: string,
  filters: TicketFilters,
  page: Page,
) {
  const term = filters.search;
  const source = ticketsSource(db, search, organizationId, term);
  let query = (source ?? db.selectFrom('tickets')).select(COLUMNS).where('tickets.organization_id', '=', organizationId);
  if (filters.status) query = query.where('tickets.status', '=', filters.status);
  if (filters.priority) query = query.where('tickets.priority', '=', filters.priority);
  if (filters.assignedUserId) query = query.where('tickets.assigned_user_id', '=', filters.assignedUserId);
  if (filters.assignedTeamId) query = query.where('tickets.assigned_team_id', '=', filters.assignedTeamId);
  if (filters.customerId) query = query.where('tickets.customer_id', '=', filters.customerId);
  if (filters.category !== undefined) query = query.where('tickets.category', '=', filters.category);
  if (filters.unassigned !== undefined) {
    query = query.where('tickets.assigned_user_id', filters.unassigned ? 'is' : 'is not', null);
  }
  if (filters.updatedSince !== undefined) query = query.where('tickets.updated_at', '>=', filters.updatedSince);
  if (page.after) query = query.where(afterCursor(page.after, TICKET_ORDER));
  if (term && !source) {
    query = query.where((eb) => {
      const text = search.textMatch(term.text, organizationId);
      return term.ticketNumber === null ? text : eb.or([text, eb('tickets.ticket_number', '=', term.ticketNumber)]);
    });
  }
  return query.orderBy('tickets.ticket_number', 'desc').limit(page.limit).offset(page.offset);
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

/** Unassigns every ticket of a user or a team, touching `updated_at` (decisions §5). */
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
