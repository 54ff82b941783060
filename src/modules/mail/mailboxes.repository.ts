import type { Insertable, Updateable } from 'kysely';
import type { MailboxesTable, MailboxRow } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';

export async function insertMailbox(db: Executor, row: Insertable<MailboxesTable>): Promise<void> {
  await db.insertInto('mailboxes').values(row).execute();
}

/** The mailbox; with `lock`, locked until the transaction ends (see forUpdate). */
export function findMailbox(db: Executor, organizationId: string, id: string, lock = false): Promise<MailboxRow | undefined> {
  const query = db.selectFrom('mailboxes').selectAll().where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

export function findMailboxByAddress(db: Executor, organizationId: string, address: string): Promise<MailboxRow | undefined> {
  return db.selectFrom('mailboxes').selectAll().where('organization_id', '=', organizationId).where('address', '=', address).executeTakeFirst();
}

/** The organization's default mailbox, if it has one. */
export function findDefaultMailbox(db: Executor, organizationId: string): Promise<MailboxRow | undefined> {
  return db.selectFrom('mailboxes').selectAll().where('organization_id', '=', organizationId).where('is_default', '=', 1).executeTakeFirst();
}

/** Every address of the organization's mailboxes (mail from them is our own). */
export async function mailboxAddresses(db: Executor, organizationId: string): Promise<string[]> {
  const rows = await db.selectFrom('mailboxes').select('address').where('organization_id', '=', organizationId).execute();
  return rows.map((r) => r.address);
}

export function listMailboxRows(db: Executor, organizationId: string, page: Page): Promise<MailboxRow[]> {
  return db.selectFrom('mailboxes').selectAll().where('organization_id', '=', organizationId).$call(paged(page, CREATED_ASC)).execute();
}

export async function countMailboxes(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateMailboxRow(db: Executor, organizationId: string, id: string, changes: Updateable<MailboxesTable>): Promise<void> {
  await db.updateTable('mailboxes').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Makes no mailbox of the organization the default but `exceptId`. */
export async function clearDefault(db: Executor, organizationId: string, exceptId: string, now: string): Promise<void> {
  await db
    .updateTable('mailboxes')
    .set({ is_default: 0, updated_at: now })
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', 1)
    .where('id', '!=', exceptId)
    .execute();
}

export async function deleteMailboxRow(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('mailboxes').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Mailboxes of any organization with this address that take mail by the SMTP listener and are not paused. */
export async function smtpMailboxesFor(db: Executor, address: string): Promise<MailboxRow[]> {
  const rows = await db.selectFrom('mailboxes').selectAll().where('address', '=', address.toLowerCase()).where('state', '!=', 'paused').execute();
  return rows.filter((row) => (JSON.parse(row.inbound) as { type: string }).type === 'smtp');
}
