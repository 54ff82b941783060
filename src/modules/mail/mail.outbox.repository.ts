import { sql, type Insertable, type Updateable } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { MailOutboxRow, MailOutboxTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';

export async function insertOutbox(db: Executor, row: Insertable<MailOutboxTable>): Promise<void> {
  await db.insertInto('mail_outbox').values(row).execute();
}

/** The Message-IDs of a ticket's thread so far, oldest first: received and sent. */
export async function threadMessageIds(db: Executor, organizationId: string, ticketId: string): Promise<string[]> {
  const received = await db
    .selectFrom('mail_messages')
    .select(['message_id', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('message_id', 'is not', null)
    .execute();
  const sent = await db
    .selectFrom('mail_outbox')
    .select(['message_id', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('kind', 'not in', ['notice', 'notification'])
    .execute();
  return [...received, ...sent]
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))
    .map((r) => r.message_id!);
}

/** The mailbox a ticket's first message came in by, if it came by mail. */
export async function mailboxOfTicket(db: Executor, organizationId: string, ticketId: string): Promise<string | null> {
  const row = await db
    .selectFrom('mail_messages')
    .select('mailbox_id')
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('outcome', '=', 'created')
    .executeTakeFirst();
  return row?.mailbox_id ?? null;
}

/** Automated mail (acknowledgements, notices) queued for an address since `since`. */
export async function automatedSince(db: Executor, organizationId: string, to: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('organization_id', '=', organizationId)
    .where('to_address', '=', to)
    .where('kind', '!=', 'reply')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Leases up to `limit` queued messages that are due to `owner` until `until`. On PostgreSQL
 * `skip locked` lets processes claim different rows at once; the lease keeps a row with one
 * process until it is done or the process dies and the lease runs out. The attempt is counted
 * here, before anything is sent: a row taken over from a lease that ran out (its process died
 * mid-send, perhaps after the server took the mail) keeps that attempt in its count and says so
 * in `last_error`.
 */
/** Why a message is sent again after its sending process died: the first send may have arrived. */
export const INTERRUPTED = 'the process sending it stopped mid-send; it is sent again and may arrive twice';

export async function claimDue(db: Executor, claim: { owner: string; now: string; until: string; limit: number }): Promise<MailOutboxRow[]> {
  const skipLocked = dialectOf(db) === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<MailOutboxRow>`update mail_outbox
    set lease_owner = ${claim.owner}, lease_expires_at = ${claim.until}, attempts = attempts + 1,
      last_error = case when lease_owner is null then last_error else ${INTERRUPTED} end
    where id in (
      select id from mail_outbox
      where status = 'queued' and next_attempt_at <= ${claim.now}
        and (lease_expires_at is null or lease_expires_at <= ${claim.now})
      order by next_attempt_at
      limit ${claim.limit}
      ${skipLocked}
    )
    returning *`.execute(db);
  return rows;
}

/** Records an attempt's result, if the row is still leased to `owner`; false when it is not. */
export async function finishAttempt(db: Executor, id: string, owner: string, changes: Updateable<MailOutboxTable>): Promise<boolean> {
  const result = await db
    .updateTable('mail_outbox')
    .set({ ...changes, lease_owner: null, lease_expires_at: null })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The attachments a comment carries that still exist, in the comment's order. */
export async function commentAttachments(db: Executor, organizationId: string, commentId: string) {
  const comment = await db.selectFrom('comments').select('attachment_ids').where('organization_id', '=', organizationId).where('id', '=', commentId).executeTakeFirst();
  const ids = comment?.attachment_ids ? (JSON.parse(comment.attachment_ids) as string[]) : [];
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('attachments')
    .select(['id', 'filename', 'content_type', 'size_bytes'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
}

export async function setCommentDelivery(db: Executor, organizationId: string, commentId: string, delivery: string): Promise<void> {
  await db.updateTable('comments').set({ delivery }).where('organization_id', '=', organizationId).where('id', '=', commentId).execute();
}

/** A message we sent, by its Message-ID (a bounce names it). */
export function findSentByMessageId(db: Executor, organizationId: string, messageIds: string[]): Promise<MailOutboxRow | undefined> {
  if (messageIds.length === 0) return Promise.resolve(undefined);
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('message_id', 'in', messageIds.slice(0, 50))
    .executeTakeFirst();
}

/** What mail about a ticket needs of it: its number, subject, token and the customer's address. */
export function findTicketWithCustomer(db: Executor, organizationId: string, ticketId: string) {
  return db
    .selectFrom('tickets')
    .innerJoin('customers', (join) => join.onRef('customers.id', '=', 'tickets.customer_id'))
    .leftJoin('users', (join) => join.onRef('users.id', '=', 'tickets.assigned_user_id'))
    .select(['tickets.id', 'tickets.ticket_number', 'tickets.subject', 'tickets.tracking_token', 'customers.email as customer_email', 'customers.email_status as customer_email_status', 'users.email as assignee_email'])
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.id', '=', ticketId)
    .executeTakeFirst();
}

/** Marks a sent message bounced, and its comment's delivery. */
export async function finishBounce(db: Executor, row: MailOutboxRow, delivery: string, diagnostic: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ status: 'bounced', last_error: diagnostic }).where('id', '=', row.id).execute();
  if (row.comment_id !== null) await setCommentDelivery(db, row.organization_id, row.comment_id, delivery);
}
