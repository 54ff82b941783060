import { randomUUID } from 'node:crypto';
import type { MailboxRow } from '../../db/types.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { Executor } from '../../shared/executor.js';
import { insertComment } from '../comments/comments.repository.js';
import { presentComment } from '../comments/comments.service.js';
import { findCustomer, normalizeEmail } from '../customers/customers.repository.js';
import { presentCustomer } from '../customers/customers.service.js';
import { changesBetween, SYSTEM_ACTOR, withEvents, type EventLog } from '../events/events.log.js';
import type { IntakeDeps, IntakeResult } from './mail.intake.types.js';
import type { ParsedMail } from './mail.parse.js';
import { finishBounce, findSentByMessageId } from './mail.outbox.repository.js';
import { insertMailMessage } from './mail.repository.js';
import type { DeliveryBlock } from './mail.schemas.js';

/** Hard bounces in a row after which a customer is `bouncing`. */
export const HARD_BOUNCES_TO_STOP = 3;

const OURS = /tkt\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{22}@[A-Za-z0-9.-]+/g;

/**
 * A delivery-status report (a bounce) naming a message we sent: that message is `bounced` (its
 * comment's delivery too), an internal note on the ticket says so with the server's words, and a
 * hard bounce counts towards the customer's `bouncing`. Null when the message is no bounce of
 * ours: it is then taken in as any other (automated) mail.
 */
export async function takeBounce(deps: IntakeDeps, mailbox: Pick<MailboxRow, 'id' | 'organization_id'>, raw: Buffer, mail: ParsedMail): Promise<IntakeResult | null> {
  if (mail.report === null) return null;
  const organizationId = mailbox.organization_id;
  const text = raw.toString('latin1');
  const named = [...new Set(text.match(OURS) ?? [])].filter((id) => deps.mailer.messageIds.ticketOf(id) !== null);
  const sent = await findSentByMessageId(deps.store.db, organizationId, named);
  if (!sent) return null;
  const diagnostic = (/^Diagnostic-Code:\s*(.+)$/im.exec(text)?.[1] ?? /^Status:\s*(\S+)/im.exec(text)?.[1] ?? 'no reason given').trim().slice(0, 500);
  const hard = mail.report.hard;
  return withEvents(deps.store.db, organizationId, SYSTEM_ACTOR, async (trx, events) => {
    const now = creationTimeIso();
    const note = {
      id: randomUUID(),
      organization_id: organizationId,
      ticket_id: sent.ticket_id,
      body: `Mail to ${sent.to_address} bounced (${hard ? 'permanent failure' : 'temporary failure'}): ${diagnostic}`,
      is_internal: 1,
      author_user_id: null,
      author_customer_id: null,
      created_at: now,
      updated_at: now,
      channel: 'email' as const,
      email: null,
    };
    await insertMailMessage(trx, {
      id: randomUUID(),
      organization_id: organizationId,
      mailbox_id: mailbox.id,
      message_key: mail.key,
      message_id: mail.messageId,
      outcome: 'appended',
      ticket_id: sent.ticket_id,
      comment_id: note.id,
      raw,
      size_bytes: raw.length,
      created_at: now,
    });
    await insertComment(trx, note);
    events.add({ type: 'comment.created', resourceType: 'comment', resourceId: note.id, ticketId: sent.ticket_id, object: presentComment(note), occurredAt: now });
    const delivery: DeliveryBlock = { status: 'bounced', to: sent.to_address, message_id: sent.message_id, attempts: sent.attempts, last_error: diagnostic };
    await finishBounce(trx, sent, JSON.stringify(delivery), diagnostic);
    if (hard) await countHardBounce(trx, events, organizationId, sent.to_address, now);
    return { outcome: 'appended' as const, ticket_id: sent.ticket_id, comment_id: note.id, reason: null };
  });
}

async function countHardBounce(trx: Executor, events: EventLog, organizationId: string, address: string, now: string): Promise<void> {
  const row = await trx
    .updateTable('customers')
    .set((eb) => ({ email_hard_bounces: eb('email_hard_bounces', '+', 1) }))
    .where('organization_id', '=', organizationId)
    .where('email_normalized', '=', normalizeEmail(address))
    .returning(['id', 'email_hard_bounces', 'email_status'])
    .executeTakeFirst();
  if (!row || row.email_status === 'bouncing' || Number(row.email_hard_bounces) < HARD_BOUNCES_TO_STOP) return;
  const before = (await findCustomer(trx, organizationId, row.id))!;
  await trx.updateTable('customers').set({ email_status: 'bouncing', updated_at: now }).where('id', '=', row.id).execute();
  const after = presentCustomer({ ...before, email_status: 'bouncing', updated_at: now });
  events.add({ type: 'customer.updated', resourceType: 'customer', resourceId: row.id, object: after, changes: changesBetween(presentCustomer(before), after), occurredAt: now });
}
