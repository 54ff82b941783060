import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.js';
import type { Executor } from '../../shared/executor.js';
import { toIso } from '../../shared/time.js';
import { oldestPositionNeeded } from '../webhooks/webhooks.repository.js';
import { deleteEventsThrough, oldestEvents, organizationsWithEvents } from './events.repository.js';
import { logFailure } from '../../http/error-handler.js';
import { startPeriodicJob } from '../../shared/periodic-job.js';

/**
 * Retention of the event log (EVENTS_RETENTION_DAYS, default 30; 0 keeps everything): events older
 * than that are deleted, oldest first, with their webhook delivery log. What is kept is therefore
 * always the newest part of each organization's feed, with no holes, so a feed cursor older than
 * what is kept is recognised (410) rather than silently skipping. An event that an active webhook
 * endpoint has not received yet is kept however old; paused and disabled endpoints hold nothing back.
 */

const BATCH = 1_000;
const DAY_MS = 86_400_000;
/** The sweep runs shortly after the start and then every hour. */
const FIRST_SWEEP_MS = 60_000;
const SWEEP_INTERVAL_MS = 3_600_000;

/** Deletes the events older than `cutoff` (ISO) that nothing still needs; resolves to how many. */
export async function pruneEvents(db: Executor, cutoff: string): Promise<number> {
  let deleted = 0;
  for (const organizationId of await organizationsWithEvents(db)) {
    const needed = await oldestPositionNeeded(db, organizationId);
    for (;;) {
      const batch = await oldestEvents(db, organizationId, BATCH);
      let through: number | null = null;
      for (const event of batch) {
        const position = Number(event.position);
        if (toIso(event.occurred_at) >= cutoff || (needed !== null && position >= needed)) break;
        through = position;
      }
      if (through === null) break;
      deleted += await deleteEventsThrough(db, organizationId, through);
      if (through !== Number(batch[batch.length - 1]!.position)) break;
    }
  }
  return deleted;
}

export interface RetentionDeps {
  store: Store;
  config: { eventsRetentionDays: number };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

/** Starts the hourly sweep (nothing when retention is 0); `stop` waits for a sweep under way. */
export function startEventRetention(deps: RetentionDeps): { stop(): Promise<void> } {
  const days = deps.config.eventsRetentionDays;
  if (days === 0) return { stop: async () => undefined };
  const sweep = () =>
    pruneEvents(deps.store.db, new Date(Date.now() - days * DAY_MS).toISOString()).then(
      (deleted) => {
        if (deleted > 0) deps.log.info({ deleted, retentionDays: days }, 'old events pruned');
      },
      (error: unknown) => logFailure(deps.log, error, 'pruning old events failed'),
    );
  return startPeriodicJob(sweep, { firstMs: FIRST_SWEEP_MS, everyMs: SWEEP_INTERVAL_MS });
}
