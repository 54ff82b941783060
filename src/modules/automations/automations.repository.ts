import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { AutomationsTable, TriggerRunsTable, TriggersTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';
import type { Where } from '../views/views.repository.js';

export type TriggerRow = Selectable<TriggersTable>;
export type AutomationRow = Selectable<AutomationsTable>;

const TRIGGER_COLUMNS = ['id', 'organization_id', 'name', 'on_types', 'conditions', 'actions', 'active', 'position', 'after_position', 'created_at', 'updated_at'] as const;
const AUTOMATION_COLUMNS = ['id', 'organization_id', 'name', 'conditions', 'actions', 'active', 'next_run_at', 'lease_owner', 'lease_expires_at', 'created_at', 'updated_at'] as const;
const skipLocked = (db: Executor) => (dialectOf(db) === 'postgres' ? sql`for update skip locked` : sql``);

// ---------------------------------------------------------------------------------------------
// Triggers

export async function insertTrigger(db: Executor, row: Insertable<TriggersTable>): Promise<void> {
  await db.insertInto('triggers').values(row).execute();
}

export function findTrigger(db: Executor, organizationId: string, id: string): Promise<TriggerRow | undefined> {
  return db.selectFrom('triggers').select(TRIGGER_COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function listTriggers(db: Executor, organizationId: string, page: Page): Promise<TriggerRow[]> {
  return db.selectFrom('triggers').select(TRIGGER_COLUMNS).where('organization_id', '=', organizationId).$call(paged(page, CREATED_ASC)).execute();
}

/** The active triggers of an organization in the order they run. */
export function activeTriggers(db: Executor, organizationId: string): Promise<TriggerRow[]> {
  return db
    .selectFrom('triggers')
    .select(TRIGGER_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('active', '=', 1)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countTriggers(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('triggers').select((eb) => eb.fn.countAll<number | string>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function lastTriggerPosition(db: Executor, organizationId: string): Promise<number | null> {
  const row = await db.selectFrom('triggers').select((eb) => eb.fn.max('position').as('p')).where('organization_id', '=', organizationId).executeTakeFirst();
  return row?.p === null || row?.p === undefined ? null : Number(row.p);
}

export async function updateTrigger(db: Executor, organizationId: string, id: string, changes: Updateable<TriggersTable>): Promise<void> {
  await db.updateTable('triggers').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteTrigger(db: Executor, organizationId: string, id: string): Promise<number> {
  const result = await db.deleteFrom('triggers').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------------
// The trigger worker's cursor per organization, its lease, and the runs.

/** Starts following the organization's log at `position`, unless it is followed already. */
export async function ensureTriggerCursor(db: Executor, organizationId: string, position: number): Promise<void> {
  await db.insertInto('trigger_cursors').values({ organization_id: organizationId, position, lease_owner: null, lease_expires_at: null }).onConflict((oc) => oc.column('organization_id').doNothing()).execute();
}

/**
 * Leases the cursor of one organization whose log has events past it, longest waiting first
 * (PostgreSQL: `skip locked`, so processes take different organizations at once).
 */
export async function claimTriggerCursor(db: Executor, claim: { owner: string; now: string; until: string }): Promise<{ organization_id: string; position: number } | undefined> {
  const { rows } = await sql<{ organization_id: string; position: number | string }>`update trigger_cursors
    set lease_owner = ${claim.owner}, lease_expires_at = ${claim.until}
    where organization_id = (
      select c.organization_id from trigger_cursors c
      join event_counters e on e.organization_id = c.organization_id
      where e.position > c.position and (c.lease_expires_at is null or c.lease_expires_at <= ${claim.now})
      order by c.lease_expires_at nulls first
      limit 1
      ${dialectOf(db) === 'postgres' ? sql`for update of c skip locked` : sql``}
    )
    returning organization_id, position`.execute(db);
  const row = rows[0];
  return row && { organization_id: row.organization_id, position: Number(row.position) };
}

/** Whether `owner` still holds the organization's cursor; locks its row to the end of the transaction (PostgreSQL). */
export async function holdsTriggerCursor(db: Executor, organizationId: string, owner: string): Promise<boolean> {
  let query = db.selectFrom('trigger_cursors').select('lease_owner').where('organization_id', '=', organizationId);
  if (dialectOf(db) === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row?.lease_owner === owner;
}

/** Moves the cursor and ends the lease (kept as the time of release, so the longest waiting goes next); false when no longer held. */
export async function releaseTriggerCursor(db: Executor, organizationId: string, owner: string, position: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('trigger_cursors')
    .set({ position, lease_owner: null, lease_expires_at: now })
    .where('organization_id', '=', organizationId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The events after the cursor (`after`, up to `through`) that a trigger could follow, in commit
 * order: of the `types` named, about a ticket, and not made by a trigger or an automation (so
 * that no trigger sets off another, or itself).
 */
export function eventsToFollow(db: Executor, organizationId: string, q: { after: number; through: number; limit: number; types: string[] }) {
  return db
    .selectFrom('events')
    .select(['id', 'position', 'type', 'actor_type', 'ticket_id'])
    .where('organization_id', '=', organizationId)
    .where('position', '>', q.after)
    .where('position', '<=', q.through)
    .where('type', 'in', q.types)
    .where('actor_type', 'not in', ['trigger', 'automation'])
    .where('ticket_id', 'is not', null)
    .orderBy('position')
    .limit(q.limit)
    .execute();
}

/** Which of `ticketIds` match `where` now. */
export async function ticketsMatching(db: Executor, organizationId: string, ticketIds: string[], where: Where): Promise<Set<string>> {
  if (ticketIds.length === 0) return new Set();
  const rows = await db.selectFrom('tickets').select('tickets.id').where('tickets.organization_id', '=', organizationId).where('tickets.id', 'in', ticketIds).where(where).execute();
  return new Set(rows.map((r) => r.id));
}

/** Which of `ticketIds` match each of `wheres` now (one set per where), in one query. */
export async function ticketsMatchingEach(db: Executor, organizationId: string, ticketIds: string[], wheres: Where[]): Promise<Array<Set<string>>> {
  const sets = wheres.map(() => new Set<string>());
  if (ticketIds.length === 0 || wheres.length === 0) return sets;
  const rows = (await db
    .selectFrom('tickets')
    .select((eb) => [
      'tickets.id',
      ...wheres.map((where, i) =>
        eb
          .case()
          .when(where(eb))
          .then(1)
          .else(0)
          .end()
          .as(`m${i}`),
      ),
    ])
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.id', 'in', ticketIds)
    .where((eb) => eb.or(wheres.map((where) => where(eb))))
    .execute()) as Array<{ id: string } & Record<string, unknown>>;
  for (const row of rows) wheres.forEach((_, i) => Number(row[`m${i}`]) === 1 && sets[i]!.add(row.id));
  return sets;
}

/** Records a run; false when the (trigger, event) has one already (it ran, or failed, before). */
export async function insertTriggerRun(db: Executor, row: Insertable<TriggerRunsTable>): Promise<boolean> {
  const result = await db
    .insertInto('trigger_runs')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'trigger_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function setTriggerRunError(db: Executor, organizationId: string, triggerId: string, eventId: string, error: string): Promise<void> {
  await db.updateTable('trigger_runs').set({ error }).where('organization_id', '=', organizationId).where('trigger_id', '=', triggerId).where('event_id', '=', eventId).execute();
}

// ---------------------------------------------------------------------------------------------
// Automations

export async function insertAutomation(db: Executor, row: Insertable<AutomationsTable>): Promise<void> {
  await db.insertInto('automations').values(row).execute();
}

export function findAutomation(db: Executor, organizationId: string, id: string): Promise<AutomationRow | undefined> {
  return db.selectFrom('automations').select(AUTOMATION_COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function listAutomations(db: Executor, organizationId: string, page: Page): Promise<AutomationRow[]> {
  return db.selectFrom('automations').select(AUTOMATION_COLUMNS).where('organization_id', '=', organizationId).$call(paged(page, CREATED_ASC)).execute();
}

export async function countAutomations(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('automations').select((eb) => eb.fn.countAll<number | string>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateAutomation(db: Executor, organizationId: string, id: string, changes: Updateable<AutomationsTable>): Promise<void> {
  await db.updateTable('automations').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteAutomation(db: Executor, organizationId: string, id: string): Promise<number> {
  const result = await db.deleteFrom('automations').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Leases up to `limit` active automations that are due, of any organization (PostgreSQL: `skip
 * locked`). Every organization holds at most MAX_AUTOMATIONS_PER_ORG of them.
 */
export async function claimDueAutomations(db: Executor, claim: { owner: string; now: string; until: string; limit: number }): Promise<AutomationRow[]> {
  const { rows } = await sql<AutomationRow>`update automations
    set lease_owner = ${claim.owner}, lease_expires_at = ${claim.until}
    where id in (
      select id from automations
      where active = 1 and next_run_at <= ${claim.now} and (lease_expires_at is null or lease_expires_at <= ${claim.now})
      order by next_run_at
      limit ${claim.limit}
      ${skipLocked(db)}
    )
    returning ${sql.join(AUTOMATION_COLUMNS.map((c) => sql.ref(c)))}`.execute(db);
  return rows;
}

/** Ends a lease with the automation's next turn; false when the lease was lost. */
export async function finishAutomationTurn(db: Executor, organizationId: string, id: string, owner: string, nextRunAt: string): Promise<boolean> {
  const result = await db
    .updateTable('automations')
    .set({ next_run_at: nextRunAt, lease_owner: null, lease_expires_at: null })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The time a ticket's current matching period is counted from: its last status change, else its creation. */
const SINCE = sql<string>`coalesce(tickets.status_changed_at, tickets.created_at)`;

/**
 * Up to `limit` tickets matching `where` that have not had the automation in this period: no
 * run, or a run from before the ticket's last status change.
 */
export function ticketsDueForAutomation(db: Executor, organizationId: string, automationId: string, where: Where, limit: number) {
  return db
    .selectFrom('tickets')
    .select(['tickets.id', 'tickets.ticket_number'])
    .where('tickets.organization_id', '=', organizationId)
    .where(where)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('automation_runs')
            .select(sql.lit(1).as('one'))
            .where('automation_runs.organization_id', '=', organizationId)
            .where('automation_runs.automation_id', '=', automationId)
            .whereRef('automation_runs.ticket_id', '=', 'tickets.id')
            .where('automation_runs.matched_since', '=', SINCE),
        ),
      ),
    )
    .orderBy('tickets.ticket_number')
    .limit(limit)
    .execute();
}

/** The ticket's matching period as automation_runs keeps it, when it (still) matches `where`. */
export async function matchingSince(db: Executor, organizationId: string, ticketId: string, where: Where): Promise<string | null> {
  const row = await db.selectFrom('tickets').select(SINCE.as('since')).where('tickets.organization_id', '=', organizationId).where('tickets.id', '=', ticketId).where(where).executeTakeFirst();
  return row ? String(row.since) : null;
}

export async function ticketSince(db: Executor, organizationId: string, ticketId: string): Promise<string | null> {
  const row = await db.selectFrom('tickets').select(SINCE.as('since')).where('tickets.organization_id', '=', organizationId).where('tickets.id', '=', ticketId).executeTakeFirst();
  return row ? String(row.since) : null;
}

/** Records the automation's run on a ticket in the period starting at `since`; false when it ran in that period already. */
export async function recordAutomationRun(db: Executor, row: { organization_id: string; automation_id: string; ticket_id: string; matched_since: string; created_at: string }): Promise<boolean> {
  const result = await db
    .insertInto('automation_runs')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'automation_id', 'ticket_id'])
        .doUpdateSet({ matched_since: row.matched_since, created_at: row.created_at })
        .where('automation_runs.matched_since', '<>', row.matched_since),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function setAutomationRunSince(db: Executor, organizationId: string, automationId: string, ticketId: string, since: string): Promise<void> {
  await db
    .updateTable('automation_runs')
    .set({ matched_since: since })
    .where('organization_id', '=', organizationId)
    .where('automation_id', '=', automationId)
    .where('ticket_id', '=', ticketId)
    .execute();
}

/** Re-arms: forgets up to `limit` runs whose ticket no longer matches (or is gone), so it gets the automation when it matches again. */
export async function forgetUnmatchedRuns(db: Executor, organizationId: string, automationId: string, where: Where, limit: number): Promise<number> {
  const stale = await db
    .selectFrom('automation_runs')
    .select('automation_runs.ticket_id')
    .where('automation_runs.organization_id', '=', organizationId)
    .where('automation_runs.automation_id', '=', automationId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('tickets')
            .select(sql.lit(1).as('one'))
            .where('tickets.organization_id', '=', organizationId)
            .whereRef('tickets.id', '=', 'automation_runs.ticket_id')
            .where(where as never),
        ),
      ),
    )
    .limit(limit)
    .execute();
  if (stale.length === 0) return 0;
  const result = await db
    .deleteFrom('automation_runs')
    .where('organization_id', '=', organizationId)
    .where('automation_id', '=', automationId)
    .where('ticket_id', 'in', stale.map((r) => r.ticket_id))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------------
// Retention of runs (automations.retention.ts)

/** The organizations that follow their log for triggers (every one that has had a trigger). */
export async function organizationsWithTriggerCursors(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('trigger_cursors').select('organization_id').orderBy('organization_id').execute();
  return rows.map((r) => r.organization_id);
}

/** The organizations that have automations (their runs go with them). */
export async function organizationsWithAutomations(db: Executor): Promise<string[]> {
  const rows = await db.selectFrom('automations').select('organization_id').distinct().orderBy('organization_id').execute();
  return rows.map((r) => r.organization_id);
}

/** A trigger run (`alias`) whose event the worker can never read again: at or before the cursor, or gone. */
const triggerRunDone = (alias: string) => sql`exists (select 1 from trigger_cursors c where c.organization_id = ${sql.ref(`${alias}.organization_id`)}
  and not exists (select 1 from events e where e.organization_id = ${sql.ref(`${alias}.organization_id`)}
    and e.ticket_id = ${sql.ref(`${alias}.ticket_id`)} and e.position > c.position and e.id = ${sql.ref(`${alias}.event_id`)}))`;

/**
 * Deletes up to `limit` of the organization's trigger runs made before `cutoff` (oldest first, by
 * trigger_runs_org_created_idx) whose event the worker can never read again: an event at or before
 * the organization's cursor, or gone from the log. The cursor only moves forward, and past an event
 * only once its runs have committed; a process taking a lease over re-reads from the cursor as it
 * is stored. So a run of an event past the cursor (what makes a retry of it a no-op) stays however
 * old, and one at or before it can never be needed again. The run's event is looked for among its
 * ticket's events past the cursor (events_org_ticket_idx), and the check is made again on the row
 * deleted, not only in the batch's choice.
 */
export async function pruneTriggerRuns(db: Executor, organizationId: string, cutoff: string, limit: number): Promise<number> {
  const result = await sql`delete from trigger_runs
    where organization_id = ${organizationId} and created_at < ${cutoff} and ${triggerRunDone('trigger_runs')}
      and (trigger_id, event_id) in (
        select r.trigger_id, r.event_id from trigger_runs r
        where r.organization_id = ${organizationId} and r.created_at < ${cutoff} and ${triggerRunDone('r')}
        order by r.created_at
        limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** An automation run (`alias`) that holds nothing back: its ticket is gone, or in a later period than the one it ran in. */
const automationRunDone = (alias: string) => sql`not exists (select 1 from tickets t where t.organization_id = ${sql.ref(`${alias}.organization_id`)}
  and t.id = ${sql.ref(`${alias}.ticket_id`)} and coalesce(t.status_changed_at, t.created_at) = ${sql.ref(`${alias}.matched_since`)})`;

/**
 * Deletes up to `limit` of the organization's automation runs made before `cutoff` (oldest first,
 * by automation_runs_org_created_idx) that hold nothing back: the ticket is gone, or its status has
 * changed since the run (a new period, in which the automation may run again anyway). A run of a
 * ticket still in the period it ran in is kept however old: without it the automation would run on
 * that ticket again while it still matches (docs/architecture.md#retention-of-runs-and-jobs).
 */
export async function pruneAutomationRuns(db: Executor, organizationId: string, cutoff: string, limit: number): Promise<number> {
  const result = await sql`delete from automation_runs
    where organization_id = ${organizationId} and created_at < ${cutoff} and ${automationRunDone('automation_runs')}
      and (automation_id, ticket_id) in (
        select r.automation_id, r.ticket_id from automation_runs r
        where r.organization_id = ${organizationId} and r.created_at < ${cutoff} and ${automationRunDone('r')}
        order by r.created_at
        limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
