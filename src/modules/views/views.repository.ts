import { sql, type Expression, type ExpressionBuilder, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Database, ViewsTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type CursorValue, type Page } from '../../shared/pagination.js';
import { TICKET_COLUMNS, type TicketColumns } from '../tickets/tickets.repository.js';

export type ViewRow = Selectable<ViewsTable>;
export interface ViewSort {
  by: ViewRow['sort_by'];
  order: 'asc' | 'desc';
}
export type Where = (eb: ExpressionBuilder<Database, 'tickets'>) => Expression<SqlBool>;

const COLUMNS = ['id', 'organization_id', 'name', 'owner_user_id', 'conditions', 'sort_by', 'sort_order', 'created_at', 'updated_at'] as const;

export async function insertView(db: Executor, row: Insertable<ViewsTable>): Promise<void> {
  await db.insertInto('views').values(row).execute();
}

/** The view if the caller may see it: shared, or owned by `userId`. */
export function findView(db: Executor, organizationId: string, id: string, userId: string | null): Promise<ViewRow | undefined> {
  return db
    .selectFrom('views')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where((eb) => (userId === null ? eb('owner_user_id', 'is', null) : eb.or([eb('owner_user_id', 'is', null), eb('owner_user_id', '=', userId)])))
    .executeTakeFirst();
}

export async function countViews(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('views').select((eb) => eb.fn.countAll<number | string>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The views the caller sees, oldest first; `page` absent: all of them (at most the organization's cap). */
export function listViews(db: Executor, organizationId: string, userId: string | null, page: Page) {
  return db
    .selectFrom('views')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where((eb) => (userId === null ? eb('owner_user_id', 'is', null) : eb.or([eb('owner_user_id', 'is', null), eb('owner_user_id', '=', userId)])))
    .$call(paged(page, CREATED_ASC))
    .execute();
}

export async function updateView(db: Executor, organizationId: string, id: string, changes: Updateable<ViewsTable>): Promise<void> {
  await db.updateTable('views').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteView(db: Executor, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('views').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Sorting by priority: its rank, low to urgent. */
const PRIORITY_RANK = sql<number>`case tickets.priority when 'low' then 1 when 'medium' then 2 when 'high' then 3 else 4 end`;
/** Tickets without a due date sort as if due at the end of time. */
export const NO_DUE_DATE = '9999-12-31T23:59:59.999Z';

/** The expression a view sorts by (before its tie-break, the ticket number). */
function sortExpression(by: ViewRow['sort_by']) {
  switch (by) {
    case 'priority':
      return PRIORITY_RANK;
    case 'due_date':
      return sql<string>`coalesce(tickets.due_date, ${NO_DUE_DATE})`;
    case 'sla_next_due_at':
      return sql<string>`coalesce(tickets.sla_next_due_at, ${NO_DUE_DATE})`;
    default:
      return sql.ref(`tickets.${by}`);
  }
}

/**
 * One page of the tickets matching `where`, in the view's order with the ticket number as
 * tie-break; with a cursor, the page starts after its (sort value, number) by a row-value comparison.
 */
export function viewTicketsQuery(db: Executor, organizationId: string, where: Where, sort: ViewSort, page: Page) {
  const key = sortExpression(sort.by);
  let query = db.selectFrom('tickets').select(TICKET_COLUMNS).where('tickets.organization_id', '=', organizationId).where(where);
  if (page.after) {
    const [value, number] = page.after as [CursorValue, number];
    query = query.where(sql<SqlBool>`(${key}, tickets.ticket_number) ${sql.raw(sort.order === 'asc' ? '>' : '<')} (${value}, ${number})`);
  }
  return query.orderBy(key, sort.order).orderBy('tickets.ticket_number', sort.order).limit(page.limit).offset(page.offset);
}

export function viewTickets(db: Executor, organizationId: string, where: Where, sort: ViewSort, page: Page): Promise<TicketColumns[]> {
  return viewTicketsQuery(db, organizationId, where, sort, page).execute();
}

export function countTicketsQuery(db: Executor, organizationId: string, where: Where) {
  return db.selectFrom('tickets').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tickets.organization_id', '=', organizationId).where(where);
}
