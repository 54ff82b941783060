import { errors } from '../../errors.js';
import { getTicketRow } from '../tickets/tickets.service.js';
import { takeIn, type IntakeDeps, type IntakeResult } from './mail.intake.js';
import { rawMessageOf } from './mail.repository.js';
import { getMailboxRow } from './mailboxes.service.js';

/** Takes a raw message in for one of the organization's mailboxes (404 for any other). */
export async function takeInRaw(deps: IntakeDeps, organizationId: string, mailboxId: string, raw: Buffer): Promise<IntakeResult> {
  const mailbox = await getMailboxRow(deps.store.db, organizationId, mailboxId);
  return takeIn(deps, mailbox, raw);
}

/** The raw message behind a ticket (`commentId` null) or one of its comments; 404 when it came otherwise. */
export async function rawOf(deps: IntakeDeps, organizationId: string, ticketId: string, commentId: string | null): Promise<Buffer> {
  const ticket = await getTicketRow(deps.store.db, organizationId, ticketId.toLowerCase());
  const raw = await rawMessageOf(deps.store.db, organizationId, ticket.id, commentId === null ? null : commentId.toLowerCase());
  if (!raw) throw errors.notFound(commentId === null ? 'Original message of the ticket' : 'Original message of the comment');
  return raw;
}
