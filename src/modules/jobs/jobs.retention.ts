import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.js';
import { logFailure } from '../../http/error-handler.js';
import { startPeriodicJob } from '../../shared/periodic-job.js';
import type { Executor } from '../../shared/executor.js';
import * as repo from './jobs.repository.js';

/**
 * Retention of bulk jobs (JOBS_RETENTION_DAYS, default 30; 0 keeps them): a job that ended (completed
 * or failed) that many days ago is deleted with its items, oldest first, hourly. A job still queued or
 * running is never deleted. Each statement deletes whole jobs (never a job without its items) and
 * about ITEMS_PER_BATCH items at most: jobs are taken while their items fit, and at least one.
 * A deleted job is not found (404) and leaves GET /v1/jobs.
 */

export const ITEMS_PER_BATCH = 1_000;
/** Jobs looked at per statement. */
const JOBS_PER_BATCH = 50;
const DAY_MS = 86_400_000;
/** The sweep runs shortly after the start and then every hour, as the event log's does. */
const FIRST_SWEEP_MS = 60_000;
const SWEEP_INTERVAL_MS = 3_600_000;

/** Deletes the jobs that ended before `cutoff` (ISO); resolves to how many jobs, and in how many statements. */
export async function pruneJobs(db: Executor, cutoff: string, itemsPerBatch = ITEMS_PER_BATCH): Promise<{ jobs: number; batches: number }> {
  let jobs = 0;
  let batches = 0;
  for (const org of await repo.organizationsWithFinishedJobs(db, cutoff)) {
    for (;;) {
      const candidates = await repo.finishedJobsBefore(db, org, cutoff, JOBS_PER_BATCH);
      if (candidates.length === 0) break;
      const ids: string[] = [];
      let items = 0;
      for (const job of candidates) {
        if (ids.length > 0 && items + Number(job.total) > itemsPerBatch) break;
        ids.push(job.id);
        items += Number(job.total);
      }
      const deleted = await repo.deleteFinishedJobs(db, org, ids, cutoff);
      batches += 1;
      jobs += deleted;
      if (deleted === 0) break;
    }
  }
  return { jobs, batches };
}

export interface JobRetentionDeps {
  store: Store;
  config: { jobs: { retentionDays: number } };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

/** Starts the hourly sweep (nothing when retention is 0); `stop` waits for a sweep under way. */
export function startJobRetention(deps: JobRetentionDeps): { stop(): Promise<void> } {
  const days = deps.config.jobs.retentionDays;
  if (days === 0) return { stop: async () => undefined };
  const sweep = () =>
    pruneJobs(deps.store.db, new Date(Date.now() - days * DAY_MS).toISOString()).then(
      ({ jobs }) => {
        if (jobs > 0) deps.log.info({ jobs, retentionDays: days }, 'old bulk jobs pruned');
      },
      (error: unknown) => logFailure(deps.log, error, 'pruning old bulk jobs failed'),
    );
  return startPeriodicJob(sweep, { firstMs: FIRST_SWEEP_MS, everyMs: SWEEP_INTERVAL_MS });
}
