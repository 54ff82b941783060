import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * The dashboard reads its counts from `dashboard_totals` (migration 0012): the two
 * indexes of migration 0004 that only served its whole-organization aggregates are no longer read
 * and would cost every ticket write. The created, resolved and due-date indexes stay: the
 * dashboard still reads the edge hour of each time window from them, and the median from the
 * resolved one.
 */
const OPEN_STATUSES = ['new', 'open', 'pending'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('tickets_open_org_assignee_idx').ifExists().execute();
  await db.schema.dropIndex('tickets_org_status_priority_idx').ifExists().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('tickets_org_status_priority_idx').on('tickets').columns(['organization_id', 'status', 'priority']).execute();
  await db.schema
    .createIndex('tickets_open_org_assignee_idx')
    .on('tickets')
    .columns(['organization_id', 'assigned_user_id', 'assigned_team_id', 'status'])
    .where(sql.ref('status'), 'in', OPEN_STATUSES)
    .execute();
}
