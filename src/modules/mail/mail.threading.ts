import type { Executor } from '../../shared/executor.js';
import { normalizeEmail } from '../customers/customers.repository.js';
import { findUserIdByEmail } from '../users/users.repository.js';
import type { MessageIds } from './mail.message-ids.js';
import type { ParsedMail } from './mail.parse.js';
import { findTicketByNumber, ticketOfReceivedIds } from './mail.repository.js';
import type { EmailBlock } from './mail.schemas.js';

/** The `[TKT-42]` token of a subject. */
const TOKEN = /\[TKT-(\d{1,15})\]/i;

/**
 * The ticket a message continues, or null for a new thread. In this order, never on the subject
 * text alone (docs/api-behaviour.md#email):
 * 1. In-Reply-To / References naming a Message-ID of ours (signed: verified without a lookup) or
 *    one we received on a ticket;
 * 2. a `[TKT-n]` token of this organization, only from the ticket's customer, someone the mail
 *    that opened it was copied to, or an agent.
 */
export async function threadOf(db: Executor, organizationId: string, mail: ParsedMail, ids: MessageIds): Promise<string | null> {
  for (const id of mail.replyTo) {
    const ours = ids.ticketOf(id);
    if (ours !== null) return ours;
  }
  const received = await ticketOfReceivedIds(db, organizationId, mail.replyTo);
  if (received !== null) return received;
  const token = TOKEN.exec(mail.subject);
  if (!token || mail.from === null) return null;
  const ticket = await findTicketByNumber(db, organizationId, Number(token[1]));
  if (!ticket) return null;
  const sender = mail.from.address;
  if (sender === ticket.customer_email) return ticket.id;
  const opened = ticket.email === null ? null : (JSON.parse(ticket.email) as EmailBlock);
  if (opened?.cc.includes(sender)) return ticket.id;
  if ((await findUserIdByEmail(db, organizationId, normalizeEmail(sender))) !== undefined) return ticket.id;
  return null;
}
