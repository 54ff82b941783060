import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.js';
import { logFailure } from '../../http/error-handler.js';
import { startPeriodicJob } from '../../shared/periodic-job.js';
import type { Executor } from '../../shared/executor.js';
import * as repo from './automations.repository.js';

/**
 * Retention of trigger and automation runs (AUTOMATION_RUNS_RETENTION_DAYS, default 30; 0 keeps
 * them): rows older than that are deleted hourly, a small batch per statement, as far as deleting
 * them cannot run a rule twice (docs/architecture.md#retention-of-runs-and-jobs):
 * - a trigger run, once its event is at or before the trigger worker's cursor (or pruned from the
 *   log): the worker never reads it again, so nothing can ask whether it ran;
 * - an automation run, once its ticket is gone or has changed status since (a new period): a run of
 *   a ticket still in its period is what keeps the automation from running on it again, so it stays.
 */

export const BATCH = 500;
const DAY_MS = 86_400_000;
/** The sweep runs shortly after the start and then every hour, as the event log's does. */
const FIRST_SWEEP_MS = 60_000;
const SWEEP_INTERVAL_MS = 3_600_000;

export interface Pruned {
  triggerRuns: number;
  automationRuns: number;
  /** Delete statements run (each at most `batch` rows). */
  batches: number;
}

/** Deletes the runs made before `cutoff` (ISO) that nothing can need, `batch` rows a statement. */
export async function pruneRuleRuns(db: Executor, cutoff: string, batch = BATCH): Promise<Pruned> {
  const pruned: Pruned = { triggerRuns: 0, automationRuns: 0, batches: 0 };
  const drain = async (prune: () => Promise<number>): Promise<number> => {
    let deleted = 0;
    for (;;) {
      const n = await prune();
      pruned.batches += 1;
      deleted += n;
      if (n < batch) return deleted;
    }
  };
  for (const org of await repo.organizationsWithTriggerCursors(db)) pruned.triggerRuns += await drain(() => repo.pruneTriggerRuns(db, org, cutoff, batch));
  for (const org of await repo.organizationsWithAutomations(db)) pruned.automationRuns += await drain(() => repo.pruneAutomationRuns(db, org, cutoff, batch));
  return pruned;
}

export interface RuleRunRetentionDeps {
  store: Store;
  config: { automationRunsRetentionDays: number };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

/** Starts the hourly sweep (nothing when retention is 0); `stop` waits for a sweep under way. */
export function startRuleRunRetention(deps: RuleRunRetentionDeps): { stop(): Promise<void> } {
  const days = deps.config.automationRunsRetentionDays;
  if (days === 0) return { stop: async () => undefined };
  const sweep = () =>
    pruneRuleRuns(deps.store.db, new Date(Date.now() - days * DAY_MS).toISOString()).then(
      ({ triggerRuns, automationRuns }) => {
        if (triggerRuns + automationRuns > 0) deps.log.info({ triggerRuns, automationRuns, retentionDays: days }, 'old trigger and automation runs pruned');
      },
      (error: unknown) => logFailure(deps.log, error, 'pruning old trigger and automation runs failed'),
    );
  return startPeriodicJob(sweep, { firstMs: FIRST_SWEEP_MS, everyMs: SWEEP_INTERVAL_MS });
}
