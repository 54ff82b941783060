import { sql, type Insertable, type Selectable } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { JobItemsTable, JobsTable } from '../../db/types.js';
import type { JobStatus } from '../../db/types.jobs.js';
import type { Executor } from '../../shared/executor.js';

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
