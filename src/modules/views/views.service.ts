import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { ViewsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { SearchBusyError, SearchTimeoutError } from '../../search/search-runner.js';
import { assertBelowCap } from '../../limits/collection-caps.js';
import type { Executor } from '../../shared/executor.js';
import type { Page, SortKey } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { ticketFieldsByKey } from '../ticket-fields/ticket-fields.repository.js';
import { optionsOf } from '../ticket-fields/ticket-fields.values.js';
import { presentTicket } from '../tickets/tickets.service.js';
import type { Ticket } from '../tickets/tickets.schemas.js';
import { checkConditions, usesMe, type ConditionField, type Conditions } from './conditions.js';
import { compileConditions } from './conditions.compile.js';
import { SHARED, type CountedView, type CountsPart, type ViewCountsCache } from './views.counts-cache.js';
import * as repo from './views.repository.js';
import type { CreateViewBody, UpdateViewBody, View, ViewCounts } from './views.schemas.js';

export interface ViewDeps {
  store: Store;
  config: Config;
  /** Counts kept for a while (views.counts-cache.ts); absent: always counted. */
  countsCache?: ViewCountsCache;
}

const DEFAULT_SORT = { by: 'created_at', order: 'desc' } as const;

export function presentView(row: repo.ViewRow): View {
  return {
    id: row.id,
    name: row.name,
    shared: row.owner_user_id === null,
    owner_user_id: row.owner_user_id,
    conditions: JSON.parse(row.conditions) as View['conditions'],
    sort: { by: row.sort_by, order: row.sort_order },
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** The organization's custom fields as conditions check them. */
async function conditionFields(db: Executor, organizationId: string): Promise<Map<string, ConditionField>> {
  const rows = await ticketFieldsByKey(db, organizationId);
  return new Map([...rows].map(([key, f]) => [key, { id: f.id, type: f.type, options: optionsOf(f) }]));
}

/** Checked conditions as stored; "me" needs a user behind the request. */
async function checked(db: Executor, auth: AuthContext, conditions: Conditions): Promise<string> {
  if (usesMe(conditions) && auth.holderUserId === null) throw meWithoutUser('body.conditions');
  return JSON.stringify(checkConditions(conditions, 'body.conditions', await conditionFields(db, auth.organizationId)));
}

const meWithoutUser = (at: string) =>
  errors.invalidField(at, `assigned_user_id "me" needs a user behind the request: sign in, or use an API key with a holder user`);

/** A personal view's owner: the caller's user; a caller without one may create only shared views. */
function ownerOf(auth: AuthContext, shared: boolean): string | null {
  if (shared) return null;
  if (auth.holderUserId === null) throw errors.invalidField('body.shared', 'a personal view belongs to a user: this API key has no holder user, so create a shared view');
  return auth.holderUserId;
}

export async function createView(deps: ViewDeps, auth: AuthContext, body: CreateViewBody): Promise<View> {
  const owner = ownerOf(auth, body.shared);
  return deps.store.db.transaction().execute(async (trx) => {
    await assertBelowCap(trx, auth.organizationId, { collection: 'views', max: deps.config.caps.views, setting: 'MAX_VIEWS_PER_ORG', noun: 'views', remedy: 'delete one first' }, repo.countViews);
    const now = nowIso();
    const sort = body.sort ?? DEFAULT_SORT;
    const row = {
      id: randomUUID(),
      organization_id: auth.organizationId,
      name: body.name,
      owner_user_id: owner,
      conditions: await checked(trx, auth, body.conditions),
      sort_by: sort.by,
      sort_order: sort.order,
      created_at: now,
      updated_at: now,
    };
    await repo.insertView(trx, row);
    deps.countsCache?.clear(auth.organizationId);
    return presentView(row);
  });
}

async function getRow(db: Executor, auth: AuthContext, id: string): Promise<repo.ViewRow> {
  const row = await repo.findView(db, auth.organizationId, id, auth.holderUserId);
  if (!row) throw errors.notFound('View');
  return row;
}

export async function getView(deps: ViewDeps, auth: AuthContext, id: string): Promise<View> {
  return presentView(await getRow(deps.store.db, auth, id));
}

export async function listViews(deps: ViewDeps, auth: AuthContext, page: Page): Promise<View[]> {
  return (await repo.listViews(deps.store.db, auth.organizationId, auth.holderUserId, page)).map(presentView);
}

export async function updateView(deps: ViewDeps, auth: AuthContext, id: string, body: UpdateViewBody): Promise<View> {
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await getRow(trx, auth, id);
    const changes: Updateable<ViewsTable> = { updated_at: nowIso() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.shared !== undefined && body.shared !== (current.owner_user_id === null)) changes.owner_user_id = ownerOf(auth, body.shared);
    if (body.conditions !== undefined) changes.conditions = await checked(trx, auth, body.conditions);
    if (body.sort !== undefined) [changes.sort_by, changes.sort_order] = [body.sort.by, body.sort.order];
    await repo.updateView(trx, auth.organizationId, id, changes);
    deps.countsCache?.clear(auth.organizationId);
    return presentView({ ...current, ...changes });
  });
}

export async function deleteView(deps: ViewDeps, auth: AuthContext, id: string): Promise<void> {
  await getRow(deps.store.db, auth, id);
  await repo.deleteView(deps.store.db, auth.organizationId, id);
  deps.countsCache?.clear(auth.organizationId);
}

/** The where-expression of a stored view for this caller, or null when it names "me" and the caller has no user. */
async function whereOf(db: Executor, auth: AuthContext, row: repo.ViewRow, fieldIds?: Map<string, string>, forCount = false) {
  const conditions = JSON.parse(row.conditions) as Required<Conditions>;
  if (usesMe(conditions) && auth.holderUserId === null) return null;
  const ids = fieldIds ?? new Map([...(await conditionFields(db, auth.organizationId))].map(([k, f]) => [k, f.id]));
  return compileConditions(conditions, { organizationId: auth.organizationId, me: auth.holderUserId, fieldIds: ids, now: new Date(), semiJoin: forCount });
}

/** The earliest due time the ticket's sla block shows (its `sla_next_due_at`). */
function slaNextDueAt(t: Ticket): string | null {
  const dues = [t.sla?.first_response_due_at, t.sla?.next_response_due_at, t.sla?.resolution_due_at].filter((d): d is string => typeof d === 'string');
  return dues.length === 0 ? null : dues.sort()[0]!;
}

/** A view's order for keyset paging: its sort value, then the ticket number. */
export function viewOrder(sort: View['sort']): SortKey<Ticket> {
  const of = (t: Ticket): [string | number, number] => {
    switch (sort.by) {
      case 'priority':
        return [['low', 'medium', 'high', 'urgent'].indexOf(t.priority) + 1, t.ticket_number];
      case 'due_date':
        return [t.due_date ?? repo.NO_DUE_DATE, t.ticket_number];
      case 'sla_next_due_at':
        return [slaNextDueAt(t) ?? repo.NO_DUE_DATE, t.ticket_number];
      case 'ticket_number':
        return [t.ticket_number, t.ticket_number];
      default:
        return [t[sort.by], t.ticket_number];
    }
  };
  const first = sort.by === 'priority' || sort.by === 'ticket_number' ? 'number' : 'text';
  return { columns: [sort.by, 'ticket_number'], types: [first, 'number'], direction: sort.order, of };
}

export async function viewTickets(deps: ViewDeps, auth: AuthContext, id: string, page: Page): Promise<{ tickets: Ticket[]; order: SortKey<Ticket> }> {
  const db = deps.store.db;
  const row = await getRow(db, auth, id);
  const order = viewOrder({ by: row.sort_by, order: row.sort_order });
  if (page.after && (page.after.length !== 2 || page.after.some((v, i) => typeof v !== (order.types[i] === 'text' ? 'string' : 'number')))) {
    throw errors.invalidField('query.cursor', 'is not a cursor of this view: use the one from the Link header of the previous page');
  }
  const where = await whereOf(db, auth, row);
  if (where === null) throw meWithoutUser('conditions');
  const rows = await repo.viewTickets(db, auth.organizationId, where, { by: row.sort_by, order: row.sort_order }, page);
  return { tickets: rows.map(presentTicket), order };
}

const BUSY = Symbol('busy');

/**
 * One view's count, off the event loop: through the store's read runner (search-runner.ts: a
 * SQLite worker thread, a PostgreSQL pool connection; on the main thread only for an in-memory
 * store), within VIEWS_COUNT_TIMEOUT_MS. Over it: null; the organization's counts already running
 * as many as they may: BUSY.
 */
async function countOf(deps: ViewDeps, organizationId: string, where: repo.Where): Promise<number | null | typeof BUSY> {
  const query = repo.countTicketsQuery(deps.store.db, organizationId, where).compile();
  try {
    const rows = await deps.store.searches.run(organizationId, (read) => read(query), { kind: 'views-count', timeoutMs: deps.config.viewsCountTimeoutMs });
    return Number(rows[0]!.n);
  } catch (error) {
    if (error instanceof SearchTimeoutError) return null;
    if (error instanceof SearchBusyError) return BUSY;
    throw error;
  }
}

/** Recounts running now in this process, by organization, part and the part's views. */
const recounts = new Map<string, Promise<CountsPart>>();

/** Counts one part's views; a count refused (the organization's counts busy) is `undefined`, shown as null. */
async function countPart(deps: ViewDeps, auth: AuthContext, rows: repo.ViewRow[], now: number): Promise<CountsPart> {
  const fieldIds = new Map([...(await conditionFields(deps.store.db, auth.organizationId))].map(([k, f]) => [k, f.id]));
  const views = new Map<string, CountedView>();
  for (const row of rows) {
    const where = (await whereOf(deps.store.db, auth, row, fieldIds, true))!;
    const count = await countOf(deps, auth.organizationId, where);
    views.set(row.id, { id: row.id, updatedAt: String(row.updated_at), count: count === BUSY ? undefined : count });
  }
  return { countedAt: now, views };
}

/**
 * Every view the caller sees with its count of tickets, in one answer: shared views' counts are
 * the organization's, personal views' and those naming "me" the caller's; each part comes from the
 * counts cache while fresh, else is counted now. `counted_at` is the older part's time.
 */
export async function viewCounts(deps: ViewDeps, auth: AuthContext): Promise<ViewCounts> {
  const db = deps.store.db;
  const rows = await repo.listViews(db, auth.organizationId, auth.holderUserId, { limit: deps.config.caps.views, offset: 0 });
  const parts = new Map<string, repo.ViewRow[]>();
  for (const row of rows) {
    const me = usesMe(JSON.parse(row.conditions) as Conditions);
    // A view naming "me" has no count for a caller without a user.
    if (me && auth.holderUserId === null) continue;
    const part = row.owner_user_id === null && !me ? SHARED : auth.holderUserId!;
    parts.set(part, [...(parts.get(part) ?? []), row]);
  }
  const now = Date.now();
  let countedAt = now;
  const counted = new Map<string, CountedView>();
  for (const [part, partRows] of parts) {
    const versions = partRows.map((r) => ({ id: r.id, updatedAt: String(r.updated_at) }));
    let found = deps.countsCache?.get(auth.organizationId, part, versions, now);
    if (!found) {
      // Requests wanting the same part at once (sign-ins as the counts expire) share one recount.
      const key = `${auth.organizationId}\n${part}\n${versions.map((v) => `${v.id}@${v.updatedAt}`).join(',')}`;
      let recount = recounts.get(key);
      if (!recount) {
        // Kept before its first await, so a request arriving meanwhile finds it.
        recount = countPart(deps, auth, partRows, now).finally(() => recounts.delete(key));
        recounts.set(key, recount);
      }
      found = await recount;
      // A count over its budget stays null while the part is fresh; one refused (busy) is tried again.
      if (![...found.views.values()].some((v) => v.count === undefined)) deps.countsCache?.set(auth.organizationId, part, found);
    }
    countedAt = Math.min(countedAt, found.countedAt);
    for (const [id, view] of found.views) counted.set(id, view);
  }
  return {
    counted_at: new Date(countedAt).toISOString(),
    age_seconds: Math.floor((now - countedAt) / 1000),
    views: rows.map((row) => ({ id: row.id, name: row.name, count: counted.get(row.id)?.count ?? null })),
  };
}
