import type { Store } from '../../db/store.js';
import type { Executor } from '../../shared/executor.js';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../tickets/tickets.schemas.js';
import { foldDelta, hourOf, nextHour, type CounterKind } from './dashboard.counters.js';
import {
  countCreatedBetween,
  countOpenDueBetween,
  countResolvedBetween,
  listAgentNames,
  listTeamNames,
  readDeltas,
  readTotals,
  resolutionMsSorted,
  sumBucketsAfter,
} from './dashboard.repository.js';
import { HistogramMismatch, medianFallbacks, resolutionMsAtRanks } from './dashboard.median.js';
import { OPEN_STATUSES, type AgentLoad, type Dashboard, type PriorityCounts, type StatusCounts, type TeamLoad } from './dashboard.schemas.js';

export interface DashboardDeps {
  store: Store;
}

/** Where getDashboard reports a histogram that disagrees with the tickets (a request's logger). */
export interface DashboardLog {
  error(bindings: object, message: string): void;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const zeros = <K extends string>(keys: readonly K[]): Record<K, number> =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

const isOpen = (status: string): boolean => (OPEN_STATUSES as readonly string[]).includes(status);

/** Most open tickets first, then by name, then by id, so the order is stable. */
function byLoad<T extends { id: string; open: number }>(name: (item: T) => string) {
  return (a: T, b: T): number => b.open - a.open || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0) || (a.id < b.id ? -1 : 1);
}

/**
 * The organization's counters at this instant: the compacted totals plus the deltas not compacted
 * yet. Hour buckets are summed by the database for the totals (`bucketSums`) and here for deltas.
 */
class Counters {
  private readonly values = new Map<string, { kind: CounterKind; a: string; b: string; n: number }>();
  private readonly bucketSums = new Map<string, number>();

  add(kind: CounterKind, a: string, b: string, n: number): void {
    const key = `${kind}\u0000${a}\u0000${b}`;
    const entry = this.values.get(key);
    if (entry) entry.n += n;
    else this.values.set(key, { kind, a, b, n });
  }

  /** The compacted buckets of `kind` after `hour` sum to `n`. */
  addBucketSum(kind: CounterKind, hour: string, n: number): void {
    this.bucketSums.set(`${kind}\u0000${hour}`, n);
  }

  *of(kind: CounterKind): Iterable<{ a: string; b: string; n: number }> {
    for (const entry of this.values.values()) if (entry.kind === kind && entry.n !== 0) yield entry;
  }

  /** The sum of the hour buckets after `hour`. */
  after(kind: CounterKind, hour: string): number {
    let sum = this.bucketSums.get(`${kind}\u0000${hour}`) ?? 0;
    for (const { a, n } of this.of(kind)) if (a > hour) sum += n;
    return sum;
  }
}

/**
 * Tickets of a time-bucketed kind at or after `instant`: the whole hours after its hour from the
 * counters, and the tickets of its own hour at or after it counted one by one (an index range).
 */
async function since(
  counters: Counters,
  kind: 'cr' | 'rs',
  instant: string,
  exact: (from: string, to: string) => Promise<number>,
): Promise<number> {
  return counters.after(kind, hourOf(instant)) + (await exact(instant, nextHour(instant)));
}

/**
 * The organization's figures at one instant. All queries run in one repeatable-read transaction,
 * so the figures agree with each other even while tickets change (SQLite: one read snapshot), and
 * a compaction commits all or nothing, so totals and pending deltas are read consistently.
 *
 * Nothing here reads the organization's tickets beyond the edge hour of each time window and the
 * median (docs/architecture.md#dashboard): counts come from dashboard_totals and dashboard_deltas.
 */
export async function getDashboard(deps: DashboardDeps, organizationId: string, log?: DashboardLog): Promise<Dashboard> {
  const { db, dialect } = deps.store;
  const now = Date.now();
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();
  const generatedAt = at(0);
  const since24h = at(DAY_MS);
  const since7d = at(7 * DAY_MS);
  const since30d = at(30 * DAY_MS);

  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx: Executor) => {
      const counters = new Counters();
      for (const row of await readTotals(trx, organizationId)) counters.add(row.kind as CounterKind, row.a, row.b, Number(row.n));
      // Earliest hour first; the same three-hour query for every kind (padded), so one statement.
      const buckets: ['cr' | 'rs' | 'du', [string, string, string]][] = [
        ['cr', [hourOf(since7d), hourOf(since24h), hourOf(since24h)]],
        ['rs', [hourOf(since30d), hourOf(since7d), hourOf(since24h)]],
        ['du', [hourOf(generatedAt), hourOf(generatedAt), hourOf(generatedAt)]],
      ];
      for (const [kind, hours] of buckets) {
        const sums = await sumBucketsAfter(trx, organizationId, kind, hours);
        hours.forEach((hour, i) => counters.addBucketSum(kind, hour, sums[i]!));
      }
      for (const delta of await readDeltas(trx, organizationId)) foldDelta(delta, (kind, a, b, n) => counters.add(kind, a, b, n));

      const byStatus: StatusCounts = zeros(TICKET_STATUSES);
      const byPriority: PriorityCounts = zeros(TICKET_PRIORITIES);
      const openByPriority: PriorityCounts = zeros(TICKET_PRIORITIES);
      for (const { a: status, b: priority, n } of counters.of('sp')) {
        byStatus[status as keyof StatusCounts] += n;
        byPriority[priority as keyof PriorityCounts] += n;
        if (isOpen(status)) openByPriority[priority as keyof PriorityCounts] += n;
      }

      const agentCounts = new Map<string | null, number>();
      const teamCounts = new Map<string | null, number>();
      for (const { a, b, n } of counters.of('oa')) {
        const agent = a === '' ? null : a;
        const team = b === '' ? null : b;
        agentCounts.set(agent, (agentCounts.get(agent) ?? 0) + n);
        teamCounts.set(team, (teamCounts.get(team) ?? 0) + n);
      }

      // Open with a due date, less those due from the next hour on, less those due later this hour.
      let withDueDate = 0;
      for (const { n } of counters.of('dt')) withDueDate += n;
      const overdue =
        withDueDate -
        counters.after('du', hourOf(generatedAt)) -
        (await countOpenDueBetween(trx, organizationId, generatedAt, nextHour(generatedAt)));

      const created = (instant: string) => since(counters, 'cr', instant, (from, to) => countCreatedBetween(trx, organizationId, from, to));
      const resolved = (instant: string) => since(counters, 'rs', instant, (from, to) => countResolvedBetween(trx, organizationId, from, to));
      const created24h = await created(since24h);
      const created7d = await created(since7d);
      const resolved24h = await resolved(since24h);
      const resolved7d = await resolved(since7d);
      const n = await resolved(since30d);

      // The median of n sorted values: the middle one, or the mean of the middle two when n is even
      // (in ms, from the resolution-time histogram: dashboard.median.ts).
      let median: number | null = null;
      if (n > 0) {
        const middle = Math.floor((n - 1) / 2);
        const ranks = n % 2 ? [middle] : [middle, middle + 1];
        let ms: number[];
        try {
          ms = await resolutionMsAtRanks(trx, dialect, organizationId, (kind) => counters.of(kind), since30d, generatedAt, ranks);
        } catch (error) {
          if (!(error instanceof HistogramMismatch)) throw error;
          // Right, if slower, rather than a 500; the log (and the tests, through the count) say so.
          medianFallbacks.count++;
          log?.error({ err: error, organizationId }, 'dashboard median: the histogram disagrees with the tickets; the window was sorted instead');
          ms = await resolutionMsSorted(trx, dialect, organizationId, since30d, ranks[0]!, ranks.length);
        }
        median = Math.round(ms.reduce((a, b) => a + b, 0) / ms.length) / 1000;
      }

      const teams: TeamLoad[] = (await listTeamNames(trx, organizationId))
        .map((t) => ({ id: t.id, name: t.name, open: teamCounts.get(t.id) ?? 0 }))
        .sort(byLoad((t) => t.name));
      const agents: AgentLoad[] = (await listAgentNames(trx, organizationId))
        .map((u) => ({ id: u.id, full_name: u.full_name, open: agentCounts.get(u.id) ?? 0, active: Boolean(u.is_active) }))
        .filter((u) => u.active || u.open > 0)
        .map(({ id, full_name, open }) => ({ id, full_name, open }))
        .sort(byLoad((u) => u.full_name));

      return {
        generated_at: generatedAt,
        tickets: {
          total: Object.values(byStatus).reduce((a, b) => a + b, 0),
          by_status: byStatus,
          by_priority: byPriority,
        },
        open: {
          total: OPEN_STATUSES.reduce((sum, s) => sum + byStatus[s], 0),
          by_priority: openByPriority,
          unassigned: agentCounts.get(null) ?? 0,
          without_team: teamCounts.get(null) ?? 0,
          overdue,
        },
        created: { last_24_hours: created24h, last_7_days: created7d },
        resolved: { last_24_hours: resolved24h, last_7_days: resolved7d },
        resolution_last_30_days: { resolved: n, median_seconds: median },
        open_by_team: teams,
        open_by_agent: agents,
      };
    });
}
