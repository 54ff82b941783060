import { sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Executor } from '../../shared/executor.js';
import { findTicket, TICKET_COLUMNS, updateTicket, type TicketColumns } from '../tickets/tickets.repository.js';
import type { SlaColumns } from './sla.hooks.js';

/** The SLA sweeper's statements: the job lease, and the index of the next deadline. */

/**
 * Takes or renews the lease of job `name` until `until`: granted when no one holds it, this
 * owner holds it, or its holder's lease ran out (a process that died). True when granted.
 */
export async function takeLease(db: Executor, name: string, owner: string, now: string, until: string): Promise<boolean> {
  await db.insertInto('job_leases').values({ name, owner, expires_at: now }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const result = await db
    .updateTable('job_leases')
    .set({ owner, expires_at: until })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('owner', '=', owner), eb('expires_at', '<=', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives the lease up (a process stopping), so another process takes it at once. */
export async function releaseLease(db: Executor, name: string, owner: string, now: string): Promise<void> {
  await db.updateTable('job_leases').set({ expires_at: now }).where('name', '=', name).where('owner', '=', owner).execute();
}

/**
 * The tickets with an SLA instant at or before `now`, earliest first: a range read of
 * tickets_next_sla_deadline_idx, which holds only tickets with a clock still to fire.
 */
export function dueTickets(db: Executor, now: string, limit: number): Promise<Array<{ organization_id: string; id: string }>> {
  return db
    .selectFrom('tickets')
    .select(['organization_id', 'id'])
    .where('next_sla_deadline_at', '<=', now)
    .orderBy('next_sla_deadline_at')
    .limit(limit)
    .execute();
}

/**
 * SQLite: takes the ticket for the transaction when it is still due (the write lock at once, so
 * what is read next cannot go stale): false when another sweep or a change of the ticket got there
 * first.
 */
async function claimDueTicket(trx: Executor, organizationId: string, id: string, now: string): Promise<boolean> {
  const result = await trx
    .updateTable('tickets')
    .set({ next_sla_deadline_at: sql`next_sla_deadline_at` })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('next_sla_deadline_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Takes the rows of those of the tickets (of one organization) still due for the transaction, and
 * reads them: the ones another sweep or a change of the ticket got to first are left out. The
 * rows come back in the order of `ids`.
 *
 * PostgreSQL: one statement for the group (`select ... for update`, which locks the rows in id
 * order and checks each again once its lock is granted), so a group costs the same few round trips
 * whatever its size. SQLite: a claim and a read a ticket (in-process, no trips to save); the first
 * claim takes the write lock at once, so what is read next cannot go stale.
 */
export async function claimDueGroup(trx: Executor, organizationId: string, ids: string[], now: string): Promise<TicketColumns[]> {
  if (dialectOf(trx) === 'sqlite') {
    const rows: TicketColumns[] = [];
    for (const id of ids) {
      if (!(await claimDueTicket(trx, organizationId, id, now))) continue;
      const row = await findTicket(trx, organizationId, id);
      if (row) rows.push(row);
    }
    return rows;
  }
  const rows = await trx
    .selectFrom('tickets')
    .select(TICKET_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where(sql<boolean>`id = any(cast(${ids} as text[]))`)
    .where('next_sla_deadline_at', '<=', now)
    .orderBy('id')
    .forUpdate()
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Writes the swept tickets' SLA columns (their clocks and next instants). PostgreSQL: one update
 * for the group, the values passed as one array per column; SQLite: an update a ticket.
 */
export async function moveSweptTickets(trx: Executor, organizationId: string, moved: Array<{ id: string; columns: SlaColumns }>): Promise<void> {
  if (moved.length === 0) return;
  if (dialectOf(trx) === 'sqlite' || moved.length === 1) {
    for (const { id, columns } of moved) await updateTicket(trx, organizationId, id, columns);
    return;
  }
  const column = (of: (m: (typeof moved)[number]) => string | null) => sql`cast(${moved.map(of)} as text[])`;
  await sql`update tickets as t
    set sla = v.sla, sla_next_due_at = v.sla_next_due_at, next_sla_deadline_at = v.next_sla_deadline_at
    from unnest(${column((m) => m.id)}, ${column((m) => m.columns.sla)}, ${column((m) => m.columns.sla_next_due_at)},
      ${column((m) => m.columns.next_sla_deadline_at)}) as v(id, sla, sla_next_due_at, next_sla_deadline_at)
    where t.organization_id = ${organizationId} and t.id = v.id`.execute(trx);
}
