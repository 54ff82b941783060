import type { DialectName } from '../../db/dialect.js';
import type { Executor } from '../../shared/executor.js';
import { bucketBounds, dayOf, durationBucket, hourOf, nextHour, resolutionMs, type HistogramKind } from './dashboard.counters.js';
import { coarseCounts, fineCounts, resolutionMsBetween, resolvedBetween, type BucketCount } from './dashboard.repository.js';

/*
 * The exact median resolution time of the tickets resolved since an instant, without sorting them
 * (docs/architecture.md#dashboard). The resolution-time histogram (migration 0015) is read for the
 * window as the counts are: whole days after the instant's day, hours after its hour within its
 * day, and the tickets of its own hour one by one. The coarse bucket holding the k-th value is
 * found from coarse counts, then its fine bucket from that coarse bucket's fine counts, and the
 * value itself from the window's tickets of that one fine bucket, read from an index day by day.
 */

/** Pending (not compacted) histogram counters of the organization, already folded. */
export type Pending = (kind: HistogramKind) => Iterable<{ a: string; b: string; n: number }>;

const DAY_MS = 86_400_000;

/**
 * The histogram disagrees with the tickets (it counts more than it finds, or fewer than the
 * window's count). No known path produces it; were a process running code older than migration
 * 0015 to compact after it, it would: the dashboard then sorts the window (getDashboard).
 */
export class HistogramMismatch extends Error {}

/** How often getDashboard fell back to sorting the window: the tests require it to stay 0. */
export const medianFallbacks = { count: 0 };

/** The bucket holding the k-th (0-based) value, and how many values lie in the buckets before it. */
function locate(counts: Map<string, number>, k: number): { key: string; below: number } {
  let below = 0;
  for (const key of [...counts.keys()].sort()) {
    const n = counts.get(key)!;
    if (k < below + n) return { key, below };
    below += n;
  }
  throw new HistogramMismatch(`dashboard median: rank ${k} is beyond the histogram (${below} values)`);
}

/**
 * The resolution times (ms) of ranks `ranks` (0-based, ascending order) among the tickets resolved
 * since `since`, `now` being the dashboard's instant.
 */
export async function resolutionMsAtRanks(
  db: Executor,
  dialect: DialectName,
  organizationId: string,
  pending: Pending,
  since: string,
  now: string,
  ranks: number[],
): Promise<number[]> {
  const edgeDay = dayOf(since);
  const edgeHour = hourOf(since);
  // After every hour of the edge day ('2026-11-23T23' < '2026-11-23U').
  const hoursEnd = `${edgeDay}U`;
  const edge = (await resolvedBetween(db, organizationId, since, nextHour(since))).map((t) => durationBucket(resolutionMs(t.created_at, t.resolved_at)));
  const tally = (rows: BucketCount[]) => {
    const counts = new Map<string, number>();
    for (const { key, n } of rows) counts.set(key, (counts.get(key) ?? 0) + Number(n));
    return counts;
  };
  const bump = (counts: Map<string, number>, key: string, n: number) => counts.set(key, (counts.get(key) ?? 0) + n);

  const coarse = tally(await coarseCounts(db, organizationId, edgeDay, edgeHour, hoursEnd));
  for (const { a, b, n } of pending('md')) if (b > edgeDay) bump(coarse, a, n);
  for (const { a, b, n } of pending('mh')) if (a > edgeHour && a < hoursEnd) bump(coarse, b, n);
  for (const bucket of edge) bump(coarse, bucket.coarse, 1);

  const fines = new Map<string, Map<string, number>>();
  const fineOf = async (c: string) => {
    let counts = fines.get(c);
    if (counts) return counts;
    counts = tally(await fineCounts(db, organizationId, c, edgeDay, edgeHour, hoursEnd));
    for (const { a, b, n } of pending('fd')) if (a.startsWith(`${c} `) && b > edgeDay) bump(counts, a.slice(4), n);
    for (const { a, b, n } of pending('fh')) if (a > `${c} ${edgeHour}` && a < `${c} ${hoursEnd}`) bump(counts, b, n);
    for (const bucket of edge) if (bucket.coarse === c) bump(counts, bucket.fine, 1);
    fines.set(c, counts);
    return counts;
  };

  // The window's days from the edge day to today; later days (a resolved_at in the future) in one range.
  const days: string[] = [];
  for (let t = Date.parse(`${edgeDay}T00:00:00.000Z`); dayOf(new Date(t).toISOString()) <= dayOf(now); t += DAY_MS) days.push(dayOf(new Date(t).toISOString()));
  const values = new Map<string, number[]>();
  const valuesOf = async (c: string, f: string) => {
    let list = values.get(`${c} ${f}`);
    if (list) return list;
    const { lo, hi } = bucketBounds(c, f);
    list = (await resolutionMsBetween(db, dialect, organizationId, since, days, lo, hi)).sort((x, y) => x - y);
    values.set(`${c} ${f}`, list);
    return list;
  };

  const result: number[] = [];
  for (const k of ranks) {
    const c = locate(coarse, k);
    const f = locate(await fineOf(c.key), k - c.below);
    const list = await valuesOf(c.key, f.key);
    const value = list[k - c.below - f.below];
    if (value === undefined) throw new HistogramMismatch(`dashboard median: bucket ${c.key} ${f.key} holds ${list.length} tickets, the histogram counts more`);
    result.push(value);
  }
  return result;
}
