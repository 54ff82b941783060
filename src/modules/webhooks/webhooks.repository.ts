import { sql, type Insertable, type Updateable } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { WebhookDeliveriesTable, WebhookDeliveryRow, WebhookEndpointRow, WebhookEndpointsTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type SortKey, type Page } from '../../shared/pagination.js';

// ---------------------------------------------------------------------------------------------
// Endpoints

export async function insertEndpoint(db: Executor, row: Insertable<WebhookEndpointsTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

/** The endpoint; with `lock`, locked until the transaction ends (see forUpdate). */
export function findEndpoint(db: Executor, organizationId: string, id: string, lock = false): Promise<WebhookEndpointRow | undefined> {
  const query = db.selectFrom('webhook_endpoints').selectAll().where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

/** One page of the organization's endpoints, oldest first. */
export function listEndpoints(db: Executor, organizationId: string, page: Page): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .$call(paged(page, CREATED_ASC))
    .execute();
}

export async function countEndpoints(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateEndpoint(db: Executor, organizationId: string, id: string, changes: Updateable<WebhookEndpointsTable>): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Deletes the endpoint; its deliveries go with it (the foreign key cascades). */
export async function deleteEndpoint(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

// ---------------------------------------------------------------------------------------------
// The delivery log

/** An endpoint's deliveries, newest event first: one per event. */
export const DELIVERY_ORDER: SortKey<{ event_cursor: string }> = {
  columns: ['event_position'],
  types: ['number'],
  direction: 'desc',
  of: (delivery) => [Number(delivery.event_cursor)],
};

/** One page of an endpoint's deliveries, newest event first. */
export function listDeliveries(
  db: Executor,
  organizationId: string,
  endpointId: string,
  status: WebhookDeliveryRow['status'] | undefined,
  page: Page,
): Promise<WebhookDeliveryRow[]> {
  let query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('endpoint_id', '=', endpointId);
  if (status) query = query.where('status', '=', status);
  return query.$call(paged(page, DELIVERY_ORDER)).execute();
}

export function findDelivery(db: Executor, organizationId: string, endpointId: string, id: string, lock = false): Promise<WebhookDeliveryRow | undefined> {
  const query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

export async function updateDelivery(db: Executor, id: string, changes: Updateable<WebhookDeliveriesTable>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute();
}

/** Makes the endpoint due at `at` at the latest (a delivery was queued again by hand). */
export async function dueBy(db: Executor, organizationId: string, endpointId: string, at: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ next_attempt_at: at })
    .where('organization_id', '=', organizationId)
    .where('id', '=', endpointId)
    .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '>', at)]))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The delivery worker

/**
 * Leases up to `limit` endpoints that have work — a pending delivery that is due, or, with none
 * pending, events after their cursor — to `owner` until `until`, least recently worked first, and
 * returns them. On PostgreSQL several processes claim at once: `skip locked` lets each take
 * different endpoints without waiting, and the lease keeps an endpoint with one process (so its
 * deliveries stay in order) until it is released or the process dies and the lease runs out.
 */
export async function claimEndpoints(
  db: Executor,
  claim: { owner: string; now: string; until: string; limit: number },
): Promise<WebhookEndpointRow[]> {
  const skipLocked = dialectOf(db) === 'postgres' ? sql`for update of w skip locked` : sql``;
  const { rows } = await sql<WebhookEndpointRow>`update webhook_endpoints
    set lease_owner = ${claim.owner}, lease_expires_at = ${claim.until}
    where id in (
      select w.id from webhook_endpoints w
      left join event_counters c on c.organization_id = w.organization_id
      where w.status = 'active'
        and (w.lease_expires_at is null or w.lease_expires_at <= ${claim.now})
        and (w.next_attempt_at <= ${claim.now} or (w.next_attempt_at is null and w.cursor_position < coalesce(c.position, 0)))
      order by w.lease_expires_at is not null, w.lease_expires_at
      limit ${claim.limit}
      ${skipLocked}
    )
    returning *`.execute(db);
  return rows;
}

/** Extends the lease and reads the endpoint afresh; undefined when it is gone or no longer leased to `owner`. */
export function renewLease(db: Executor, id: string, owner: string, until: string): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ lease_expires_at: until })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .returningAll()
    .executeTakeFirst();
}

/** The endpoint's row, locked until the transaction ends (see forUpdate), to give its lease up. */
export function lockEndpoint(db: Executor, id: string): Promise<Pick<WebhookEndpointRow, 'organization_id' | 'lease_owner'> | undefined> {
  return forUpdate(db, db.selectFrom('webhook_endpoints').select(['organization_id', 'lease_owner']).where('id', '=', id)).executeTakeFirst();
}

/** When the endpoint's earliest pending delivery is due; null when none is pending. */
export async function earliestPendingDue(db: Executor, organizationId: string, endpointId: string): Promise<string | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.min<string | null>(sql.ref('next_attempt_at')).as('due'))
    .where('organization_id', '=', organizationId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.due ?? null;
}

/** Ends the lease; the endpoint is due again at `due` (or, when null, when new events arrive). */
export async function endLease(db: Executor, id: string, now: string, due: string | null): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ lease_owner: null, lease_expires_at: now, next_attempt_at: due }).where('id', '=', id).execute();
}

/** The endpoint's next delivery: its oldest pending one (by event). */
export function oldestPending(db: Executor, organizationId: string, endpointId: string): Promise<WebhookDeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .orderBy('event_position', 'asc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Pending deliveries of every organization and the creation time of the oldest (the metrics'
 * backlog, read on each scrape): the partial index of pending deliveries keeps it cheap.
 */
export async function pendingBacklog(db: Executor): Promise<{ pending: number; oldest: string | null }> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min<string | null>('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return { pending: Number(row?.pending ?? 0), oldest: row?.oldest ?? null };
}

/** Moves the endpoint's cursor past events it does not subscribe to. */
export async function advanceCursor(db: Executor, id: string, position: number): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ cursor_position: position }).where('id', '=', id).where('cursor_position', '<', position).execute();
}

/** Queues deliveries of events to an endpoint (each once: an event handed over twice is ignored). */
export async function insertDeliveries(db: Executor, rows: Array<Insertable<WebhookDeliveriesTable>>): Promise<void> {
  await db
    .insertInto('webhook_deliveries')
    .values(rows)
    .onConflict((oc) => oc.columns(['organization_id', 'endpoint_id', 'event_position']).doNothing())
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Retention: events a webhook still needs are kept.

/** The lowest event position an active endpoint of the organization still needs, if any. */
export async function oldestPositionNeeded(db: Executor, organizationId: string): Promise<number | null> {
  const pending = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', (join) => join.onRef('w.organization_id', '=', 'd.organization_id').onRef('w.id', '=', 'd.endpoint_id'))
    .select((eb) => eb.fn.min('d.event_position').as('position'))
    .where('d.organization_id', '=', organizationId)
    .where('d.status', '=', 'pending')
    .where('w.status', '=', 'active')
    .executeTakeFirst();
  const cursor = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.min('cursor_position').as('position'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  const needed = [pending?.position, cursor?.position === null || cursor?.position === undefined ? null : Number(cursor.position) + 1]
    .filter((p): p is number => p !== null && p !== undefined)
    .map(Number);
  return needed.length > 0 ? Math.min(...needed) : null;
}
