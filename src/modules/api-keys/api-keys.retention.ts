import type { FastifyBaseLogger } from 'fastify';
import { deleteOldApiKeys } from '../../auth/keys.repository.js';
import type { Store } from '../../db/store.js';
import { logFailure } from '../../http/error-handler.js';
import { startPeriodicJob } from '../../shared/periodic-job.js';
import type { Executor } from '../../shared/executor.js';

/**
 * Retention of dead API keys (API_KEYS_RETENTION_DAYS, default 30; 0 keeps them): a key revoked
 * that many days ago, or expired that many days ago, is deleted, so the keys an organization has
 * ever made do not pile up without end. A deleted key is unknown: 401 like any revoked one. Until
 * then it stays listed (`status=revoked`, `status=expired`) with its `last_used_at`.
 */

const BATCH = 1_000;
const DAY_MS = 86_400_000;
/** The sweep runs shortly after the start and then every hour, as the event log's does. */
const FIRST_SWEEP_MS = 60_000;
const SWEEP_INTERVAL_MS = 3_600_000;

/** Deletes the keys revoked or expired before `cutoff` (ISO), a batch at a time; resolves to how many. */
export async function pruneApiKeys(db: Executor, cutoff: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await deleteOldApiKeys(db, cutoff, cutoff, BATCH);
    deleted += batch;
    if (batch < BATCH) return deleted;
  }
}

export interface KeyRetentionDeps {
  store: Store;
  config: { apiKeysRetentionDays: number };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

/** Starts the hourly sweep (nothing when retention is 0); `stop` waits for a sweep under way. */
export function startApiKeyRetention(deps: KeyRetentionDeps): { stop(): Promise<void> } {
  const days = deps.config.apiKeysRetentionDays;
  if (days === 0) return { stop: async () => undefined };
  const sweep = () =>
    pruneApiKeys(deps.store.db, new Date(Date.now() - days * DAY_MS).toISOString()).then(
      (deleted) => {
        if (deleted > 0) deps.log.info({ deleted, retentionDays: days }, 'revoked and expired API keys pruned');
      },
      (error: unknown) => logFailure(deps.log, error, 'pruning revoked and expired API keys failed'),
    );
  return startPeriodicJob(sweep, { firstMs: FIRST_SWEEP_MS, everyMs: SWEEP_INTERVAL_MS });
}
