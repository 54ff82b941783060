import { sql, type ExpressionBuilder, type Insertable, type SelectQueryBuilder, type Updateable } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import { UNINDEXED_TERM_WINDOW, type SearchTerm, type TicketSearch } from '../../search/search.js';
import { searchTicketsQuery } from '../../search/tickets.search-query.js';
import type { Database, TicketRow, TicketsTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { afterCursor, type Page, type SortKey } from '../../shared/pagination.js';

/** status_changed_at is the store's own (automations read it in SQL; no answer shows it). */
export type TicketColumns = Omit<TicketRow, 'seq' | 'status_changed_at'>;

/** A ticket's columns, all but the store's own `seq`. */
export const TICKET_COLUMNS = [
  'id', 'organization_id', 'ticket_number', 'tracking_token', 'customer_id', 'subject', 'description', 'status',
  'priority', 'category', 'assigned_user_id', 'assigned_team_id', 'due_date', 'created_at', 'updated_at',
  'resolved_at', 'closed_at', 'tags', 'custom_fields', 'channel', 'email', 'sla', 'sla_next_due_at', 'next_sla_deadline_at',
] as const;
const COLUMNS = TICKET_COLUMNS;

/** The same, named through the table: a search query has the index's columns (subject...) in scope too. */
const QUALIFIED = COLUMNS.map((c) => `tickets.${c}` as const);

export interface TicketFilters {
  /** One value, or several of which any matches (`status=open,pending`). */
  status?: TicketRow['status'] | readonly TicketRow['status'][] | undefined;
  priority?: TicketRow['priority'] | readonly TicketRow['priority'][] | undefined;
  assignedUserId?: string | undefined;
  assignedTeamId?: string | undefined;
  customerId?: string | undefined;
  category?: string | undefined;
  unassigned?: boolean | undefined;
  search?: SearchTerm | undefined;
  /** ISO 8601 UTC: tickets whose `updated_at` is at or after it (tickets_org_updated_at_idx). */
  updatedSince?: string | undefined;
  /** Tickets carrying every one of these tags (ticket_tags_pkey); the first drives the query, so put the rarest first. */
  tags?: string[] | undefined;
  /** Tickets carrying at least one of these tags (ticket_tags_pkey). */
  anyTags?: string[] | undefined;
  /** Tickets whose custom field has the value (ticket_field_values_text_idx / _number_idx); a multiselect's any option. */
  customFields?: Array<{ fieldId: string; value: { text: string } | { number: number } }> | undefined;
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

/** A filter's values as a list (one value: `=`, so its plan stays as it was; several: `in (...)`). */
const listOf = <T extends string>(values: T | readonly T[] | undefined): readonly T[] =>
  values === undefined ? [] : typeof values === 'string' ? [values] : values;

/** The ticket carries one of `tags`: a seek of ticket_tags_pkey (organization, tag, number) per tag. */
function taggedWith(organizationId: string, tags: string[]) {
  return (eb: ExpressionBuilder<Database, 'tickets'>) =>
    eb.exists(
      eb
        .selectFrom('ticket_tags')
        .select(sql.lit(1).as('one'))
        .where('ticket_tags.organization_id', '=', organizationId)
        .where('ticket_tags.tag', 'in', tags)
        .whereRef('ticket_tags.ticket_number', '=', 'tickets.ticket_number'),
    );
}

/** The ticket has this value of the field: a seek of the field's value index. */
function withFieldValue(organizationId: string, fieldId: string, value: { text: string } | { number: number }) {
  return (eb: ExpressionBuilder<Database, 'tickets'>) => {
    let values = eb
      .selectFrom('ticket_field_values')
      .select(sql.lit(1).as('one'))
      .where('ticket_field_values.organization_id', '=', organizationId)
      .where('ticket_field_values.field_id', '=', fieldId);
    values = 'number' in value ? values.where('ticket_field_values.value_number', '=', value.number) : values.where('ticket_field_values.value_text', '=', value.text);
    return eb.exists(values.whereRef('ticket_field_values.ticket_number', '=', 'tickets.ticket_number'));
  };
}

/**
 * The list filters other than search, and the cursor's start (a page read by `cursor` starts after
 * its ticket number), on a query that has `tickets` in scope.
 */
function withFilters<O>(query: SelectQueryBuilder<Database, 'tickets', O>, organizationId: string, filters: TicketFilters, page?: Page) {
  let q = query.where('tickets.organization_id', '=', organizationId);
  const statuses = listOf(filters.status);
  if (statuses.length === 1) q = q.where('tickets.status', '=', statuses[0]!);
  else if (statuses.length > 1) q = q.where('tickets.status', 'in', statuses);
  const priorities = listOf(filters.priority);
  if (priorities.length === 1) q = q.where('tickets.priority', '=', priorities[0]!);
  else if (priorities.length > 1) q = q.where('tickets.priority', 'in', priorities);
  if (filters.assignedUserId) q = q.where('tickets.assigned_user_id', '=', filters.assignedUserId);
  if (filters.assignedTeamId) q = q.where('tickets.assigned_team_id', '=', filters.assignedTeamId);
  if (filters.customerId) q = q.where('tickets.customer_id', '=', filters.customerId);
  if (filters.category !== undefined) q = q.where('tickets.category', '=', filters.category);
  if (filters.unassigned !== undefined) q = q.where('tickets.assigned_user_id', filters.unassigned ? 'is' : 'is not', null);
  if (filters.updatedSince !== undefined) q = q.where('tickets.updated_at', '>=', filters.updatedSince);
  for (const tag of filters.tags ?? []) q = q.where(taggedWith(organizationId, [tag]));
  if (filters.anyTags) q = q.where(taggedWith(organizationId, filters.anyTags));
  for (const { fieldId, value } of filters.customFields ?? []) q = q.where(withFieldValue(organizationId, fieldId, value));
  if (page?.after) q = q.where(afterCursor(page.after, TICKET_ORDER));
  return q;
}

/**
 * The query for one page of an organization's tickets, newest first, built but not run (so its
 * plan can be checked); every filter is served by an index. With a search term, the query is
 * src/search/tickets.search-query.ts (how it runs on each store: src/search/README.md).
 */
export function listTicketsQuery(
  db: Executor,
  search: TicketSearch,
  organizationId: string,
  filters: TicketFilters,
  page: Page,
) {
  const term = filters.search;
  if (term) {
    const filtered = <O>(query: SelectQueryBuilder<Database, 'tickets', O>) => withFilters(query, organizationId, filters, page);
    return searchTicketsQuery(db, search, organizationId, term, page, { filtered, columns: COLUMNS, qualified: QUALIFIED });
  }
  // One tag of any_tag is that tag: its rows can drive the query too.
  if (!filters.tags?.length && filters.anyTags?.length === 1) filters = { ...filters, tags: filters.anyTags, anyTags: undefined };
  if (filters.tags?.length) return taggedTicketsQuery(db, organizationId, filters, page);
  if (filters.customFields?.length) return fieldValueTicketsQuery(db, organizationId, filters, page);
  return withFilters(db.selectFrom('tickets'), organizationId, filters, page)
    .select(COLUMNS)
    .orderBy('tickets.ticket_number', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}

/** A custom field filter's order: its value rows' numbers, which are the tickets'. */
const VALUE_ROW_ORDER: SortKey<{ ticket_number: number }> = { ...TICKET_ORDER, columns: ['fv.ticket_number'] };

/**
 * A page of the tickets with `filters.customFields`: the first one's value rows, read newest first
 * from the cursor on from its value index (organization, field, value, number), drive the query;
 * the other filters are checked on the way, and the read stops at the page's end.
 */
function fieldValueTicketsQuery(db: Executor, organizationId: string, filters: TicketFilters, page: Page) {
  const [first, ...others] = filters.customFields!;
  let driver = db
    .selectFrom('ticket_field_values as fv')
    .innerJoin('tickets', (join) => join.onRef('tickets.organization_id', '=', 'fv.organization_id').onRef('tickets.ticket_number', '=', 'fv.ticket_number'))
    .where('fv.organization_id', '=', organizationId)
    .where('fv.field_id', '=', first!.fieldId);
  driver = 'number' in first!.value ? driver.where('fv.value_number', '=', first!.value.number) : driver.where('fv.value_text', '=', first!.value.text);
  if (page.after) driver = driver.where(afterCursor(page.after, VALUE_ROW_ORDER));
  // Seen as a query of tickets for the other filters: their conditions name only tickets' columns.
  const tickets = driver as unknown as SelectQueryBuilder<Database, 'tickets', object>;
  return withFilters(tickets, organizationId, { ...filters, customFields: others }, page)
    .select(QUALIFIED)
    .orderBy(sql.ref('fv.ticket_number'), 'desc')
    .limit(page.limit)
    .offset(page.offset);
}

/** A tag filter's order: its ticket_tags rows' numbers, which are the tickets'. */
const TAG_ROW_ORDER: SortKey<{ ticket_number: number }> = { ...TICKET_ORDER, columns: ['tt.ticket_number'] };

/**
 * A page of the tickets carrying `filters.tags`: the first tag's rows of ticket_tags_pkey, read
 * newest first from the cursor on, drive the query (each ticket fetched by its number); the other
 * tags and filters are checked on the way, and the read stops at the page's end.
 */
function taggedTicketsQuery(db: Executor, organizationId: string, filters: TicketFilters, page: Page) {
  const [first, ...others] = filters.tags!;
  let driver = db
    .selectFrom('ticket_tags as tt')
    .innerJoin('tickets', (join) => join.onRef('tickets.organization_id', '=', 'tt.organization_id').onRef('tickets.ticket_number', '=', 'tt.ticket_number'))
    .where('tt.organization_id', '=', organizationId)
    .where('tt.tag', '=', first!);
  if (page.after) driver = driver.where(afterCursor(page.after, TAG_ROW_ORDER));
  // Seen as a query of tickets for the other filters: their conditions name only tickets' columns.
  const tickets = driver as unknown as SelectQueryBuilder<Database, 'tickets', object>;
  return withFilters(tickets, organizationId, { ...filters, tags: others }, page)
    .select(QUALIFIED)
    .orderBy(sql.ref('tt.ticket_number'), 'desc')
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
