import { sql, type Insertable, type RawBuilder } from 'kysely';
import { dialectOf, type DialectName } from '../../db/dialect.js';
import type { EventRow, EventsTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { paged, type SortKey, type Page } from '../../shared/pagination.js';

/** What every event of one transaction shares: the organization, the actor and the moment. */
export interface EventStamp {
  organizationId: string;
  actorType: EventsTable['actor_type'];
  actorId: string | null;
  actorUserId: string | null;
  occurredAt: string;
}

export type UnpositionedEventRow = Omit<Insertable<EventsTable>, 'seq' | 'position'> & { occurred_at: string };
export type NewEventRow = UnpositionedEventRow & { position: number };

const COLUMNS = [
  'id', 'position', 'type', 'occurred_at', 'actor_type', 'actor_id', 'actor_user_id', 'resource_type', 'resource_id', 'ticket_id',
  'data',
] as const;

export type EventColumns = Pick<EventRow, (typeof COLUMNS)[number]>;

// ---------------------------------------------------------------------------------------------
// Writing: positions are taken last, just before the commit (see EventLog in events.log.ts).

/**
 * Takes `count` positions of the organization's feed and returns the last one. The counter row is
 * locked from here until the commit: a transaction that takes positions later commits later, so
 * positions follow commit order and have no gaps (a rollback gives its positions back). Run it as
 * the last thing before the commit, when nothing else can make the transaction wait, so the lock is
 * held for as little as one statement and never becomes part of a deadlock.
 */
export async function takeEventPositions(trx: Executor, organizationId: string, count: number): Promise<number> {
  const row = await trx
    .insertInto('event_counters')
    .values({ organization_id: organizationId, position: count })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet((eb) => ({ position: eb('event_counters.position', '+', eb.ref('excluded.position')) })),
    )
    .returning('position')
    .executeTakeFirstOrThrow();
  return Number(row.position);
}

/**
 * Takes positions for `rows` (see takeEventPositions) and inserts them with those positions, in
 * order. On PostgreSQL that is one statement — the counter's update and the insert in one round
 * trip, the rows passed as one array parameter per column — so the counter's lock is held for no more than
 * that statement and the commit. SQLite runs in-process, where a second statement costs no trip.
 */
export async function appendEvents(trx: Executor, organizationId: string, rows: UnpositionedEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (dialectOf(trx) === 'sqlite') {
    const base = (await takeEventPositions(trx, organizationId, rows.length)) - rows.length;
    await insertEvents(trx, rows.map((row, i) => ({ ...row, position: base + i + 1 })));
    return;
  }
  // One array per column (arrays of text, not JSON: a JSON parameter would refuse text that a text
  // column takes), unnested side by side, numbered in order.
  const column = (name: keyof UnpositionedEventRow) => sql`cast(${rows.map((row) => row[name] ?? null)} as text[])`;
  await sql`with taken as (
      insert into event_counters (organization_id, position) values (${organizationId}, ${rows.length})
      on conflict (organization_id) do update set position = event_counters.position + excluded.position
      returning position
    )
    insert into events (id, organization_id, position, type, occurred_at, actor_type, actor_id, actor_user_id, resource_type, resource_id, ticket_id, data)
    select r.id, ${organizationId}, taken.position - ${rows.length} + r.k, r.type, r.occurred_at, r.actor_type, r.actor_id,
      r.actor_user_id, r.resource_type, r.resource_id, r.ticket_id, r.data
    from taken, unnest(${column('id')}, ${column('type')}, ${column('occurred_at')}, ${column('actor_type')}, ${column('actor_id')},
      ${column('actor_user_id')}, ${column('resource_type')}, ${column('resource_id')}, ${column('ticket_id')}, ${column('data')})
      with ordinality as r(id, type, occurred_at, actor_type, actor_id, actor_user_id, resource_type, resource_id, ticket_id, data, k)
    order by r.k`.execute(trx);
}

/** Rows per insert: 12 parameters each stays far below SQLite's and PostgreSQL's limits. */
const INSERT_BATCH = 500;

export async function insertEvents(trx: Executor, rows: NewEventRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await trx.insertInto('events').values(rows.slice(i, i + INSERT_BATCH)).execute();
  }
}

/**
 * Gives the events this transaction wrote by set-based SQL (still without a position) the
 * positions after `base`, in the order they were written. Other transactions' rows without a
 * position are not theirs to see (uncommitted), so only this transaction's are numbered.
 */
export async function positionWrittenEvents(trx: Executor, organizationId: string, base: number): Promise<void> {
  await sql`update events set position = numbered.position
    from (select seq, ${base} + row_number() over (order by seq) as position
          from events where organization_id = ${organizationId} and position is null) as numbered
    where events.seq = numbered.seq`.execute(trx);
}

/** `json_object(...)` of SQLite, `json_build_object(...)` of PostgreSQL: keys and values alternate. */
function jsonObject(dialect: DialectName, entries: Array<[string, RawBuilder<unknown>]>): RawBuilder<unknown> {
  const fn = sql.raw(dialect === 'postgres' ? 'json_build_object' : 'json_object');
  return sql`${fn}(${sql.join(entries.flatMap(([key, value]) => [sql.lit(key), value]))})`;
}

const text = (value: string | null): RawBuilder<unknown> => (value === null ? sql`null` : sql`cast(${value} as text)`);
const col = (name: string): RawBuilder<unknown> => sql.ref(name);

/** Inserts one event per row that `from` selects; `object`, `changes` and the resource come from the row. */
async function insertSelected(
  trx: Executor,
  stamp: EventStamp,
  type: string,
  resource: { type: string; id: RawBuilder<unknown>; ticketId: RawBuilder<unknown> },
  object: RawBuilder<unknown>,
  changes: RawBuilder<unknown>,
  from: RawBuilder<unknown>,
): Promise<number> {
  const dialect = dialectOf(trx);
  const data = jsonObject(dialect, [
    ['object', object],
    ['changes', changes],
  ]);
  const result = await sql`insert into events
      (id, organization_id, position, type, occurred_at, actor_type, actor_id, actor_user_id, resource_type, resource_id, ticket_id, data)
    select cast(gen_random_uuid() as text), ${text(stamp.organizationId)}, null, ${text(type)}, ${text(stamp.occurredAt)},
      ${text(stamp.actorType)}, ${text(stamp.actorId)}, ${text(stamp.actorUserId)}, ${text(resource.type)}, ${resource.id},
      ${resource.ticketId}, cast(${data} as text)
    ${from}`.execute(trx);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * The ticket as the API shows it (presentTicket), in SQL, with some columns replaced; without its
 * tracking_token, which no event carries (events.visibility.ts).
 */
function ticketObject(dialect: DialectName, replaced: Record<string, RawBuilder<unknown>>): RawBuilder<unknown> {
  const c = (name: string) => replaced[name] ?? col(`t.${name}`);
  return jsonObject(dialect, [
    ['id', c('id')],
    ['ticket_number', c('ticket_number')],
    ['ticket_display_id', sql`'TKT-' || t.ticket_number`],
    ['customer_id', c('customer_id')],
    ['subject', c('subject')],
    ['description', c('description')],
    ['status', c('status')],
    ['priority', c('priority')],
    ['category', c('category')],
    ['assigned_user_id', c('assigned_user_id')],
    ['assigned_team_id', c('assigned_team_id')],
    ['due_date', c('due_date')],
    ['created_at', c('created_at')],
    ['updated_at', c('updated_at')],
    ['resolved_at', c('resolved_at')],
    ['closed_at', c('closed_at')],
    ['tags', dialect === 'postgres' ? sql`cast(t.tags as json)` : sql`json(t.tags)`],
    ['custom_fields', replaced.custom_fields ?? (dialect === 'postgres' ? sql`cast(t.custom_fields as json)` : sql`json(t.custom_fields)`)],
    ['channel', c('channel')],
    // Stored as JSON text: embedded as JSON, not as a string.
    ['email', dialect === 'postgres' ? sql`cast(t.email as json)` : sql`json(t.email)`],
    ['sla', slaBlock(dialect)],
  ]);
}

/** The ticket's `sla` block from its stored clocks, as presentSla (src/modules/sla/sla.clock.ts) makes it: a stopped clock's due_at is null. */
function slaBlock(dialect: DialectName): RawBuilder<unknown> {
  const at = (path: string[]) =>
    dialect === 'postgres' ? sql.raw(`(cast(t.sla as json))${path.map((p) => `->'${p}'`).join('')}`) : sql.raw(`json_extract(t.sla, '$.${path.join('.')}')`);
  const block = jsonObject(dialect, [
    ['policy_id', at(['policy_id'])],
    ['first_response_due_at', at(['clocks', 'first_response', 'due_at'])],
    ['next_response_due_at', at(['clocks', 'next_response', 'due_at'])],
    ['resolution_due_at', at(['clocks', 'resolution', 'due_at'])],
    ['paused', dialect === 'postgres' ? at(['paused']) : sql`json(case when json_extract(t.sla, '$.paused') then 'true' else 'false' end)`],
    ['breaches', dialect === 'postgres' ? at(['breaches']) : sql`json(json_extract(t.sla, '$.breaches'))`],
  ]);
  return sql`case when t.sla is null then null else ${block} end`;
}

/**
 * `ticket.updated` for every ticket of the organization whose `column` is `id`, as it is once
 * `column` is cleared and `updated_at` moves to the stamp's time (a user or team deleted). Run it
 * before the update it describes: afterwards the tickets can no longer be found by `id`.
 */
export function insertTicketsUnassignedEvents(
  trx: Executor,
  stamp: EventStamp,
  column: 'assigned_user_id' | 'assigned_team_id',
  id: string,
): Promise<number> {
  const dialect = dialectOf(trx);
  const object = ticketObject(dialect, { [column]: sql`null`, updated_at: text(stamp.occurredAt) });
  const changes = jsonObject(dialect, [[column, jsonObject(dialect, [['old', col(`t.${column}`)], ['new', sql`null`]])]]);
  return insertSelected(
    trx,
    stamp,
    'ticket.updated',
    { type: 'ticket', id: col('t.id'), ticketId: col('t.id') },
    object,
    changes,
    sql`from tickets t where t.organization_id = ${stamp.organizationId} and ${sql.ref(`t.${column}`)} = ${id} order by t.ticket_number`,
  );
}

/** `ticket.deleted` for every ticket of a customer, as they are: run it before the customer is deleted. */
export function insertCustomerTicketsDeletedEvents(trx: Executor, stamp: EventStamp, customerId: string): Promise<number> {
  const dialect = dialectOf(trx);
  return insertSelected(
    trx,
    stamp,
    'ticket.deleted',
    { type: 'ticket', id: col('t.id'), ticketId: col('t.id') },
    ticketObject(dialect, {}),
    sql`null`,
    sql`from tickets t where t.organization_id = ${stamp.organizationId} and t.customer_id = ${customerId} order by t.ticket_number`,
  );
}

/** `team.member_removed` for every team a user belongs to: run it before the memberships go. */
export function insertUserMembershipsRemovedEvents(trx: Executor, stamp: EventStamp, userId: string): Promise<number> {
  const dialect = dialectOf(trx);
  return insertSelected(
    trx,
    stamp,
    'team.member_removed',
    { type: 'team', id: col('m.team_id'), ticketId: sql`null` },
    jsonObject(dialect, [
      ['team_id', col('m.team_id')],
      ['user_id', col('m.user_id')],
    ]),
    sql`null`,
    sql`from team_members m where m.organization_id = ${stamp.organizationId} and m.user_id = ${userId} order by m.created_at, m.team_id`,
  );
}

/**
 * `api_key.revoked` for every live key a user holds, as it is once revoked at the stamp's time and
 * its holder cleared (the user is being deleted): run it before the keys are revoked.
 */
export function insertHeldKeysRevokedEvents(trx: Executor, stamp: EventStamp, userId: string): Promise<number> {
  const dialect = dialectOf(trx);
  const scopes = dialect === 'postgres' ? sql`cast(k.scopes as json)` : sql`json(k.scopes)`;
  const object = jsonObject(dialect, [
    ['id', col('k.id')],
    ['name', col('k.name')],
    ['key_prefix', col('k.key_prefix')],
    ['role', col('k.role')],
    ['scopes', scopes],
    ['holder_user_id', sql`null`],
    ['created_at', col('k.created_at')],
    ['expires_at', col('k.expires_at')],
    ['last_used_at', col('k.last_used_at')],
    ['revoked_at', text(stamp.occurredAt)],
  ]);
  const changes = jsonObject(dialect, [
    ['holder_user_id', jsonObject(dialect, [['old', col('k.holder_user_id')], ['new', sql`null`]])],
    ['revoked_at', jsonObject(dialect, [['old', sql`null`], ['new', text(stamp.occurredAt)]])],
  ]);
  return insertSelected(
    trx,
    stamp,
    'api_key.revoked',
    { type: 'api_key', id: col('k.id'), ticketId: sql`null` },
    object,
    changes,
    sql`from api_keys k where k.organization_id = ${stamp.organizationId} and k.holder_user_id = ${userId}
      and k.revoked_at is null order by k.created_at, k.id`,
  );
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The last position handed out in the organization's feed (0 before its first event). */
export async function feedHead(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('event_counters').select('position').where('organization_id', '=', organizationId).executeTakeFirst();
  return row ? Number(row.position) : 0;
}

/** The oldest position still kept (older events were pruned), or null when none is kept. */
export async function oldestRetainedPosition(db: Executor, organizationId: string): Promise<number | null> {
  const row = await db
    .selectFrom('events')
    .select('position')
    .where('organization_id', '=', organizationId)
    .where('position', 'is not', null)
    .orderBy('position', 'asc')
    .limit(1)
    .executeTakeFirst();
  return row?.position === null || row === undefined ? null : Number(row.position);
}

/**
 * Up to `limit` events after `after`, in position (commit) order, of the given resource types and
 * of the given event types if any. The position index is walked in order; the types only filter.
 */
export function eventsAfter(
  db: Executor,
  organizationId: string,
  after: number,
  filter: { resourceTypes: readonly string[]; types: readonly string[] | undefined },
  limit: number,
): Promise<EventColumns[]> {
  let query = db
    .selectFrom('events')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('position', '>', after)
    .where('resource_type', 'in', filter.resourceTypes);
  if (filter.types) query = query.where('type', 'in', filter.types);
  return query.orderBy('position', 'asc').limit(limit).execute();
}

/** The id, position, type and resource type of up to `limit` events after `after`: enough to pick what an endpoint subscribes to. */
export function eventTypesAfter(
  db: Executor,
  organizationId: string,
  after: number,
  limit: number,
): Promise<Array<{ id: string; position: number | null; type: string; resource_type: string }>> {
  return db
    .selectFrom('events')
    .select(['id', 'position', 'type', 'resource_type'])
    .where('organization_id', '=', organizationId)
    .where('position', '>', after)
    .orderBy('position', 'asc')
    .limit(limit)
    .execute();
}

/** A ticket's history in commit order: an event's position is unique in its organization. */
export const HISTORY_ORDER: SortKey<{ cursor: string }> = {
  columns: ['position'],
  types: ['number'],
  direction: 'asc',
  of: (event) => [Number(event.cursor)],
};

/** One page of a ticket's history, oldest first, limited to some resource types and event types. */
export function ticketEvents(
  db: Executor,
  organizationId: string,
  ticketId: string,
  filter: { resourceTypes: readonly string[]; types: readonly string[] | undefined },
  page: Page,
): Promise<EventColumns[]> {
  let query = db
    .selectFrom('events')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('position', 'is not', null)
    .where('resource_type', 'in', filter.resourceTypes);
  if (filter.types) query = query.where('type', 'in', filter.types);
  return query.$call(paged(page, HISTORY_ORDER)).execute();
}

/** The event at a position of the organization's feed (webhook deliveries name events by it). */
export function eventAt(db: Executor, organizationId: string, position: number): Promise<EventColumns | undefined> {
  return db.selectFrom('events').select(COLUMNS).where('organization_id', '=', organizationId).where('position', '=', position).executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// Retention

/** Every organization with events, for the retention sweep. */
export async function organizationsWithEvents(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('event_counters').select('organization_id').orderBy('organization_id').execute();
  return rows.map((r) => r.organization_id);
}

/** The oldest `limit` events of the organization: position and time, to find how far to prune. */
export function oldestEvents(db: Executor, organizationId: string, limit: number): Promise<Array<{ position: number | null; occurred_at: string | Date }>> {
  return db
    .selectFrom('events')
    .select(['position', 'occurred_at'])
    .where('organization_id', '=', organizationId)
    .where('position', 'is not', null)
    .orderBy('position', 'asc')
    .limit(limit)
    .execute();
}

/** Deletes the organization's events up to a position (their webhook deliveries go with them). */
export async function deleteEventsThrough(db: Executor, organizationId: string, position: number): Promise<number> {
  const result = await db
    .deleteFrom('events')
    .where('organization_id', '=', organizationId)
    .where('position', '<=', position)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
