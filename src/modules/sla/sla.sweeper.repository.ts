import { sql } from 'kysely';
import type { Executor } from '../../shared/executor.js';

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
 * Takes the ticket's row for the transaction when it is still due (SQLite: the write lock at once,
 * so what is read next cannot go stale; PostgreSQL: the row lock): false when another sweep or a
 * change of the ticket got there first.
 */
export async function claimDueTicket(trx: Executor, organizationId: string, id: string, now: string): Promise<boolean> {
  const result = await trx
    .updateTable('tickets')
    .set({ next_sla_deadline_at: sql`next_sla_deadline_at` })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('next_sla_deadline_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
