import { Type, type Static } from 'typebox';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Executor } from '../../shared/executor.js';
import { nowIso } from '../../shared/time.js';
import { changesBetween, type Actor, type EventLog } from '../events/events.log.js';
import { findTicketForUpdate, updateTicket } from '../tickets/tickets.repository.js';
import { presentTicket } from '../tickets/tickets.service.js';

/*
 * TEMPORARY stand-in for the shared action list (src/modules/macros/actions.ts), replaced by a
 * re-export when it is merged: status and priority only.
 */

export const Actions = Type.Array(
  Type.Object({ field: Type.Union([Type.Literal('status'), Type.Literal('priority')]), value: Type.String() }, { additionalProperties: false }),
  { minItems: 1, maxItems: 50 },
);
export type Actions = Static<typeof Actions>;

/** Checks the list once, when a job is created: 422 naming the action. */
export async function checkBulkActions(_db: Executor, _organizationId: string, actions: Actions): Promise<Actions> {
  await Promise.resolve();
  return actions;
}

/** Applies the list to one ticket in `trx`, with its events in `events`; throws an AppError when the ticket cannot take it. */
export async function applyBulkActions(trx: Transaction<Database>, events: EventLog, organizationId: string, ticketId: string, actions: Actions, _actor: Actor): Promise<void> {
  const current = await findTicketForUpdate(trx, organizationId, ticketId);
  if (!current) throw errors.notFound('Ticket');
  const now = nowIso();
  const changes: Record<string, string> = {};
  for (const action of actions) if (action.value !== current[action.field]) changes[action.field] = action.value;
  if (Object.keys(changes).length === 0) return;
  await updateTicket(trx, organizationId, ticketId, { ...changes, updated_at: now });
  const before = presentTicket(current);
  const ticket = presentTicket({ ...current, ...changes, updated_at: now } as typeof current);
  events.add({ type: 'ticket.updated', resourceType: 'ticket', resourceId: ticketId, ticketId, object: ticket, changes: changesBetween(before, ticket), occurredAt: now });
}
