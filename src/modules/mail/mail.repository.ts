import type { Insertable } from 'kysely';
import type { MailMessagesTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';

export async function insertMailMessage(db: Executor, row: Insertable<MailMessagesTable>): Promise<void> {
  await db.insertInto('mail_messages').values(row).execute();
}

/** What became of a message already taken in (by its key), if it was. */
export function findMailMessageByKey(
  db: Executor,
  organizationId: string,
  key: string,
): Promise<{ id: string; outcome: MailMessagesTable['outcome']; ticket_id: string | null; comment_id: string | null } | undefined> {
  return db
    .selectFrom('mail_messages')
    .select(['id', 'outcome', 'ticket_id', 'comment_id'])
    .where('organization_id', '=', organizationId)
    .where('message_key', '=', key)
    .executeTakeFirst();
}

/** The ticket of the first of these Message-IDs that was taken in onto a ticket, in the order given. */
export async function ticketOfReceivedIds(db: Executor, organizationId: string, messageIds: string[]): Promise<string | null> {
  if (messageIds.length === 0) return null;
  const keys = [...new Set(messageIds.map((id) => id.toLowerCase()))].slice(0, 100);
  const rows = await db
    .selectFrom('mail_messages')
    .select(['message_key', 'ticket_id'])
    .where('organization_id', '=', organizationId)
    .where('message_key', 'in', keys)
    .where('ticket_id', 'is not', null)
    .execute();
  const byKey = new Map(rows.map((r) => [r.message_key, r.ticket_id!]));
  for (const id of keys) if (byKey.has(id)) return byKey.get(id)!;
  return null;
}

/** The raw message that opened a ticket (`commentId` null) or became a comment. */
export async function rawMessageOf(db: Executor, organizationId: string, ticketId: string, commentId: string | null): Promise<Buffer | undefined> {
  let query = db.selectFrom('mail_messages').select('raw').where('organization_id', '=', organizationId).where('ticket_id', '=', ticketId);
  query = commentId === null ? query.where('comment_id', 'is', null).where('outcome', '=', 'created') : query.where('comment_id', '=', commentId);
  const row = await query.executeTakeFirst();
  return row ? Buffer.from(row.raw) : undefined;
}

/** The ticket with this number in the organization, with what threading needs to know of it. */
export function findTicketByNumber(db: Executor, organizationId: string, number: number) {
  return db
    .selectFrom('tickets')
    .innerJoin('customers', (join) => join.onRef('customers.id', '=', 'tickets.customer_id'))
    .select(['tickets.id', 'tickets.email', 'customers.email_normalized as customer_email'])
    .where('tickets.organization_id', '=', organizationId)
    .where('tickets.ticket_number', '=', number)
    .executeTakeFirst();
}

/**
 * Clears a message's `attachments_pending` mark; true for the one caller that cleared it (a
 * recovery racing the intake, or another process, finds it cleared and writes nothing more).
 */
export async function clearAttachmentsPending(db: Executor, organizationId: string, messageKey: string): Promise<boolean> {
  const result = await db
    .updateTable('mail_messages')
    .set({ attachments_pending: 0 })
    .where('organization_id', '=', organizationId)
    .where('message_key', '=', messageKey)
    .where('attachments_pending', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Messages whose attachments were left to keep by a crash: marked, and taken in before `before`. */
export function messagesWithPendingAttachments(db: Executor, before: string, limit: number) {
  return db
    .selectFrom('mail_messages')
    .select(['organization_id', 'ticket_id', 'message_key', 'raw'])
    .where('attachments_pending', '=', 1)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}
