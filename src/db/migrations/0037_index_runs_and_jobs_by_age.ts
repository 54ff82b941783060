import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Indexes by age, each led by the organization:
 * - `jobs (organization_id, created_at, id)`: the organization's jobs newest first (GET /v1/jobs,
 *   keyset paging) and the retention of finished jobs (oldest first);
 * - `trigger_runs` and `automation_runs (organization_id, created_at)`: their retention, oldest
 *   first, a small batch at a time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('jobs_org_created_idx').on('jobs').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('trigger_runs_org_created_idx').on('trigger_runs').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('automation_runs_org_created_idx').on('automation_runs').columns(['organization_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('automation_runs_org_created_idx').execute();
  await db.schema.dropIndex('trigger_runs_org_created_idx').execute();
  await db.schema.dropIndex('jobs_org_created_idx').execute();
}
