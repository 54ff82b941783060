import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { logFailure } from '../http/error-handler.js';
import type { Store } from '../db/store.js';

/**
 * PostgreSQL's search index job: merges the pending list of tickets' search index
 * (tickets_search_keys_idx, `fastupdate = on` since migration 0019) into the index, every
 * SEARCH_INDEX_MERGE_INTERVAL_MS. A create only appends its keys to the list; this merges them
 * in bulk, one descent of the index per key for all the tickets that have it, in its own
 * statement: not inside a create's transaction, where it would hold the organization's counter
 * (an insert that finds the list full, at 1 MiB, still merges it itself). It also keeps the list
 * short for searches, which read every pending page. Every process runs it; two at once do not
 * merge twice (the second waits for the first, then finds the list empty). Nothing on SQLite.
 */
export const SEARCH_INDEX_MERGE_INTERVAL_MS = 250;

/** Merges the pending list now; resolves to the pending pages it merged (0 on SQLite). */
export async function mergeSearchIndexPending(store: Store): Promise<number> {
  if (store.dialect !== 'postgres') return 0;
  const { rows } = await sql<{ pages: number }>`select gin_clean_pending_list('tickets_search_keys_idx'::regclass) as pages`.execute(store.db);
  return Number(rows[0]?.pages ?? 0);
}

const INSUFFICIENT_PRIVILEGE = '42501';

export interface SearchIndexJobDeps {
  store: Store;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'level'>;
  intervalMs?: number;
}

/** Starts the job (PostgreSQL only; a no-op on SQLite); `stop` waits for a merge under way. */
export function startSearchIndexJob(deps: SearchIndexJobDeps): { stop(): Promise<void> } {
  if (deps.store.dialect !== 'postgres') return { stop: () => Promise.resolve() };
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = mergeSearchIndexPending(deps.store)
      .then(() => undefined)
      .catch((error: unknown) => {
        // Only the index's owner may merge (as for VACUUM): a service whose role does not own it
        // says so once and leaves the merging to the inserts and autovacuum.
        if ((error as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE) {
          clearInterval(interval);
          deps.log.warn('search index merge: this role does not own tickets_search_keys_idx; the pending list is merged by inserts and autovacuum');
          return;
        }
        logFailure(deps.log, error, 'search index merge failed');
      })
      .finally(() => (running = null));
  };
  const interval = setInterval(tick, deps.intervalMs ?? SEARCH_INDEX_MERGE_INTERVAL_MS).unref();
  return {
    async stop() {
      clearInterval(interval);
      await running;
    },
  };
}
