import { randomUUID } from 'node:crypto';
import type { Executor } from '../../shared/executor.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { MessageIds } from './mail.message-ids.js';
import { automatedSince, findTicketWithCustomer, insertOutbox, mailboxOfTicket, setCommentDelivery, threadMessageIds } from './mail.outbox.repository.js';
import type { DeliveryBlock } from './mail.schemas.js';
import { findDefaultMailbox, findMailbox } from './mailboxes.repository.js';

/**
 * What goes out by mail, queued in the outbox (sent by mail.outbox.worker.ts): the
 * acknowledgement of a ticket opened by mail, public agent comments to the customer, and a notice
 * to the assigned agent when the customer replies. Internal notes never. Every message gets a
 * signed Message-ID of ours, In-Reply-To/References continuing the ticket's thread, the `[TKT-n]`
 * token in its subject and the mailbox's name and address as From; automated ones at most 10 per
 * recipient per hour (docs/api-behaviour.md#email).
 */
export interface Mailer {
  messageIds: MessageIds;
  /** Base of the portal links in acknowledgements. */
  publicUrl: string;
}

/** Automated mails (acknowledgements, notices) to one address per hour, at most. */
export const AUTOMATED_PER_HOUR = 10;
/** Message-IDs of the thread carried in References, newest last. */
const MAX_REFERENCES = 20;

export interface OutboundTicket {
  id: string;
  ticket_number: number;
  subject: string;
  /** Null only in a ticket shown to a key without tickets:write; the service's own reads carry it. */
  tracking_token: string | null;
}

type Kind = 'acknowledgement' | 'reply' | 'notice' | 'notification';

const subjectOf = (kind: Kind, ticket: OutboundTicket, own?: string): string => {
  const token = `[TKT-${ticket.ticket_number}]`;
  const subject = (own ?? ticket.subject).replace(/\s*\[TKT-\d+\]\s*/gi, ' ').trim();
  if (kind === 'reply') return `Re: ${token} ${subject}`;
  if (kind === 'notice') return `${token} The customer replied: ${subject}`;
  return `${token} ${subject}`;
};

/**
 * Queues one message about a ticket; its delivery block, or null when none is sent: the
 * organization has no mailbox to send from, or an automated one would pass the hourly limit.
 */
async function queue(
  db: Executor,
  mailer: Mailer,
  organizationId: string,
  ticket: OutboundTicket,
  message: { kind: Kind; to: string; body: string; commentId: string | null; subject?: string },
): Promise<DeliveryBlock | null> {
  const own = await mailboxOfTicket(db, organizationId, ticket.id);
  const mailbox = (own === null ? undefined : await findMailbox(db, organizationId, own)) ?? (await findDefaultMailbox(db, organizationId));
  if (!mailbox) return null;
  const now = creationTimeIso();
  if (message.kind !== 'reply') {
    const hourAgo = new Date(Date.parse(now) - 3_600_000).toISOString();
    if ((await automatedSince(db, organizationId, message.to, hourAgo)) >= AUTOMATED_PER_HOUR) return null;
  }
  const thread = (await threadMessageIds(db, organizationId, ticket.id)).slice(-MAX_REFERENCES);
  const messageId = mailer.messageIds.create(ticket.id);
  await insertOutbox(db, {
    id: randomUUID(),
    organization_id: organizationId,
    mailbox_id: mailbox.id,
    ticket_id: ticket.id,
    comment_id: message.commentId,
    kind: message.kind,
    to_address: message.to,
    from_address: mailbox.address,
    from_name: mailbox.name,
    subject: subjectOf(message.kind, ticket, message.subject),
    body: message.body,
    message_id: messageId,
    in_reply_to: thread.at(-1) ?? null,
    references: thread.join(' '),
    status: 'queued',
    attempts: 0,
    next_attempt_at: now,
    last_error: null,
    lease_owner: null,
    lease_expires_at: null,
    created_at: now,
    sent_at: null,
  });
  return { status: 'queued', to: message.to, message_id: messageId, attempts: 0, last_error: null };
}

/** The acknowledgement of a ticket opened by mail, when the mailbox that took it answers (auto_reply). */
export async function queueAcknowledgement(db: Executor, mailer: Mailer, organizationId: string, ticket: OutboundTicket, to: string): Promise<void> {
  const own = await mailboxOfTicket(db, organizationId, ticket.id);
  const mailbox = own === null ? undefined : await findMailbox(db, organizationId, own);
  if (!mailbox || mailbox.auto_reply !== 1) return;
  const body = [
    `We have received your message and opened ticket TKT-${ticket.ticket_number}: ${ticket.subject}`,
    '',
    ...(ticket.tracking_token === null
      ? ['Reply to this mail to add to it.']
      : [`Follow it, and reply, at ${mailer.publicUrl}/portal/${ticket.tracking_token}`, 'or simply reply to this mail.']),
  ].join('\n');
  await queue(db, mailer, organizationId, ticket, { kind: 'acknowledgement', to, body, commentId: null });
}

/** A public agent comment, to the ticket's customer; its delivery block (null: not mailed). */
export function queueReply(db: Executor, mailer: Mailer, organizationId: string, ticket: OutboundTicket, to: string, comment: { id: string; body: string }): Promise<DeliveryBlock | null> {
  return queue(db, mailer, organizationId, ticket, { kind: 'reply', to, body: comment.body, commentId: comment.id });
}

/** A notice to the assigned agent that the customer replied. */
export async function queueNotice(db: Executor, mailer: Mailer, organizationId: string, ticket: OutboundTicket, to: string, reply: string): Promise<void> {
  const body = [`The customer replied to TKT-${ticket.ticket_number}: ${ticket.subject}`, '', reply].join('\n');
  await queue(db, mailer, organizationId, ticket, { kind: 'notice', to, body, commentId: null });
}

/**
 * A trigger's or automation's `notify` (docs/api-behaviour.md#triggers-and-automations): automated
 * mail like a notice, so within the hourly limit per recipient; null when not queued (no mailbox to
 * send from, or past the limit).
 */
export function queueNotification(db: Executor, mailer: Mailer, organizationId: string, ticket: OutboundTicket, message: { to: string; subject: string; body: string }): Promise<DeliveryBlock | null> {
  return queue(db, mailer, organizationId, ticket, { kind: 'notification', to: message.to, subject: message.subject, body: message.body, commentId: null });
}

/**
 * For a public comment being written by an agent: queues it to the ticket's customer in the
 * comment's own transaction (after the comment's row) and sets its `delivery` block (null: not mailed).
 */
export async function mailCommentToCustomer(db: Executor, mailer: Mailer, organizationId: string, ticketId: string, comment: { id: string; body: string }): Promise<DeliveryBlock | null> {
  const ticket = await findTicketWithCustomer(db, organizationId, ticketId);
  // A customer whose mail bounces is sent none until their address changes.
  if (!ticket || ticket.customer_email_status === 'bouncing') return null;
  const delivery = await queueReply(db, mailer, organizationId, { ...ticket, ticket_number: Number(ticket.ticket_number) }, ticket.customer_email, comment);
  if (delivery === null) return null;
  await setCommentDelivery(db, organizationId, comment.id, JSON.stringify(delivery));
  return delivery;
}
