import type { EventLog } from '../events/events.log.js';
import { findTicketForUpdate, updateTicket } from '../tickets/tickets.repository.js';
import { presentTicket } from '../tickets/tickets.service.js';
import { logSlaEvents, slaAfterChange, type SlaHappening } from './sla.hooks.js';
import type { PolicySet } from './sla.policy-cache.js';
import type { Executor } from '../../shared/executor.js';

/** Whether a reply can move the ticket's clocks: it has some, or a policy may give it some. */
export const replyTouchesSla = (policies: PolicySet, ticket: { sla: string | null }): boolean => policies.policies.length > 0 || ticket.sla !== null;

/**
 * A reply written in `trx` without other change to the ticket (a comment through the API): the
 * ticket's clocks after it, written in the same transaction with their events. `updated_at` stays:
 * the reply is the comment's change, not the ticket's.
 */
export async function slaOnReply(trx: Executor, events: EventLog, policies: PolicySet, organizationId: string, ticketId: string, happening: SlaHappening, now: string): Promise<void> {
  const current = await findTicketForUpdate(trx, organizationId, ticketId);
  if (!current || !replyTouchesSla(policies, current)) return;
  const sla = slaAfterChange(policies, current, presentTicket(current), happening, new Date(now));
  if (!sla.columns) return;
  await updateTicket(trx, organizationId, ticketId, sla.columns);
  logSlaEvents(events, presentTicket({ ...current, ...sla.columns }), sla.events);
}
