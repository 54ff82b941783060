import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.js';
import { logFailure } from '../../http/error-handler.js';
import { foldDelta, horizons, pastHorizon } from './dashboard.counters.js';
import { addToTotals, deleteZeroTotals, pruneTotals, takeDeltas, tryCompactionLock } from './dashboard.repository.js';

/**
 * The dashboard's compaction job: folds the insert-only deltas that triggers on `tickets` write
 * (migration 0012) into `dashboard_totals`, so a dashboard reads a bounded number of rows however
 * many tickets there are. A batch is one transaction: the deltas it takes are deleted and their sum
 * added to the totals at once, so a dashboard (one snapshot) sees them on one side or the other,
 * never both or neither. On PostgreSQL an advisory lock lets one process compact at a time; the
 * others skip the run. Every process runs the job (like webhook delivery); any one suffices.
 */

/** Deltas per transaction, and batches per run: a run's work is bounded. */
export const COMPACTION_BATCH = 5_000;
const BATCHES_PER_RUN = 20;

/**
 * Compacts at most `limit` of the oldest deltas in one transaction; resolves to how many it took
 * (0 when there were none, or another process is compacting). `now` sets which old hour buckets
 * are dropped rather than added (see `horizons`).
 */
export async function compactDashboardOnce(store: Store, limit = COMPACTION_BATCH, now = Date.now()): Promise<number> {
  return store.db.transaction().execute(async (trx) => {
    if (!(await tryCompactionLock(trx, store.dialect))) return 0;
    const deltas = await takeDeltas(trx, limit);
    if (deltas.length === 0) return 0;
    const old = horizons(now);
    const sums = new Map<string, { organization_id: string; kind: string; a: string; b: string; n: number }>();
    for (const delta of deltas) {
      foldDelta(delta, (kind, a, b, n) => {
        if (pastHorizon(kind, a, b, old)) return;
        const key = `${delta.organization_id}\u0000${kind}\u0000${a}\u0000${b}`;
        const entry = sums.get(key);
        if (entry) entry.n += n;
        else sums.set(key, { organization_id: delta.organization_id, kind, a, b, n });
      });
    }
    // In key order, so two compactions can never wait on each other's rows in opposite orders.
    const rows = [...sums.entries()]
      .filter(([, row]) => row.n !== 0)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([, row]) => row);
    await addToTotals(trx, rows);
    await deleteZeroTotals(trx, [...new Set(rows.map((r) => r.organization_id))].sort());
    return deltas.length;
  });
}

/** Compacts until no delta is left (the bench and tests; the job bounds each run instead). */
export async function compactDashboard(store: Store): Promise<number> {
  let total = 0;
  for (;;) {
    const taken = await compactDashboardOnce(store);
    total += taken;
    if (taken < COMPACTION_BATCH) return total;
  }
}

export interface CompactionDeps {
  store: Store;
  config: { dashboardCompactionIntervalMs: number };
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'level'>;
}

/** Starts the compaction job (a run every DASHBOARD_COMPACTION_INTERVAL_MS); `stop` waits for a run under way. */
export function startDashboardCompaction(deps: CompactionDeps): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let prunedHour = '';
  const run = async () => {
    for (let i = 0; i < BATCHES_PER_RUN; i++) {
      if ((await compactDashboardOnce(deps.store)) < COMPACTION_BATCH) break;
    }
    // Old hour buckets go once an hour; any process may do it, twice is harmless.
    const now = Date.now();
    const hour = new Date(now).toISOString().slice(0, 13);
    if (hour !== prunedHour) {
      await pruneTotals(deps.store.db, horizons(now));
      prunedHour = hour;
    }
  };
  const tick = () => {
    if (running) return;
    running = run()
      .catch((error: unknown) => logFailure(deps.log, error, 'dashboard compaction failed'))
      .finally(() => (running = null));
  };
  const interval = setInterval(tick, deps.config.dashboardCompactionIntervalMs).unref();
  return {
    async stop() {
      clearInterval(interval);
      await running;
    },
  };
}
