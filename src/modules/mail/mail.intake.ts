import { createHash, randomUUID } from 'node:crypto';
import EmailReplyParser from 'email-reply-parser';
import type { Updateable } from 'kysely';
import type { MailboxRow, TicketsTable } from '../../db/types.js';
import { creationTimeIso } from '../../shared/clock.js';
import { insertComment } from '../comments/comments.repository.js';
import { presentComment } from '../comments/comments.service.js';
import { findCustomerByEmail, insertCustomerUnlessExists, isUniqueViolation, normalizeEmail } from '../customers/customers.repository.js';
import { presentNewCustomer } from '../customers/customers.service.js';
import { changesBetween, SYSTEM_ACTOR, withEvents, type Actor } from '../events/events.log.js';
import { lockTicket } from '../portal/portal.repository.js';
import { findTicketForUpdate, updateTicket } from '../tickets/tickets.repository.js';
import { createTicket, presentTicket, statusTimestamps } from '../tickets/tickets.service.js';
import { logSlaEvents, slaAfterChange } from '../sla/sla.hooks.js';
import { slaPoliciesOf } from '../sla/sla.policy-cache.js';
import { findUserIdByEmail } from '../users/users.repository.js';
import { mailboxAddresses } from './mailboxes.repository.js';
import { keepAttachments } from './mail.attachments.js';
import { takeBounce } from './mail.bounces.js';
import { queueAcknowledgement, queueNotice } from './mail.outbox.js';
import { findTicketWithCustomer } from './mail.outbox.repository.js';
import { parseMail, UnusableMailError, type ParsedMail } from './mail.parse.js';
import { findMailMessageByKey, insertMailMessage } from './mail.repository.js';
import type { EmailBlock } from './mail.schemas.js';
import { threadOf } from './mail.threading.js';

export type { IntakeDeps, IntakeOutcome, IntakeResult } from './mail.intake.types.js';
import type { IntakeDeps, IntakeResult } from './mail.intake.types.js';

const MAX_SUBJECT = 500;
const MAX_TEXT = 100_000;

/** A subject as a ticket takes it: at most 500 characters (cut with …), never empty. */
export function ticketSubject(subject: string): string {
  const clean = subject === '' ? '(no subject)' : subject;
  return clean.length > MAX_SUBJECT ? `${clean.slice(0, MAX_SUBJECT - 1)}…` : clean;
}

const cut = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/** The reply without the quoted earlier conversation; the whole text when nothing else is left. */
export function visibleReply(text: string): string {
  const visible = new EmailReplyParser().read(text).getVisibleText().trim();
  return visible === '' ? text.trim() : visible;
}

const emailBlockOf = (mail: ParsedMail): EmailBlock => ({
  message_id: mail.messageId,
  from: mail.from?.address ?? '',
  to: mail.to,
  cc: mail.cc,
  automated: mail.automated,
});

/**
 * Takes one raw message in for a mailbox: every inbound path (the raw intake route, the SMTP
 * listener, IMAP) comes here. Never throws for bad mail: it is kept raw with the outcome
 * `rejected` and the reason. Throws only when the store fails (then nothing of it was kept, and
 * taking it in again is safe).
 */
export async function takeIn(deps: IntakeDeps, mailbox: Pick<MailboxRow, 'id' | 'organization_id'>, raw: Buffer): Promise<IntakeResult> {
  const organizationId = mailbox.organization_id;
  let mail: ParsedMail;
  try {
    mail = await parseMail(raw);
  } catch (error) {
    if (!(error instanceof UnusableMailError)) throw error;
    return record(deps, mailbox, raw, `sha256:${createHash('sha256').update(raw).digest('hex')}`, null, 'rejected', error.message);
  }
  if (mail.from === null) return record(deps, mailbox, raw, mail.key, mail.messageId, 'rejected', 'the message has no usable From address');
  const db = deps.store.db;
  if ((await mailboxAddresses(db, organizationId)).includes(mail.from.address)) {
    return record(deps, mailbox, raw, mail.key, mail.messageId, 'ignored', "sent from one of this organization's own mailboxes");
  }
  const known = await findMailMessageByKey(db, organizationId, mail.key);
  if (known) return duplicate(known);
  const bounce = await takeBounce(deps, mailbox, raw, mail).catch((error: unknown) => {
    if (isUniqueViolation(error)) return null;
    throw error;
  });
  if (bounce) return bounce;
  const threadId = await threadOf(db, organizationId, mail, deps.mailer.messageIds);
  let result = threadId === null ? 'gone' : await append(deps, mailbox, raw, mail, threadId);
  if (result === 'closed') result = await create(deps, mailbox, raw, mail, threadId);
  if (result === 'gone') result = await create(deps, mailbox, raw, mail, null);
  // What the message made is committed, marked as having attachments to keep; they follow, each
  // as an upload would be, and the mark goes with the last (a crash in between: mail.attachments.recovery.ts).
  if ((result.outcome === 'created' || result.outcome === 'appended') && mail.attachments.length > 0) {
    await keepAttachments(deps, { organizationId, ticketId: result.ticket_id!, messageKey: mail.key }, mail.attachments);
  }
  return result;
}

const duplicate = (row: { ticket_id: string | null; comment_id: string | null }): IntakeResult => ({
  outcome: 'duplicate',
  ticket_id: row.ticket_id,
  comment_id: row.comment_id,
  reason: null,
});

/** Keeps a message that becomes nothing (ignored or rejected); a second one is a duplicate. */
async function record(
  deps: IntakeDeps,
  mailbox: Pick<MailboxRow, 'id' | 'organization_id'>,
  raw: Buffer,
  key: string,
  messageId: string | null,
  outcome: 'ignored' | 'rejected',
  reason: string,
): Promise<IntakeResult> {
  try {
    await insertMailMessage(deps.store.db, messageRow(mailbox, raw, key, messageId, outcome, null, null));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return duplicate((await findMailMessageByKey(deps.store.db, mailbox.organization_id, key)) ?? { ticket_id: null, comment_id: null });
  }
  return { outcome, ticket_id: null, comment_id: null, reason };
}

function messageRow(
  mailbox: Pick<MailboxRow, 'id' | 'organization_id'>,
  raw: Buffer,
  key: string,
  messageId: string | null,
  outcome: 'created' | 'appended' | 'ignored' | 'rejected',
  ticketId: string | null,
  commentId: string | null,
  attachmentsPending = false,
) {
  return {
    id: randomUUID(),
    organization_id: mailbox.organization_id,
    mailbox_id: mailbox.id,
    message_key: key,
    message_id: messageId,
    outcome,
    ticket_id: ticketId,
    comment_id: commentId,
    raw,
    size_bytes: raw.length,
    created_at: creationTimeIso(),
    attachments_pending: attachmentsPending ? 1 : 0,
  };
}

/**
 * Opens a ticket for the message (the customer found by From or created with its display name).
 * `closedId`: the closed ticket it replied to, which its description names. The message's record,
 * the ticket and its acknowledgement commit in one transaction: a crash leaves all or none of them,
 * and a second intake of the message, here or in another process, is a duplicate only once the
 * ticket exists (docs/api-behaviour.md, "Email").
 */
async function create(
  deps: IntakeDeps,
  mailbox: Pick<MailboxRow, 'id' | 'organization_id'>,
  raw: Buffer,
  mail: ParsedMail,
  closedId: string | null,
): Promise<IntakeResult> {
  const organizationId = mailbox.organization_id;
  let text = cut(mail.text.trim() === '' ? '(no text)' : mail.text.trim());
  if (closedId !== null) {
    const closed = await findTicketForUpdate(deps.store.db, organizationId, closedId);
    if (closed) text = cut(`This message replies to TKT-${Number(closed.ticket_number)}, which is closed.\n\n${text}`);
  }
  const from = mail.from!;
  try {
    const ticket = await createTicket(
      deps,
      organizationId,
      { customer_name: from.name === '' ? from.address : from.name.slice(0, 255), customer_email: from.address, subject: ticketSubject(mail.subject), description: text },
      SYSTEM_ACTOR,
      {
        channel: 'email',
        email: emailBlockOf(mail),
        alongside: async (trx, ticket) => {
          await insertMailMessage(trx, messageRow(mailbox, raw, mail.key, mail.messageId, 'created', ticket.id, null, mail.attachments.length > 0));
          // Machines are never answered (no loops of auto-replies).
          if (!mail.automated) await queueAcknowledgement(trx, deps.mailer, organizationId, ticket, from.address);
        },
      },
    );
    return { outcome: 'created', ticket_id: ticket.id, comment_id: null, reason: null };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return duplicate((await findMailMessageByKey(deps.store.db, organizationId, mail.key)) ?? { ticket_id: null, comment_id: null });
  }
}

/**
 * Appends the message to the ticket as a public comment: from an agent's address an agent's
 * comment, otherwise the customer's (a cc'd sender becomes a customer of their own). The quoted
 * earlier conversation is cut from the body. A reply to a pending or resolved ticket reopens it,
 * unless it is automated. 'closed' when the ticket is closed (the caller opens a new one), 'gone'
 * when it no longer exists. The comment, the reopening, their events and the message's record
 * commit together.
 */
async function append(
  deps: IntakeDeps,
  mailbox: Pick<MailboxRow, 'id' | 'organization_id'>,
  raw: Buffer,
  mail: ParsedMail,
  ticketId: string,
): Promise<IntakeResult | 'closed' | 'gone'> {
  const organizationId = mailbox.organization_id;
  const db = deps.store.db;
  const sender = mail.from!;
  const userId = (await findUserIdByEmail(db, organizationId, normalizeEmail(sender.address))) ?? null;
  const known = userId === null ? await findCustomerByEmail(db, organizationId, sender.address) : undefined;
  const actor: Actor = known ? { type: 'customer', customerId: known.id } : SYSTEM_ACTOR;
  const policies = await slaPoliciesOf(db, organizationId);
  try {
    return await withEvents(db, organizationId, actor, async (trx, events) => {
      if (!(await lockTicket(trx, organizationId, ticketId))) return 'gone' as const;
      const ticket = (await findTicketForUpdate(trx, organizationId, ticketId))!;
      if (ticket.status === 'closed') return 'closed' as const;
      const now = creationTimeIso();
      let customerId: string | null = null;
      if (userId === null) {
        customerId = known?.id ?? null;
        if (customerId === null) {
          const customer = {
            id: randomUUID(),
            organization_id: organizationId,
            name: sender.name === '' ? sender.address : sender.name.slice(0, 255),
            email: sender.address,
            email_normalized: normalizeEmail(sender.address),
            has_premium_support: 0,
            is_vip: 0,
            created_at: now,
            updated_at: now,
          };
          customerId = await insertCustomerUnlessExists(trx, customer);
          if (customerId === customer.id) {
            events.add({ type: 'customer.created', resourceType: 'customer', resourceId: customer.id, object: presentNewCustomer(customer), occurredAt: now });
          }
        }
      }
      const row = {
        id: randomUUID(),
        organization_id: organizationId,
        ticket_id: ticket.id,
        body: cut(visibleReply(mail.text) || '(no text)'),
        is_internal: 0,
        author_user_id: userId,
        author_customer_id: customerId,
        created_at: now,
        updated_at: now,
        channel: 'email' as const,
        email: JSON.stringify(emailBlockOf(mail)),
      };
      await insertMailMessage(trx, messageRow(mailbox, raw, mail.key, mail.messageId, 'appended', ticket.id, row.id, mail.attachments.length > 0));
      await insertComment(trx, row);
      events.add({ type: 'comment.created', resourceType: 'comment', resourceId: row.id, ticketId: ticket.id, object: presentComment(row), occurredAt: now });
      if (!mail.automated && userId === null) {
        // The assigned agent hears of the customer's reply.
        const about = await findTicketWithCustomer(trx, organizationId, ticket.id);
        if (about?.assignee_email) {
          await queueNotice(trx, deps.mailer, organizationId, { ...about, ticket_number: Number(about.ticket_number) }, about.assignee_email, row.body);
        }
      }
      const reopens = !mail.automated && userId === null && (ticket.status === 'pending' || ticket.status === 'resolved');
      const changes: Updateable<TicketsTable> = reopens ? { status: 'open' as const, ...statusTimestamps(ticket.status, 'open', now), updated_at: now } : {};
      // The SLA clocks: an agent's mail is a response, a customer's starts the wait for the next.
      const sla = slaAfterChange(policies, ticket, presentTicket({ ...ticket, ...changes }), mail.automated ? null : userId === null ? 'customer_reply' : 'agent_reply', new Date(now));
      if (sla.columns) Object.assign(changes, sla.columns);
      if (Object.keys(changes).length > 0) await updateTicket(trx, organizationId, ticket.id, changes);
      const after = presentTicket({ ...ticket, ...changes });
      if (reopens) {
        events.add({ type: 'ticket.updated', resourceType: 'ticket', resourceId: ticket.id, ticketId: ticket.id, object: after, changes: changesBetween(presentTicket(ticket), after), occurredAt: now });
      }
      logSlaEvents(events, after, sla.events);
      return { outcome: 'appended' as const, ticket_id: ticket.id, comment_id: row.id, reason: null };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return duplicate((await findMailMessageByKey(db, organizationId, mail.key)) ?? { ticket_id: null, comment_id: null });
  }
}
