import type { DashboardDeltasTable } from '../../db/types.js';
import { OPEN_STATUSES } from './dashboard.schemas.js';

/*
 * The dashboard's counters (migration 0012): what one ticket contributes to each, and the
 * horizons past which a time bucket is never read again. Compaction (dashboard.compaction.ts)
 * folds deltas into totals with `foldDelta`; a dashboard folds the deltas not compacted yet the
 * same way, on top of the totals, so both always agree.
 *
 * Kinds and keys (a, b): `sp` (status, priority); `oa` open per (agent, team), '' for none;
 * `cr` created per hour; `rs` resolved per hour; `du` open per due hour; `dt` open with a due date.
 * An hour is the first 13 characters of an ISO timestamp ('2026-11-23T17'), which sort in time order.
 */

export type CounterKind = 'sp' | 'oa' | 'cr' | 'rs' | 'du' | 'dt';
export type Delta = Pick<
  DashboardDeltasTable,
  'status' | 'priority' | 'assigned_user_id' | 'assigned_team_id' | 'created_at' | 'due_date' | 'resolved_at' | 'n'
>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const hourOf = (iso: string): string => iso.slice(0, 13);

/** The first instant of the hour after the one `iso` falls in, as ISO text. */
export const nextHour = (iso: string): string => new Date(Date.parse(`${hourOf(iso)}:00:00.000Z`) + HOUR_MS).toISOString();

const isOpen = (status: string): boolean => (OPEN_STATUSES as readonly string[]).includes(status);

/**
 * Buckets older than these hours are never read (the windows reach back 7 days for created, 30
 * for resolved; due buckets are read from the current hour on), so compaction drops them and
 * their later deltas. The margins cover clocks that differ between processes.
 */
export function horizons(now: number): Record<'cr' | 'rs' | 'du', string> {
  const hour = (msAgo: number) => hourOf(new Date(now - msAgo).toISOString());
  return { cr: hour(8 * DAY_MS), rs: hour(31 * DAY_MS), du: hour(2 * HOUR_MS) };
}

/** Calls `add` once per counter the delta moves. */
export function foldDelta(d: Delta, add: (kind: CounterKind, a: string, b: string, n: number) => void): void {
  const n = Number(d.n);
  add('sp', d.status, d.priority, n);
  add('cr', hourOf(d.created_at), '', n);
  if (d.resolved_at !== null) add('rs', hourOf(d.resolved_at), '', n);
  if (!isOpen(d.status)) return;
  add('oa', d.assigned_user_id ?? '', d.assigned_team_id ?? '', n);
  if (d.due_date !== null) {
    add('du', hourOf(d.due_date), '', n);
    add('dt', '', '', n);
  }
}
