import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * The dashboard's median resolution time without sorting the tickets resolved in 30 days
 * (docs/architecture.md#dashboard):
 *
 * - a histogram of resolution times in `dashboard_totals` (kinds `md`, `mh`, `fd`, `fh`, see
 *   dashboard.counters.ts), folded by compaction from the deltas that the triggers of 0012 write,
 *   so the median's fine bucket is found from counts alone;
 * - `tickets_org_resolved_day_ms_idx` on (organization_id, resolved day, resolution time in ms,
 *   resolved_at), from which the tickets of that one bucket in the window are read, day by day;
 * - the update trigger now writes deltas when created_at or resolved_at change at all, not only
 *   when they change hour: the resolution time changes with them.
 *
 * Backfill: the histogram of the tickets resolved within the horizon, less what the deltas not
 * compacted yet will add (compaction now folds them into the histogram too), in the migration's
 * transaction, with the compaction lock held on PostgreSQL; recreating the trigger locks out
 * ticket writers until commit.
 */
const COLUMNS = 'organization_id, status, priority, assigned_user_id, assigned_team_id, created_at, due_date, resolved_at';
const COMPACTION_LOCK = 7_011_011; // dashboard.repository.ts

/** The resolution time in ms; dashboard.repository.ts must use exactly this text to use the index. */
const SQLITE_MS = 'cast(round((julianday(resolved_at) - julianday(created_at)) * 86400000.0) as integer)';

/** The update trigger's condition: times compared to the hour (0012) or exactly (0015). */
function changed(distinct: string, exactTimes: boolean): string {
  return COLUMNS.split(', ')
    .map((c) => {
      const hourly = c === 'due_date' || (!exactTimes && /_at$/.test(c));
      return hourly ? `substr(old.${c}, 1, 13) ${distinct} substr(new.${c}, 1, 13)` : `old.${c} ${distinct} new.${c}`;
    })
    .join(' or ');
}

async function updateTrigger(db: Kysely<any>, exactTimes: boolean): Promise<void> {
  const values = (row: 'old' | 'new', n: number) =>
    COLUMNS.split(', ')
      .map((c) => `${row}.${c}`)
      .join(', ') + `, ${n}`;
  await sql`drop trigger if exists tickets_dashboard_update ${dialectOf(db) === 'postgres' ? sql`on tickets` : sql``}`.execute(db);
  if (dialectOf(db) === 'postgres') {
    await sql.raw(`create trigger tickets_dashboard_update after update on tickets for each row when (${changed('is distinct from', exactTimes)}) execute function tickets_dashboard_deltas()`).execute(db);
  } else {
    await sql
      .raw(
        `create trigger tickets_dashboard_update after update on tickets when (${changed('is not', exactTimes)}) begin
          insert into dashboard_deltas (${COLUMNS}, n) values (${values('old', -1)}), (${values('new', 1)});
        end`,
      )
      .execute(db);
  }
}

/*
 * Frozen copy of what this migration used from src/modules/dashboard/dashboard.counters.ts as it
 * was when the migration was written: a migration never imports live code, which may change after.
 */
type CounterKind = 'sp' | 'oa' | 'cr' | 'rs' | 'du' | 'dt' | HistogramKind;
type HistogramKind = 'md' | 'mh' | 'fd' | 'fh';
interface Delta {
  status: string;
  priority: string;
  assigned_user_id: string | null;
  assigned_team_id: string | null;
  created_at: string;
  due_date: string | null;
  resolved_at: string | null;
  n: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const OPEN_STATUSES = ['new', 'open', 'pending'];

const hourOf = (iso: string): string => iso.slice(0, 13);
const dayOf = (iso: string): string => iso.slice(0, 10);
const isOpen = (status: string): boolean => OPEN_STATUSES.includes(status);

function horizons(now: number): Record<'cr' | 'rs' | 'du' | 'day', string> {
  const hour = (msAgo: number) => hourOf(new Date(now - msAgo).toISOString());
  return { cr: hour(8 * DAY_MS), rs: hour(31 * DAY_MS), du: hour(2 * HOUR_MS), day: dayOf(new Date(now - 31 * DAY_MS).toISOString()) };
}

function histogramTime(kind: HistogramKind, a: string, b: string): string {
  return kind === 'md' || kind === 'fd' ? b : kind === 'mh' ? a : a.slice(4);
}

function pastHorizon(kind: CounterKind, a: string, b: string, old: ReturnType<typeof horizons>): boolean {
  switch (kind) {
    case 'cr':
    case 'rs':
    case 'du':
      return a < old[kind];
    case 'md':
    case 'fd':
      return histogramTime(kind, a, b) < old.day;
    case 'mh':
    case 'fh':
      return histogramTime(kind, a, b) < old.rs;
    default:
      return false;
  }
}

const resolutionMs = (createdAt: string, resolvedAt: string): number => Date.parse(resolvedAt) - Date.parse(createdAt);

const FINE = 64;

/** Of a duration >= 0 ms: exact (1 ms wide) below 256 ms, then 1/256 to 1/128 of the value wide. */
function positiveBucket(v: number): { c: number; f: number; lo: number; hi: number } {
  if (v < 4 * FINE) return { c: Math.floor(v / FINE), f: v % FINE, lo: v, hi: v + 1 };
  let e = Math.floor(Math.log2(v));
  while (2 ** e > v) e--;
  while (2 ** (e + 1) <= v) e++;
  const unit = 2 ** (e - 7); // the top 8 bits of v: m in [128, 256)
  const m = Math.floor(v / unit);
  return { c: 4 + (e - 8) * 2 + (m >= 192 ? 1 : 0), f: m % FINE, lo: m * unit, hi: (m + 1) * unit };
}

function durationBucket(ms: number): { coarse: string; fine: string; lo: number; hi: number } {
  const key = (c: number, f: number) => ({ coarse: String(500 + c), fine: String(f).padStart(2, '0') });
  if (ms >= 0) {
    const b = positiveBucket(ms);
    return { ...key(b.c, b.f), lo: b.lo, hi: b.hi };
  }
  // Mirrored: -1 - u for u >= 0, so that larger u sorts lower.
  const b = positiveBucket(-ms - 1);
  return { ...key(-1 - b.c, FINE - 1 - b.f), lo: 0 - b.hi, hi: 0 - b.lo };
}

function foldResolution(createdAt: string, resolvedAt: string, n: number, add: (kind: HistogramKind, a: string, b: string, n: number) => void): void {
  const { coarse, fine } = durationBucket(resolutionMs(createdAt, resolvedAt));
  const day = dayOf(resolvedAt);
  const hour = hourOf(resolvedAt);
  add('md', coarse, day, n);
  add('mh', hour, coarse, n);
  add('fd', `${coarse} ${fine}`, day, n);
  add('fh', `${coarse} ${hour}`, fine, n);
}

function foldDelta(d: Delta, add: (kind: CounterKind, a: string, b: string, n: number) => void): void {
  const n = Number(d.n);
  add('sp', d.status, d.priority, n);
  add('cr', hourOf(d.created_at), '', n);
  if (d.resolved_at !== null) {
    add('rs', hourOf(d.resolved_at), '', n);
    foldResolution(d.created_at, d.resolved_at, n, add);
  }
  if (!isOpen(d.status)) return;
  add('oa', d.assigned_user_id ?? '', d.assigned_team_id ?? '', n);
  if (d.due_date !== null) {
    add('du', hourOf(d.due_date), '', n);
    add('dt', '', '', n);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(${COMPACTION_LOCK})`.execute(db);
    // Immutable, so an index can hold it: the timestamps are ISO 8601 with their zone ('Z'), which
    // no session setting changes the meaning of. Never inlined (its body is only stable), so a
    // query naming it matches the index expression.
    await sql`create function ticket_resolution_ms(created_at text, resolved_at text) returns bigint language sql immutable parallel safe
      as $$ select round(extract(epoch from (cast(resolved_at as timestamptz) - cast(created_at as timestamptz))) * 1000)::bigint $$`.execute(db);
  }
  await updateTrigger(db, true);
  const ms = dialect === 'postgres' ? 'ticket_resolution_ms(created_at, resolved_at)' : SQLITE_MS;
  await sql.raw(`create index tickets_org_resolved_day_ms_idx on tickets (organization_id, substr(resolved_at, 1, 10), ${ms}, resolved_at) where resolved_at is not null`).execute(db);

  const old = horizons(Date.now());
  const sums = new Map<string, { organization_id: string; kind: string; a: string; b: string; n: number }>();
  const add = (organizationId: string) => (kind: string, a: string, b: string, n: number) => {
    if (!['md', 'mh', 'fd', 'fh'].includes(kind) || pastHorizon(kind as 'md', a, b, old)) return;
    const key = `${organizationId}\u0000${kind}\u0000${a}\u0000${b}`;
    const entry = sums.get(key);
    if (entry) entry.n += n;
    else sums.set(key, { organization_id: organizationId, kind, a, b, n });
  };
  const resolved = await db
    .selectFrom('tickets')
    .select(['organization_id', 'created_at', 'resolved_at'])
    .where('resolved_at', '>=', old.day)
    .execute();
  for (const t of resolved as { organization_id: string; created_at: string; resolved_at: string }[]) foldResolution(t.created_at, t.resolved_at, 1, add(t.organization_id));
  const pending = await db.selectFrom('dashboard_deltas').select(['organization_id', 'status', 'priority', 'assigned_user_id', 'assigned_team_id', 'created_at', 'due_date', 'resolved_at', 'n']).execute();
  for (const d of pending as (Delta & { organization_id: string })[]) foldDelta({ ...d, n: -Number(d.n) }, add(d.organization_id));
  const rows = [...sums.values()].filter((r) => r.n !== 0);
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('dashboard_totals').values(rows.slice(i, i + 500)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('dashboard_totals').where('kind', 'in', ['md', 'mh', 'fd', 'fh']).execute();
  await sql`drop index if exists tickets_org_resolved_day_ms_idx`.execute(db);
  await updateTrigger(db, false);
  if (dialectOf(db) === 'postgres') await sql`drop function if exists ticket_resolution_ms(text, text)`.execute(db);
}
