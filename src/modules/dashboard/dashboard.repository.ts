import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import type { TicketsTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { OPEN_STATUSES } from './dashboard.schemas.js';

/*
 * Every query here is an aggregate over one index range of one organization (migration 0004);
 * dashboard.query-plan.test.ts holds SQLite to that. Time windows are compared as text: stored
 * timestamps are ISO 8601 UTC with milliseconds, which sort in time order.
 */

/** A count as a driver returns it (PostgreSQL's bigint arrives as a string). */
type DbCount = number | string | bigint;

/**
 * `status in ('new', 'open', 'pending')` with the statuses as literals, not bound parameters: the
 * partial indexes of migration 0004 carry exactly this condition, and a planner only picks a
 * partial index whose condition it can prove from the query's own text.
 */
const openStatusLiterals = (): RawBuilder<TicketsTable['status']>[] => OPEN_STATUSES.map((s) => sql.lit(s));

export interface StatusPriorityCount {
  status: TicketsTable['status'];
  priority: TicketsTable['priority'];
  count: DbCount;
}

/** Tickets per (status, priority) pair; pairs with no ticket are absent. */
export function countByStatusAndPriority(db: Executor, organizationId: string): Promise<StatusPriorityCount[]> {
  return db
    .selectFrom('tickets')
    .select((eb) => ['status', 'priority', eb.fn.countAll<DbCount>().as('count')])
    .where('organization_id', '=', organizationId)
    .groupBy(['status', 'priority'])
    .execute();
}

export interface AssigneeCount {
  assigned_user_id: string | null;
  assigned_team_id: string | null;
  count: DbCount;
}

/**
 * Open tickets per (agent, team) pair actually present, in one pass over the open tickets; a null
 * id is "no agent" or "no team". At most one row per open ticket, in practice a few per agent.
 */
export function countOpenByAssignee(db: Executor, organizationId: string): Promise<AssigneeCount[]> {
  return db
    .selectFrom('tickets')
    .select((eb) => ['assigned_user_id', 'assigned_team_id', eb.fn.countAll<DbCount>().as('count')])
    .where('organization_id', '=', organizationId)
    .where('status', 'in', openStatusLiterals())
    .groupBy(['assigned_user_id', 'assigned_team_id'])
    .execute();
}

/** Open tickets whose due date is before `now`. */
export async function countOverdue(db: Executor, organizationId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => eb.fn.countAll<DbCount>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('status', 'in', openStatusLiterals())
    .where('due_date', '<', now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface WindowCounts {
  last_24_hours: number;
  last_7_days: number;
}

/** Tickets created since each of the two instants (`since24h` is the later one). */
export async function countCreatedSince(db: Executor, organizationId: string, since24h: string, since7d: string): Promise<WindowCounts> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => [
      eb.fn.countAll<DbCount>().filterWhere('created_at', '>=', since24h).as('last_24_hours'),
      eb.fn.countAll<DbCount>().as('last_7_days'),
    ])
    .where('organization_id', '=', organizationId)
    .where('created_at', '>=', since7d)
    .executeTakeFirstOrThrow();
  return { last_24_hours: Number(row.last_24_hours), last_7_days: Number(row.last_7_days) };
}

/** Tickets whose resolved_at is at or after each of three instants, latest first. */
export async function countResolvedSince(
  db: Executor,
  organizationId: string,
  since: { since24h: string; since7d: string; since30d: string },
): Promise<WindowCounts & { last_30_days: number }> {
  const row = await db
    .selectFrom('tickets')
    .select((eb) => [
      eb.fn.countAll<DbCount>().filterWhere('resolved_at', '>=', since.since24h).as('last_24_hours'),
      eb.fn.countAll<DbCount>().filterWhere('resolved_at', '>=', since.since7d).as('last_7_days'),
      eb.fn.countAll<DbCount>().as('last_30_days'),
    ])
    .where('organization_id', '=', organizationId)
    .where('resolved_at', '>=', since.since30d)
    .executeTakeFirstOrThrow();
  return { last_24_hours: Number(row.last_24_hours), last_7_days: Number(row.last_7_days), last_30_days: Number(row.last_30_days) };
}

/**
 * `resolved_at - created_at` in seconds. The one place the dialects differ: SQLite has no interval
 * type and counts in Julian days; PostgreSQL subtracts timestamps (the casts make it work whether
 * the columns are text or timestamptz).
 */
function resolutionSeconds(dialect: DialectName): RawBuilder<number | string> {
  const resolved = sql.ref('resolved_at');
  const created = sql.ref('created_at');
  return dialect === 'sqlite'
    ? sql<number>`(julianday(${resolved}) - julianday(${created})) * 86400.0`
    : sql<string>`extract(epoch from (cast(${resolved} as timestamptz) - cast(${created} as timestamptz)))`;
}

/**
 * Resolution times (seconds) of the tickets resolved since `since`, in ascending order, from
 * position `offset` (0-based), at most `limit` of them. The median is one or two of these: the
 * window is read from its index and only its own rows are sorted, never the organization's.
 */
export async function resolutionSecondsAt(
  db: Executor,
  dialect: DialectName,
  organizationId: string,
  since: string,
  offset: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('tickets')
    .select(resolutionSeconds(dialect).as('seconds'))
    .where('organization_id', '=', organizationId)
    .where('resolved_at', '>=', since)
    .orderBy('seconds')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => Number(r.seconds));
}

export function listTeamNames(db: Executor, organizationId: string): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('teams').select(['id', 'name']).where('organization_id', '=', organizationId).execute();
}

export function listAgentNames(db: Executor, organizationId: string): Promise<{ id: string; full_name: string; is_active: number | boolean }[]> {
  return db.selectFrom('users').select(['id', 'full_name', 'is_active']).where('organization_id', '=', organizationId).execute();
}
