import { sql, type Transaction } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Database } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';

export async function insertOrganization(db: Executor, row: { id: string; name: string; created_at: string }): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function organizationExists(db: Executor, id: string): Promise<boolean> {
  return (await db.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Every organization, oldest first, with its ticket counter (the number of the last ticket created). */
export function listOrganizations(db: Executor) {
  return db.selectFrom('organizations').select(['id', 'name', 'created_at', 'ticket_counter']).orderBy('created_at').orderBy('id').execute();
}

/** The oldest organization: on a single-tenant install, the only one. */
export async function firstOrganizationId(db: Executor): Promise<string | undefined> {
  const row = await db.selectFrom('organizations').select('id').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  return row?.id;
}

/**
 * Serializes first-start bootstraps: several processes starting at once on an empty PostgreSQL
 * store would each count no organization and each create one. A transaction-scoped advisory lock
 * makes the second wait and then see the first's organization. SQLite has one writer already.
 */
export async function lockForBootstrap(trx: Transaction<Database>): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('ticketing:bootstrap'))`.execute(trx);
}

/**
 * Serializes the creates of one bounded collection of one organization until the transaction ends
 * (src/limits/collection-caps.ts), so a count and the insert it allows cannot interleave with
 * another's. PostgreSQL: a transaction-scoped advisory lock per (collection, organization), which
 * holds back no other kind of write (a ticket create locks the organization's row, not this).
 * SQLite: one writer at a time already (one connection per process; in WAL another process's
 * write after this read fails this transaction's write rather than interleaving).
 */
export async function lockCollection(trx: Transaction<Database>, organizationId: string, collection: string): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtext(${`ticketing:cap:${collection}`}), hashtext(${organizationId}))`.execute(trx);
  }
}

/** Bytes of the organization's attachments (kept by triggers on `attachments`: migration 0006). */
export async function storageUsed(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('organizations').select('storage_used_bytes').where('id', '=', organizationId).executeTakeFirst();
  return Number(row?.storage_used_bytes ?? 0);
}

export async function countOrganizations(db: Executor): Promise<number> {
  const row = await db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Takes the organization's next ticket number. Must run inside the creating transaction: the row
 * lock (PostgreSQL) or the write lock (SQLite) makes numbers gapless and unique under concurrency.
 */
export async function takeNextTicketNumber(trx: Transaction<Database>, organizationId: string): Promise<number> {
  const row = await trx
    .updateTable('organizations')
    .set((eb) => ({ ticket_counter: eb('ticket_counter', '+', 1) }))
    .where('id', '=', organizationId)
    .returning('ticket_counter')
    .executeTakeFirstOrThrow();
  return Number(row.ticket_counter);
}

/**
 * Takes the organization's next `count` ticket numbers at once and returns the last one (the
 * numbers are `last - count + 1` to `last`). The same lock as takeNextTicketNumber, held until the
 * commit: a group of creates committed together (tickets.create-batch.ts).
 */
export async function takeTicketNumbers(trx: Transaction<Database>, organizationId: string, count: number): Promise<number> {
  const row = await trx
    .updateTable('organizations')
    .set((eb) => ({ ticket_counter: eb('ticket_counter', '+', count) }))
    .where('id', '=', organizationId)
    .returning('ticket_counter')
    .executeTakeFirstOrThrow();
  return Number(row.ticket_counter);
}
