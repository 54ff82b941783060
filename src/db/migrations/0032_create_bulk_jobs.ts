import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Bulk changes (docs/api-behaviour.md, Bulk changes and jobs): a durable job per request and one
 * item per ticket. Items are worked by a leased job (`lease_owner`, `lease_expires_at`) so the
 * processes of a fleet share one job's items and a dead process's items are finished by another;
 * an item is marked `applied` in the transaction that changes its ticket, so none is applied twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('actions', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .addPrimaryKeyConstraint('jobs_pkey', ['organization_id', 'id'])
    .execute();
  // Jobs not yet ended (a dead process's last item may leave one so until a worker sees it).
  await db.schema.createIndex('jobs_unfinished_idx').on('jobs').columns(['created_at']).where(sql<boolean>`status in ('queued', 'running')`).execute();
  await db.schema
    .createTable('job_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('finished_at', 'text')
    .addForeignKeyConstraint('job_items_job_fkey', ['organization_id', 'job_id'], 'jobs', ['organization_id', 'id'], (c) => c.onDelete('cascade'))
    .execute();
  // A job's items in order (its results, its counts).
  await db.schema.createIndex('job_items_job_idx').on('job_items').columns(['organization_id', 'job_id', 'position']).execute();
  // The workers' queue: pending items, oldest job first.
  await db.schema.createIndex('job_items_pending_idx').on('job_items').columns(['queued_at', 'job_id', 'position']).where(sql.ref('status'), '=', 'pending').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_items').ifExists().execute();
  await db.schema.dropTable('jobs').ifExists().execute();
}
