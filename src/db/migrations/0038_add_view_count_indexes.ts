import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Indexes that let the counts of the usual views (`GET /v1/views/counts`) read only the index
 * entries they count, never the tickets table (figures: bench/RESULTS.md, Views):
 *
 * - `tickets_org_status_assignee_idx` (organization, status, assignee): "Unassigned" and "assigned
 *   to me" within a set of statuses, one seek per status (the assignee index alone made the store
 *   read every unassigned ticket's row to test its status).
 * - `tickets_org_status_due_idx` (organization, status, due date), only tickets with a due date:
 *   "Overdue" (due before now, within a set of statuses), one range per status. The partial index
 *   of migration 0004 (open statuses only) serves the dashboard, whose statuses are written into
 *   its SQL; SQLite cannot prove that a view's statuses, sent as parameters, imply its condition,
 *   and scanned the table. `due_date < ?` implies `due_date is not null` on both stores.
 *
 * A SQLite file that has been analyzed (sqlite_stat1) gets the new indexes' statistics too: without
 * them its planner took an index it knew nothing of for the rest, e.g. "urgent, not solved"
 * read every open ticket's row through the new assignee index (12 s at a million, against 0.3 s).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tickets_org_status_assignee_idx').on('tickets').columns(['organization_id', 'status', 'assigned_user_id']).execute();
  await db.schema
    .createIndex('tickets_org_status_due_idx')
    .on('tickets')
    .columns(['organization_id', 'status', 'due_date'])
    .where(sql.ref('due_date'), 'is not', null)
    .execute();
  if (dialectOf(db) === 'sqlite') {
    const { rows } = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_stat1'`.execute(db);
    if (Number(rows[0]?.n) > 0) {
      await sql`analyze tickets_org_status_assignee_idx`.execute(db);
      await sql`analyze tickets_org_status_due_idx`.execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tickets_org_status_due_idx').execute();
  await db.schema.dropIndex('tickets_org_status_assignee_idx').execute();
}
