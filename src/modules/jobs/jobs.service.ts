import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import { AppError, errors } from '../../errors.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso, toIsoOrNull } from '../../shared/time.js';
import { actorOf } from '../events/events.log.js';
import { viewTickets } from '../views/views.service.js';
import { actingUserOf, checkActions, scopesOfActions, type Actions } from '../macros/actions.js';
import * as repo from './jobs.repository.js';
import { MAX_BULK_TICKETS, type BulkBody, type Job, type JobSummary } from './jobs.schemas.js';

export interface JobDeps {
  store: Store;
  config: Config;
}

const queued = new EventEmitter().setMaxListeners(0);

/** Calls `listener` each time this process queues a job, so its worker starts at once (others poll). */
export function onJobQueued(listener: () => void): () => void {
  queued.on('queued', listener);
  return () => queued.off('queued', listener);
}

/**
 * The tickets a bulk change names: its ids (each once, in order), or the tickets a view the
 * caller sees matches now, in the view's order. Ids are not checked here: one that names no
 * ticket of the organization fails as its item ("Ticket not found"), as one deleted meanwhile does.
 */
async function ticketIdsOf(deps: JobDeps, auth: AuthContext, body: BulkBody): Promise<string[]> {
  if (body.ids !== undefined && body.view_id !== undefined) throw errors.invalidField('body.view_id', 'give either ids or view_id, not both');
  if (body.ids !== undefined) return [...new Set(body.ids)];
  if (body.view_id === undefined) throw errors.invalidField('body.ids', 'give the tickets to change: ids, or a view_id');
  let tickets;
  try {
    ({ tickets } = await viewTickets(deps, auth, body.view_id, { limit: MAX_BULK_TICKETS + 1, offset: 0 }));
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) throw errors.invalidField('body.view_id', 'does not name a view this caller sees');
    throw error;
  }
  if (tickets.length > MAX_BULK_TICKETS) {
    throw errors.invalidField('body.view_id', `the view matches more than ${MAX_BULK_TICKETS.toLocaleString('en-US')} tickets, the most one bulk change takes: narrow it, or give ids`);
  }
  return tickets.map((t) => t.id);
}

/** The action list checked once, up front: the scopes it needs, "me" only with a user behind the request, every value (422 naming the action). */
async function checkedActions(deps: JobDeps, auth: AuthContext, actions: Actions): Promise<Actions> {
  const missing = scopesOfActions(actions).find((scope) => !auth.scopes.has(scope));
  if (missing !== undefined) throw errors.forbidden(missing);
  const me = actions.findIndex((a) => a.field === 'assigned_user_id' && a.value === 'me');
  if (me >= 0 && actingUserOf(actorOf(auth)) === null) {
    throw errors.invalidField(`body.actions[${me}].value`, '"me" needs a user applying the actions: sign in, or use an API key with a holder user');
  }
  return checkActions(deps.store.db, auth.organizationId, actions, 'body.actions');
}

/** Checks the request, then writes the job and one pending item per ticket in one transaction; the worker does the rest. */
export async function createBulkJob(deps: JobDeps, auth: AuthContext, body: BulkBody): Promise<string> {
  const ticketIds = await ticketIdsOf(deps, auth, body);
  const actions = await checkedActions(deps, auth, body.actions);
  const id = randomUUID();
  const now = nowIso();
  await deps.store.db.transaction().execute((trx) =>
    repo.insertJob(
      trx,
      {
        id,
        organization_id: auth.organizationId,
        kind: 'ticket_bulk',
        status: ticketIds.length === 0 ? 'completed' : 'queued',
        actions: JSON.stringify(actions),
        actor: JSON.stringify(actorOf(auth)),
        total: ticketIds.length,
        created_at: now,
        started_at: null,
        finished_at: ticketIds.length === 0 ? now : null,
      },
      ticketIds.map((ticketId, position) => ({
        id: randomUUID(),
        organization_id: auth.organizationId,
        job_id: id,
        position,
        ticket_id: ticketId,
        status: 'pending' as const,
        detail: null,
        attempts: 0,
        queued_at: now,
        lease_owner: null,
        lease_expires_at: null,
        finished_at: null,
      })),
    ),
  );
  queued.emit('queued');
  return id;
}

/** A job with its counts and per-ticket results; another organization's is not found. */
export async function getJob(deps: JobDeps, organizationId: string, id: string): Promise<Job> {
  const db = deps.store.db;
  const job = await repo.findJob(db, organizationId, id);
  if (!job) throw errors.notFound('Job');
  const items = await repo.listItems(db, organizationId, id);
  const counts = { pending: 0, applied: 0, failed: 0 };
  const results = items.map((item) => {
    counts[item.status]++;
    return item.status === 'failed' ? { ticket_id: item.ticket_id, status: item.status, detail: item.detail ?? 'failed' } : { ticket_id: item.ticket_id, status: item.status };
  });
  return { ...presentSummary(job, counts), results };
}

/** One job row and its item counts as the API shows it, results aside. */
function presentSummary(job: repo.JobRow, counts: Record<'pending' | 'applied' | 'failed', number>): JobSummary {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    total: Number(job.total),
    done: counts.applied + counts.failed,
    failed: counts.failed,
    created_at: toIso(job.created_at),
    started_at: toIsoOrNull(job.started_at),
    finished_at: toIsoOrNull(job.finished_at),
  };
}

/** A page of the organization's jobs, newest first, with their progress (one count query for the page). */
export async function listJobs(deps: JobDeps, organizationId: string, page: Page): Promise<JobSummary[]> {
  const db = deps.store.db;
  const jobs = await repo.listJobs(db, organizationId, page);
  const counts = await repo.countItemsOfJobs(db, organizationId, jobs.map((j) => j.id));
  return jobs.map((job) => presentSummary(job, counts.get(job.id)!));
}
