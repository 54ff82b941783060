import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import type { TicketsTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import type { Delta } from './dashboard.counters.js';
import { OPEN_STATUSES } from './dashboard.schemas.js';

/*
 * Every dashboard query here reads one index range of one organization: the counters (migration
 * 0012, the resolution-time histogram of 0015) and, from tickets, only the edge hour of a time
 * window (migration 0004) and the window's tickets of one resolution-time bucket (0015);
 * dashboard.query-plan.test.ts holds both stores to that. Time windows are compared as text:
 * stored timestamps are ISO 8601 UTC with milliseconds, which sort in time order.
 */

/** A count as a driver returns it (PostgreSQL's bigint arrives as a string). */
type DbCount = number | string | bigint;

/**
 * `status in ('new', 'open', 'pending')` with the statuses as literals, not bound parameters: the
 * partial indexes of migration 0004 carry exactly this condition, and a planner only picks a
 * partial index whose condition it can prove from the query's own text.
 */
const openStatusLiterals = (): RawBuilder<TicketsTable['status']>[] => OPEN_STATUSES.map((s) => sql.lit(s));

export interface TotalRow {
  kind: string;
  a: string;
  b: string;
  n: DbCount;
}

/**
 * The organization's compacted counters that are not time buckets: status x priority, open per
 * (agent, team), open with a due date. As many rows as its agent x team pairs in use, at most.
 */
export function readTotals(db: Executor, organizationId: string): Promise<TotalRow[]> {
  return db
    .selectFrom('dashboard_totals')
    .select(['kind', 'a', 'b', 'n'])
    .where('organization_id', '=', organizationId)
    .where('kind', 'in', ['sp', 'oa', 'dt'])
    .execute();
}

/**
 * The sums of one kind's compacted hour buckets after each of three hours (`after[0]` the
 * earliest), read as one primary-key range from the earliest: at most the hours of the longest
 * window (720 for 30 days), summed by the database, never the tickets.
 */
export async function sumBucketsAfter(db: Executor, organizationId: string, kind: 'cr' | 'rs' | 'du', after: [string, string, string]): Promise<[number, number, number]> {
  const sumAfter = (hour: string) => sql<DbCount | null>`sum(case when ${sql.ref('a')} > ${hour} then ${sql.ref('n')} else 0 end)`;
  const row = await db
    .selectFrom('dashboard_totals')
    .select([sumAfter(after[0]).as('s0'), sumAfter(after[1]).as('s1'), sumAfter(after[2]).as('s2')])
    .where('organization_id', '=', organizationId)
    .where('kind', '=', kind)
    .where('a', '>', after[0])
    .executeTakeFirstOrThrow();
  return [Number(row.s0 ?? 0), Number(row.s1 ?? 0), Number(row.s2 ?? 0)];
}

/** The organization's deltas not compacted yet (a few seconds' worth of its ticket changes). */
export function readDeltas(db: Executor, organizationId: string): Promise<Delta[]> {
  return db
    .selectFrom('dashboard_deltas')
    .select(['status', 'priority', 'assigned_user_id', 'assigned_team_id', 'created_at', 'due_date', 'resolved_at', 'n'])
    .where('organization_id', '=', organizationId)
    .execute();
}

/** Tickets created in [from, to): the edge hour of a window, read from tickets_org_created_idx. */
export async function countCreatedBetween(db: Executor, organizationId: string, from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<DbCount>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Tickets resolved in [from, to): the edge hour of a window, from tickets_org_resolved_idx. */
export async function countResolvedBetween(db: Executor, organizationId: string, from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<DbCount>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('resolved_at', '>=', from)
    .where('resolved_at', '<', to)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Open tickets due in [from, to): the current hour of the overdue figure, a range of tickets_org_status_due_idx per open status (or tickets_open_org_due_idx). */
export async function countOpenDueBetween(db: Executor, organizationId: string, from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<DbCount>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('status', 'in', openStatusLiterals())
    .where('due_date', '>=', from)
    .where('due_date', '<', to)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Takes (deletes and returns) at most `limit` of the oldest deltas, of any organization. One
 * statement: exactly the rows returned are gone, even with writers committing meanwhile.
 */
export function takeDeltas(db: Executor, limit: number): Promise<(Delta & { organization_id: string })[]> {
  return db
    .deleteFrom('dashboard_deltas')
    .where('id', 'in', (eb) => eb.selectFrom('dashboard_deltas').select('id').orderBy('id').limit(limit))
    .returning(['organization_id', 'status', 'priority', 'assigned_user_id', 'assigned_team_id', 'created_at', 'due_date', 'resolved_at', 'n'])
    .execute();
}

/** Adds `n` to each counter (creating it). The caller passes the rows in key order (no deadlocks). */
export async function addToTotals(db: Executor, rows: { organization_id: string; kind: string; a: string; b: string; n: number }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('dashboard_totals')
      .values(rows.slice(i, i + 500))
      .onConflict((oc) => oc.columns(['organization_id', 'kind', 'a', 'b']).doUpdateSet((eb) => ({ n: eb('dashboard_totals.n', '+', eb.ref('excluded.n')) })))
      .execute();
  }
}

/** Drops the counters of these organizations that came back to zero. */
export async function deleteZeroTotals(db: Executor, organizationIds: string[]): Promise<void> {
  for (let i = 0; i < organizationIds.length; i += 500) {
    await db.deleteFrom('dashboard_totals').where('organization_id', 'in', organizationIds.slice(i, i + 500)).where('n', '=', 0).execute();
  }
}

/** Drops hour buckets older than the horizons (no dashboard reads them again). */
export async function pruneTotals(db: Executor, before: { cr: string; rs: string; du: string; day: string }): Promise<void> {
  for (const kind of ['cr', 'rs', 'du'] as const) {
    await db.deleteFrom('dashboard_totals').where('kind', '=', kind).where('a', '<', before[kind]).execute();
  }
  // The resolution-time histogram (dashboard.counters.ts): its time bucket sits in a different place per kind.
  await db.deleteFrom('dashboard_totals').where('kind', 'in', ['md', 'fd']).where('b', '<', before.day).execute();
  await db.deleteFrom('dashboard_totals').where('kind', '=', 'mh').where('a', '<', before.rs).execute();
  await db.deleteFrom('dashboard_totals').where('kind', '=', 'fh').where(sql<string>`substr(${sql.ref('a')}, 5)`, '<', before.rs).execute();
}

/** Only one compaction at a time across processes (PostgreSQL); false if another one holds it. */
export async function tryCompactionLock(db: Executor, dialect: DialectName): Promise<boolean> {
  if (dialect === 'sqlite') return true; // the write transaction already excludes every other writer
  const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${COMPACTION_LOCK}) as locked`.execute(db);
  return rows[0]?.locked === true;
}
/** An arbitrary constant naming the dashboard compaction's advisory lock. */
const COMPACTION_LOCK = 7_011_011;

/*
 * The median's queries are written as SQL text: each runs on every dashboard, and building them
 * with the query builder cost several times what SQLite takes to answer them.
 */

/** Tickets resolved in [from, to): the edge hour of the 30-day window, from tickets_org_resolved_idx. */
export async function resolvedBetween(db: Executor, organizationId: string, from: string, to: string): Promise<{ created_at: string; resolved_at: string }[]> {
  const { rows } = await sql<{ created_at: string; resolved_at: string }>`select created_at, resolved_at from tickets
    where organization_id = ${organizationId} and resolved_at >= ${from} and resolved_at < ${to}`.execute(db);
  return rows;
}

export interface BucketCount {
  key: string;
  n: DbCount;
}

/**
 * The resolution-time histogram's coarse buckets (dashboard.counters.ts) in a window's whole days
 * after `day` and hours after `hour` up to `hoursEnd`: two primary-key ranges, at most (days +
 * hours) x coarse buckets rows, however many tickets were resolved.
 */
export async function coarseCounts(db: Executor, organizationId: string, day: string, hour: string, hoursEnd: string): Promise<BucketCount[]> {
  const { rows } = await sql<BucketCount>`select a as key, sum(n) as n from dashboard_totals
      where organization_id = ${organizationId} and kind = 'md' and b > ${day} group by a
    union all select b as key, sum(n) as n from dashboard_totals
      where organization_id = ${organizationId} and kind = 'mh' and a > ${hour} and a < ${hoursEnd} group by b`.execute(db);
  return rows;
}

/** The fine buckets of one coarse bucket, in the same days and hours: two primary-key ranges. */
export async function fineCounts(db: Executor, organizationId: string, coarse: string, day: string, hour: string, hoursEnd: string): Promise<BucketCount[]> {
  const { rows } = await sql<BucketCount>`select substr(a, 5) as key, sum(n) as n from dashboard_totals
      where organization_id = ${organizationId} and kind = 'fd' and a > ${`${coarse} `} and a < ${`${coarse}!`} and b > ${day} group by a
    union all select b as key, sum(n) as n from dashboard_totals
      where organization_id = ${organizationId} and kind = 'fh' and a > ${`${coarse} ${hour}`} and a < ${`${coarse} ${hoursEnd}`} group by b`.execute(db);
  return rows;
}

/**
 * The resolution times (ms) in [lo, hi) of the tickets resolved since `since`, read from
 * tickets_org_resolved_day_ms_idx one day at a time (`days`: the window's days up to today) plus
 * any later day (a resolved_at in the future): only the window's tickets of one fine bucket. The
 * window's first day is read whole and cut at `since` here: a bound on resolved_at in the query
 * would tempt the planner into tickets_org_resolved_idx, the whole window.
 */
export async function resolutionMsBetween(
  db: Executor,
  dialect: DialectName,
  organizationId: string,
  since: string,
  days: string[],
  lo: number,
  hi: number,
): Promise<number[]> {
  const { rows } = await db.executeQuery<{ ms: number | string; resolved_at: string }>(
    CompiledQuery.raw(bucketQuery(dialect, days.length), [organizationId, lo, hi, ...days, organizationId, lo, hi, days[days.length - 1]!]),
  );
  return rows.filter((r) => r.resolved_at >= since).map((r) => Number(r.ms));
}

/**
 * `resolved_at - created_at` in ms, exactly as tickets_org_resolved_day_ms_idx (migration 0015)
 * holds it, so the index answers: SQLite counts in Julian days, PostgreSQL's ticket_resolution_ms
 * subtracts timestamptz.
 */
const RESOLUTION_MS = {
  sqlite: 'cast(round((julianday(resolved_at) - julianday(created_at)) * 86400000.0) as integer)',
  postgres: 'ticket_resolution_ms(created_at, resolved_at)',
};

/**
 * The resolution times (ms) of the tickets resolved since `since`, in ascending order, from
 * position `offset`, at most `limit`: the window sorted whole. Only the median's fallback when
 * its histogram disagrees with the tickets (dashboard.median.ts, HistogramMismatch), which no
 * test or known path produces: the dashboard answers right, if slower, and the log says why.
 */
export async function resolutionMsSorted(db: Executor, dialect: DialectName, organizationId: string, since: string, offset: number, limit: number): Promise<number[]> {
  const { rows } = await sql<{ ms: number | string }>`select ${sql.raw(RESOLUTION_MS[dialect])} as ms from tickets
    where organization_id = ${organizationId} and resolved_at >= ${since} order by ms limit ${limit} offset ${offset}`.execute(db);
  return rows.map((r) => Number(r.ms));
}

const bucketQueries = new Map<string, string>();

/**
 * The text of resolutionMsBetween's query for `days` days (built once: it is long). SQLite's
 * planner, with statistics, preferred tickets_org_resolved_idx (the whole window, or for
 * `resolved_at is not null` every resolved ticket): the bucket's index is named.
 */
function bucketQuery(dialect: DialectName, days: number): string {
  const key = `${dialect} ${days}`;
  let text = bucketQueries.get(key);
  if (text) return text;
  let n = 0;
  const p = () => (dialect === 'sqlite' ? '?' : `$${++n}`);
  const ms = RESOLUTION_MS[dialect];
  const from = dialect === 'sqlite' ? 'tickets indexed by tickets_org_resolved_day_ms_idx' : 'tickets';
  const select = (day: () => string) =>
    `select ${ms} as ms, resolved_at from ${from} where organization_id = ${p()} and resolved_at is not null and ${ms} >= ${p()} and ${ms} < ${p()} and ${day()}`;
  text = `${select(() => `substr(resolved_at, 1, 10) in (${Array.from({ length: days }, p).join(', ')})`)} union all ${select(() => `substr(resolved_at, 1, 10) > ${p()}`)}`;
  bucketQueries.set(key, text);
  return text;
}

export function listTeamNames(db: Executor, organizationId: string): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('teams').select(['id', 'name']).where('organization_id', '=', organizationId).execute();
}

export function listAgentNames(db: Executor, organizationId: string): Promise<{ id: string; full_name: string; is_active: number | boolean }[]> {
  return db.selectFrom('users').select(['id', 'full_name', 'is_active']).where('organization_id', '=', organizationId).execute();
}
