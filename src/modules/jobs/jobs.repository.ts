import { sql, type Insertable, type Selectable } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { JobItemsTable, JobsTable } from '../../db/types.js';
import type { JobStatus } from '../../db/types.jobs.js';
import type { Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page, type SortKey } from '../../shared/pagination.js';

export type JobRow = Selectable<JobsTable>;
export type JobItemRow = Selectable<JobItemsTable>;

/** Rows per insert statement: well under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 200;

export async function insertJob(db: Executor, job: Insertable<JobsTable>, items: Insertable<JobItemsTable>[]): Promise<void> {
  await db.insertInto('jobs').values(job).execute();
  for (let i = 0; i < items.length; i += INSERT_CHUNK) await db.insertInto('job_items').values(items.slice(i, i + INSERT_CHUNK)).execute();
}

export function findJob(db: Executor, organizationId: string, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** A job's items in the order they were given. */
export function listItems(db: Executor, organizationId: string, jobId: string) {
  return db
    .selectFrom('job_items')
    .select(['ticket_id', 'status', 'detail'])
    .where('organization_id', '=', organizationId)
    .where('job_id', '=', jobId)
    .orderBy('position')
    .execute();
}

/**
 * Leases up to `limit` pending items whose lease is free (never taken, or run out) to `owner`
 * until `until`, oldest job first, counting the attempt. On PostgreSQL `skip locked` lets the
 * processes of a fleet claim different items of one job at once.
 */
export async function claimItems(db: Executor, claim: { owner: string; now: string; until: string; limit: number }): Promise<JobItemRow[]> {
  const skipLocked = dialectOf(db) === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<JobItemRow>`update job_items
    set lease_owner = ${claim.owner}, lease_expires_at = ${claim.until}, attempts = attempts + 1
    where id in (
      select id from job_items
      where status = 'pending' and (lease_expires_at is null or lease_expires_at <= ${claim.now})
      order by queued_at, job_id, position
      limit ${claim.limit}
      ${skipLocked}
    )
    returning *`.execute(db);
  return rows;
}

/**
 * Ends a pending item leased to `owner` as applied or failed; false when it is not (its lease ran
 * out and another process took it over, or it is finished). Called first in the transaction that
 * applies the item's actions: the row stays locked until that commits, so no item is applied twice.
 */
export async function finishItem(db: Executor, id: string, owner: string, end: { status: 'applied' | 'failed'; detail: string | null; now: string }): Promise<boolean> {
  const result = await db
    .updateTable('job_items')
    // lease_owner stays: which process did it (for operators, and the fleet test).
    .set({ status: end.status, detail: end.detail, finished_at: end.now, lease_expires_at: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Jobs whose first items were claimed now run. */
export async function markRunning(db: Executor, jobIds: string[], now: string): Promise<void> {
  if (jobIds.length === 0) return;
  await db.updateTable('jobs').set({ status: 'running', started_at: now }).where('id', 'in', jobIds).where('status', '=', 'queued').execute();
}

/** The number of a job's items in each state. */
export async function countItems(db: Executor, organizationId: string, jobId: string): Promise<Record<'pending' | 'applied' | 'failed', number>> {
  const rows = await db
    .selectFrom('job_items')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('organization_id', '=', organizationId)
    .where('job_id', '=', jobId)
    .groupBy('status')
    .execute();
  const counts = { pending: 0, applied: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

/** Ends a job as `status` unless it has ended already. */
export async function finishJob(db: Executor, organizationId: string, jobId: string, status: Extract<JobStatus, 'completed' | 'failed'>, now: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status, finished_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', jobId)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}


/** Jobs not yet ended whose items are all done: a process that died after a job's last item left it so. */
export function unfinishedJobsWithoutPending(db: Executor, limit: number) {
  return db
    .selectFrom('jobs')
    .select(['organization_id', 'id'])
    .where('status', 'in', ['queued', 'running'])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('job_items').select('job_items.id').whereRef('job_items.organization_id', '=', 'jobs.organization_id').whereRef('job_items.job_id', '=', 'jobs.id').where('job_items.status', '=', 'pending'),
        ),
      ),
    )
    .limit(limit)
    .execute();
}

/** Newest first, ties broken by id: GET /v1/jobs (jobs_org_created_idx). */
export const JOBS_ORDER: SortKey<{ created_at: string; id: string }> = { ...CREATED_ASC, direction: 'desc' };

/** One page of the organization's jobs, newest first. */
export function listJobs(db: Executor, organizationId: string, page: Page): Promise<JobRow[]> {
  return db.selectFrom('jobs').selectAll().where('organization_id', '=', organizationId).$call(paged(page, JOBS_ORDER)).execute();
}

/** The number of each job's items in each state, for a page of jobs (job_items_job_idx). */
export async function countItemsOfJobs(db: Executor, organizationId: string, jobIds: string[]): Promise<Map<string, Record<'pending' | 'applied' | 'failed', number>>> {
  const counts = new Map(jobIds.map((id) => [id, { pending: 0, applied: 0, failed: 0 }]));
  if (jobIds.length === 0) return counts;
  const rows = await db
    .selectFrom('job_items')
    .select(['job_id', 'status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('organization_id', '=', organizationId)
    .where('job_id', 'in', jobIds)
    .groupBy(['job_id', 'status'])
    .execute();
  for (const row of rows) counts.get(row.job_id)![row.status] = Number(row.n);
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Retention (jobs.retention.ts)

const FINISHED = ['completed', 'failed'] as const;

/** The organizations with jobs finished before `cutoff`. */
export async function organizationsWithFinishedJobs(db: Executor, cutoff: string): Promise<string[]> {
  const rows = await db.selectFrom('jobs').select('organization_id').distinct().where('status', 'in', FINISHED).where('finished_at', '<', cutoff).orderBy('organization_id').execute();
  return rows.map((r) => r.organization_id);
}

/** Up to `limit` of the organization's jobs finished before `cutoff`, oldest first (jobs_org_created_idx: a job ends after it is made). */
export function finishedJobsBefore(db: Executor, organizationId: string, cutoff: string, limit: number): Promise<Array<{ id: string; total: number | string }>> {
  return db
    .selectFrom('jobs')
    .select(['id', 'total'])
    .where('organization_id', '=', organizationId)
    .where('created_at', '<', cutoff)
    .where('status', 'in', FINISHED)
    .where('finished_at', '<', cutoff)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Deletes these jobs if they are still finished before `cutoff`; their items go with them (the foreign key cascades). */
export async function deleteFinishedJobs(db: Executor, organizationId: string, ids: string[], cutoff: string): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .deleteFrom('jobs')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .where('status', 'in', FINISHED)
    .where('finished_at', '<', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
