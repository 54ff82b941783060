import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Actor, EventLog } from '../events/events.log.js';
import { applyActions, type Actions } from '../macros/actions.js';
import { queueNotification, type Mailer } from '../mail/mail.outbox.js';
import { findTicketWithCustomer } from '../mail/mail.outbox.repository.js';
import type { RuleActions } from './automations.schemas.js';
import type { NotifyAction } from './automations.rules.js';

/**
 * A trigger's or automation's actions on one ticket, inside the caller's transaction (whose event
 * log carries the rule as actor): the macro actions through the macros' applyActions (the ticket
 * service's own rules and events), then each `notify` queued in the mail outbox in the same
 * transaction. Resolves to what could not be mailed (no recipient, no mailbox, the hourly limit), if anything.
 */
export async function applyRuleActions(
  trx: Transaction<Database>,
  events: EventLog,
  mailer: Mailer,
  ticketId: string,
  actions: RuleActions,
  actor: Actor,
): Promise<string | null> {
  const organizationId = events.organizationId;
  const macro = actions.filter((a) => a.field !== 'notify') as Actions;
  if (macro.length > 0) await applyActions(trx, { organizationId, events, mailer, at: 'actions' }, ticketId, macro, actor);
  const notes: string[] = [];
  for (const action of actions) {
    if (action.field !== 'notify') continue;
    const { to, subject, body } = (action as NotifyAction).value;
    const ticket = await findTicketWithCustomer(trx, organizationId, ticketId);
    if (!ticket) break;
    const address = to === 'requester' ? (ticket.customer_email_status === 'bouncing' ? null : ticket.customer_email) : to === 'assignee' ? ticket.assignee_email : to;
    if (!address) {
      notes.push(`notify ${to}: no address (${to === 'assignee' ? 'no assigned user' : 'the customer\'s mail bounces'})`);
      continue;
    }
    const queued = await queueNotification(trx, mailer, organizationId, { ...ticket, ticket_number: Number(ticket.ticket_number) }, { to: address, subject, body });
    if (queued === null) notes.push(`notify ${to}: not queued (no mailbox to send from, or ${address} had 10 automated mails this hour)`);
  }
  return notes.length > 0 ? notes.join('; ') : null;
}
