import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setImmediate as turn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import { AppError } from '../../errors.js';
import { logFailure } from '../../http/error-handler.js';
import { startLeasedWorker } from '../../shared/leased-worker.js';
import { nowIso } from '../../shared/time.js';
import { withEvents, type Actor } from '../events/events.log.js';
import { applyActions, type Actions } from '../macros/actions.js';
import type { Mailer } from '../mail/mail.outbox.js';
import * as repo from './jobs.repository.js';
import { onJobQueued } from './jobs.service.js';

/**
 * The bulk job (docs/api-behaviour.md#bulk-changes-and-jobs): applies each pending item's actions
 * to its ticket, one transaction per ticket with its own events. Every process takes part: each
 * claims a batch of items with a lease (PostgreSQL `for update skip locked`), so a fleet shares one
 * job's items. An item is marked applied in the very transaction that changes its ticket, so a
 * process killed mid-job leaves its uncommitted items pending; once their lease runs out
 * (JOBS_LEASE_MS) any process does them, and nothing is applied twice.
 */
export interface BulkWorkerDeps {
  store: Store;
  config: Pick<Config, 'jobs'>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
  /** Public comments of the actions are mailed to the customer, as the comments route mails them. */
  mailer?: Mailer | undefined;
}

export interface BulkWorker {
  /** Works one batch of due items; resolves to how many it claimed (for tests and the bench). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Items claimed at once, and worked at once by one process (one transaction each; on PostgreSQL up
 * to LANES connections of the pool). 8 lanes against 4: a 1,000-ticket job in 17.9 s against
 * 23.4 s on PostgreSQL (bench/RESULTS.md, Bulk changes).
 */
const BATCH = 32;
const LANES = 8;
/** A failure that is not the ticket's (the store, say) is retried after the lease, this often in all. */
const MAX_ATTEMPTS = 5;

/** The item's lease went to another process: leave it to that one. */
class NotLeased extends Error {}

interface JobInfo {
  actions: Actions;
  actor: Actor;
}

export function startBulkWorker(deps: BulkWorkerDeps): BulkWorker {
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const db = deps.store.db;

  const jobInfo = async (item: repo.JobItemRow, cache: Map<string, JobInfo | null>): Promise<JobInfo | null> => {
    if (!cache.has(item.job_id)) {
      const job = await repo.findJob(db, item.organization_id, item.job_id);
      cache.set(item.job_id, job ? { actions: JSON.parse(job.actions) as Actions, actor: JSON.parse(job.actor) as Actor } : null);
    }
    return cache.get(item.job_id)!;
  };

  const work = async (item: repo.JobItemRow, info: JobInfo): Promise<void> => {
    const org = item.organization_id;
    try {
      await withEvents(db, org, info.actor, async (trx, events) => {
        if (!(await repo.finishItem(trx, item.id, owner, { status: 'applied', detail: null, now: nowIso() }))) throw new NotLeased();
        await applyActions(trx, { organizationId: org, events, mailer: deps.mailer, at: 'actions' }, item.ticket_id, info.actions, info.actor);
      });
    } catch (error) {
      if (error instanceof NotLeased) return;
      // The ticket cannot take the change (gone, or an action no longer fits it): its item fails.
      if (error instanceof AppError && error.statusCode < 500) {
        await repo.finishItem(db, item.id, owner, { status: 'failed', detail: error.detail, now: nowIso() });
        return;
      }
      logFailure(deps.log, error, 'bulk job item failed', { jobId: item.job_id, ticketId: item.ticket_id, attempts: item.attempts });
      // Else it stays leased and is tried again when the lease runs out, up to MAX_ATTEMPTS.
      if (item.attempts >= MAX_ATTEMPTS) {
        await repo.finishItem(db, item.id, owner, { status: 'failed', detail: `the change could not be made (${MAX_ATTEMPTS} attempts)`, now: nowIso() });
      }
    }
  };

  /** Ends jobs with nothing pending: completed, or failed when every ticket failed. */
  const finishIfDone = async (organizationId: string, jobId: string): Promise<void> => {
    const counts = await repo.countItems(db, organizationId, jobId);
    if (counts.pending > 0) return;
    await repo.finishJob(db, organizationId, jobId, counts.applied === 0 && counts.failed > 0 ? 'failed' : 'completed', nowIso());
  };

  const runOnce = async (): Promise<number> => {
    const now = nowIso();
    const items = await repo.claimItems(db, { owner, now, until: new Date(Date.now() + deps.config.jobs.leaseMs).toISOString(), limit: BATCH });
    if (items.length === 0) {
      for (const job of await repo.unfinishedJobsWithoutPending(db, 20)) await finishIfDone(job.organization_id, job.id);
      return 0;
    }
    await repo.markRunning(db, [...new Set(items.map((i) => i.job_id))], now);
    const cache = new Map<string, JobInfo | null>();
    const queue = [...items];
    const lane = async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const info = await jobInfo(item, cache);
        if (info) await work(item, info);
        // SQLite answers synchronously: without a turn of the event loop between items, a job
        // would hold the process, and requests would wait for all of it.
        await turn();
      }
    };
    await Promise.all(Array.from({ length: Math.min(LANES, items.length) }, lane));
    const jobs = new Map(items.map((i) => [i.job_id, i.organization_id]));
    for (const [jobId, organizationId] of jobs) await finishIfDone(organizationId, jobId);
    return items.length;
  };

  const worker = startLeasedWorker({ name: 'bulk job', batch: runOnce, pollIntervalMs: deps.config.jobs.pollIntervalMs, wakeOn: onJobQueued, log: deps.log });
  return { runOnce: () => worker.runOnce(), stop: () => worker.stop() };
}
