import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * The statuses of a ticket that is still being worked on. Frozen here: a migration must not change
 * when code elsewhere does. The dashboard queries repeat the same list, literally and in this
 * order, because a partial index is only used when the query's condition matches its own.
 */
const OPEN_STATUSES = ['new', 'open', 'pending'];

/**
 * Indexes behind `GET /v1/dashboard`, so that every figure is an aggregate over an index range of
 * one organization and never a read of the tickets themselves. Each one leads with the
 * organization. Partial indexes (both SQLite and PostgreSQL have them) leave out what a figure
 * never reads: the open-ticket indexes hold only open tickets, which a helpdesk keeps to a small
 * share of all its tickets, and the resolution index only resolved ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Counts by status and by priority: one ordered pass, grouped as the index is sorted.
  await db.schema.createIndex('tickets_org_status_priority_idx').on('tickets').columns(['organization_id', 'status', 'priority']).execute();
  // Tickets created in the last 24 hours / 7 days: a range of this index.
  await db.schema.createIndex('tickets_org_created_idx').on('tickets').columns(['organization_id', 'created_at']).execute();
  // Resolved in the last 24 hours / 7 days / 30 days, and the resolution times (created_at is in
  // the index, so the median never reads the table).
  await db.schema
    .createIndex('tickets_org_resolved_idx')
    .on('tickets')
    .columns(['organization_id', 'resolved_at', 'created_at'])
    .where('resolved_at', 'is not', null)
    .execute();
  // Open tickets per agent and per team in one pass, grouped by (agent, team) as the index is
  // sorted; the null groups are "no agent" and "no team". `status` is in the index although the
  // condition fixes it: SQLite checks the query's status condition against the index entry, and
  // without the column it would read every open ticket's row to do so.
  await db.schema
    .createIndex('tickets_open_org_assignee_idx')
    .on('tickets')
    .columns(['organization_id', 'assigned_user_id', 'assigned_team_id', 'status'])
    .where(sql.ref('status'), 'in', OPEN_STATUSES)
    .execute();
  // Overdue: open tickets with a due date, in due-date order.
  await db.schema
    .createIndex('tickets_open_org_due_idx')
    .on('tickets')
    .columns(['organization_id', 'due_date', 'status'])
    .where((eb) => eb.and([eb(sql.ref('status'), 'in', OPEN_STATUSES), eb('due_date', 'is not', null)]))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'tickets_open_org_due_idx',
    'tickets_open_org_assignee_idx',
    'tickets_org_resolved_idx',
    'tickets_org_created_idx',
    'tickets_org_status_priority_idx',
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
}
