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
 * An hour is the first 13 characters of an ISO timestamp ('2026-11-23T17'), which sort in time order,
 * a day the first 10.
 *
 * The histogram of resolution times (migration 0015), per resolved day and, for the hours of the
 * day at the 30-day window's edge, per resolved hour; C a coarse and F a fine duration bucket
 * (`durationBucket`): `md` (C, day) and `mh` (hour, C) count the coarse buckets, `fd` ('C F', day)
 * and `fh` ('C hour', F) the fine buckets of one coarse bucket. Each key puts first what a read
 * bounds, so every read is one primary-key range (dashboard.median.ts).
 */

export type CounterKind = 'sp' | 'oa' | 'cr' | 'rs' | 'du' | 'dt' | HistogramKind;
export type HistogramKind = 'md' | 'mh' | 'fd' | 'fh';
export type Delta = Pick<
  DashboardDeltasTable,
  'status' | 'priority' | 'assigned_user_id' | 'assigned_team_id' | 'created_at' | 'due_date' | 'resolved_at' | 'n'
>;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const hourOf = (iso: string): string => iso.slice(0, 13);
export const dayOf = (iso: string): string => iso.slice(0, 10);

/** The first instant of the hour after the one `iso` falls in, as ISO text. */
export const nextHour = (iso: string): string => new Date(Date.parse(`${hourOf(iso)}:00:00.000Z`) + HOUR_MS).toISOString();

const isOpen = (status: string): boolean => (OPEN_STATUSES as readonly string[]).includes(status);

/**
 * Buckets older than these hours are never read (the windows reach back 7 days for created, 30
 * for resolved; due buckets are read from the current hour on), so compaction drops them and
 * their later deltas. The margins cover clocks that differ between processes.
 */
export function horizons(now: number): Record<'cr' | 'rs' | 'du' | 'day', string> {
  const hour = (msAgo: number) => hourOf(new Date(now - msAgo).toISOString());
  return { cr: hour(8 * DAY_MS), rs: hour(31 * DAY_MS), du: hour(2 * HOUR_MS), day: dayOf(new Date(now - 31 * DAY_MS).toISOString()) };
}

/** The time bucket (an hour or a day) of a histogram counter's key, to compare with the horizons. */
export function histogramTime(kind: HistogramKind, a: string, b: string): string {
  return kind === 'md' || kind === 'fd' ? b : kind === 'mh' ? a : a.slice(4);
}

/** Whether a counter is a time bucket no window reads any more (compaction drops it). */
export function pastHorizon(kind: CounterKind, a: string, b: string, old: ReturnType<typeof horizons>): boolean {
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

/**
 * `resolved_at - created_at` in milliseconds, as the index of migration 0015 computes it
 * (SQLite: julianday difference rounded to the millisecond; PostgreSQL: ticket_resolution_ms).
 */
export const resolutionMs = (createdAt: string, resolvedAt: string): number => Date.parse(resolvedAt) - Date.parse(createdAt);

/** Fine buckets per coarse bucket; two coarse buckets per doubling of the duration. */
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

export interface DurationBucket {
  /** Three digits (500 + the coarse index, negative durations below 500): text order is numeric order. */
  coarse: string;
  /** Two digits, in order within the coarse bucket. */
  fine: string;
  /** The durations of the fine bucket: [lo, hi) in ms. */
  lo: number;
  hi: number;
}

/**
 * The buckets of a duration in ms (negative too: timestamps set by an import may be in any order).
 * Log scale, so a few hundred coarse buckets cover any duration, and a fine bucket holds few tickets.
 */
export function durationBucket(ms: number): DurationBucket {
  const key = (c: number, f: number) => ({ coarse: String(500 + c), fine: String(f).padStart(2, '0') });
  if (ms >= 0) {
    const b = positiveBucket(ms);
    return { ...key(b.c, b.f), lo: b.lo, hi: b.hi };
  }
  // Mirrored: -1 - u for u >= 0, so that larger u sorts lower.
  const b = positiveBucket(-ms - 1);
  return { ...key(-1 - b.c, FINE - 1 - b.f), lo: 0 - b.hi, hi: 0 - b.lo };
}

/** The durations [lo, hi) in ms of a fine bucket given by its keys (the inverse of `durationBucket`). */
export function bucketBounds(coarse: string, fine: string): { lo: number; hi: number } {
  const positive = (c: number, f: number) => {
    if (c < 4) return { lo: c * FINE + f, hi: c * FINE + f + 1 };
    const unit = 2 ** (1 + Math.floor((c - 4) / 2)); // 2 ** (e - 7), e = 8 + floor((c - 4) / 2)
    const m = 128 + ((c - 4) % 2) * FINE + f;
    return { lo: m * unit, hi: (m + 1) * unit };
  };
  const c = Number(coarse) - 500;
  const f = Number(fine);
  if (c >= 0) return positive(c, f);
  const u = positive(-1 - c, FINE - 1 - f);
  return { lo: 0 - u.hi, hi: 0 - u.lo };
}

/** Calls `add` for each histogram counter a resolved ticket counts in. */
export function foldResolution(createdAt: string, resolvedAt: string, n: number, add: (kind: HistogramKind, a: string, b: string, n: number) => void): void {
  const { coarse, fine } = durationBucket(resolutionMs(createdAt, resolvedAt));
  const day = dayOf(resolvedAt);
  const hour = hourOf(resolvedAt);
  add('md', coarse, day, n);
  add('mh', hour, coarse, n);
  add('fd', `${coarse} ${fine}`, day, n);
  add('fh', `${coarse} ${hour}`, fine, n);
}

/** Calls `add` once per counter the delta moves. */
export function foldDelta(d: Delta, add: (kind: CounterKind, a: string, b: string, n: number) => void): void {
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
