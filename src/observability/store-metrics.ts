import type { Store } from '../db/store.js';
import { pendingBacklog } from '../modules/webhooks/webhooks.repository.js';
import type { Metrics } from './metrics.js';

/** Waits for a pool connection, in seconds: none at all when the pool has one free, up to DATABASE_POOL_TIMEOUT_MS. */
export const ACQUIRE_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30];

/**
 * The store's figures: PostgreSQL's pool (connections open, idle, callers waiting, and how long
 * each checkout waited); SQLite has one connection and no pool, so nothing of the kind. Searches'
 * slots on both (worker threads on SQLite, connections on PostgreSQL).
 */
export function registerStoreMetrics(metrics: Metrics, store: Store): void {
  const pool = store.pool;
  if (pool) {
    metrics.gauge('ticketing_store_pool_connections', 'PostgreSQL pool connections, by state: open (in use or idle), idle', ['state'], (g) => {
      const counts = pool.counts();
      g.set({ state: 'open' }, counts.open);
      g.set({ state: 'idle' }, counts.idle);
    });
    metrics.gauge('ticketing_store_pool_waiting', 'Callers waiting for a PostgreSQL pool connection', [], (g) => g.set(pool.counts().waiting));
    const acquire = metrics.histogram(
      'ticketing_store_pool_acquire_seconds',
      'Time each PostgreSQL pool checkout waited for a connection (opening a new one included)',
      ACQUIRE_BUCKETS,
    );
    pool.watch.acquired = (seconds) => acquire.observe(seconds);
  }
  metrics.gauge('ticketing_search_slots', 'Searches this process runs at once at most (SEARCH_CONCURRENCY, bounded by the pool)', [], (g) =>
    g.set(store.searches.options.concurrency),
  );
  metrics.gauge('ticketing_search_slots_in_use', 'Search reads running now (SQLite worker threads, PostgreSQL connections)', [], (g) =>
    g.set(store.searches.slots().inUse),
  );
  metrics.gauge('ticketing_search_waiting', 'Search reads waiting for a slot', [], (g) => g.set(store.searches.slots().waiting));
}

/** The webhook outbox as the store has it, read on each scrape (one indexed query for both). */
export function registerWebhookMetrics(metrics: Metrics, store: Store): void {
  let read: Promise<{ pending: number; oldest: string | null }> | null = null;
  // Both gauges come from one query per scrape, not one each.
  const backlog = () => (read ??= pendingBacklog(store.db).finally(() => setImmediate(() => (read = null))));
  metrics.gauge('ticketing_webhook_deliveries_pending', 'Webhook deliveries pending (waiting for their turn or a retry), in every organization', [], async (g) => {
    g.set((await backlog()).pending);
  });
  metrics.gauge(
    'ticketing_webhook_oldest_pending_age_seconds',
    'Age of the oldest pending webhook delivery (0 when none is pending)',
    [],
    async (g) => {
      const { oldest } = await backlog();
      g.set(oldest === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldest)) / 1000));
    },
  );
}
