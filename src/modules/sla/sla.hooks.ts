import type { TicketsTable } from '../../db/types.js';
import type { EventLog } from '../events/events.log.js';
import type { Updateable } from 'kysely';
import { agentReplied, customerReplied, deadlinesOf, fireDue, presentSla, retarget, startState, statusChanged, type SlaEvent, type SlaState } from './sla.clock.js';
import { ticketMatches, type MatchableTicket } from './sla.match.js';
import type { LoadedPolicy, PolicySet } from './sla.policy-cache.js';

/**
 * The one seam between the ticket and comment services and the SLA clocks: each call takes the
 * ticket before and after a change and answers the columns to write with the change (in its
 * transaction) and the events to log with it. Nothing here reads or writes the store.
 */

/** The SLA columns of a ticket row. */
export interface SlaColumns {
  sla: string | null;
  sla_next_due_at: string | null;
  next_sla_deadline_at: string | null;
}

/** What happened besides field changes. */
export type SlaHappening = 'agent_reply' | 'customer_reply' | null;

export const NO_SLA: SlaColumns = { sla: null, sla_next_due_at: null, next_sla_deadline_at: null };

/**
 * The states this process wrote last, by their JSON: a ticket's answer and event are made from its
 * row right after the write, and need not parse again what was just serialised. Bounded; a state
 * is never changed once written (sla.clock.ts makes new ones).
 */
const written = new Map<string, SlaState>();
const WRITTEN_KEPT = 256;

export const parseSla = (text: string | null | undefined): SlaState | null => (text ? (written.get(text) ?? (JSON.parse(text) as SlaState)) : null);

export const slaBlockOf = (text: string | null | undefined) => presentSla(parseSla(text));

function columnsOf(state: SlaState | null, sla = state === null ? null : JSON.stringify(state)): SlaColumns {
  if (state === null || sla === null) return NO_SLA;
  if (written.size >= WRITTEN_KEPT) written.clear();
  written.set(sla, state);
  return { sla, ...deadlinesOf(state) };
}

function firstMatch(set: PolicySet, ticket: MatchableTicket, now: Date): LoadedPolicy | undefined {
  return set.policies.find((p) => ticketMatches(ticket, p.conditions, now));
}

const calendarOf = (set: PolicySet, id: string | null) => (id === null ? null : (set.calendars.get(id) ?? null));

/** A new ticket's SLA columns: the first matching policy's clocks, started at its creation. */
export function slaOfNewTicket(set: PolicySet, ticket: MatchableTicket): SlaColumns {
  if (set.policies.length === 0) return NO_SLA;
  const now = new Date(ticket.created_at);
  const policy = firstMatch(set, ticket, now);
  return policy ? columnsOf(startState(policy, calendarOf(set, policy.business_hours_id), ticket, now)) : NO_SLA;
}

/**
 * The SLA after a change of the ticket (`before` → `after`, as their answers show them), and what
 * happened with it: null columns when nothing changed. Status first (pause, resume, resolution),
 * then the reply, then a change of policy or priority (new targets, time used kept).
 */
export function slaAfterChange(
  set: PolicySet,
  before: { sla: string | null; status: string },
  after: MatchableTicket,
  happening: SlaHappening,
  now: Date,
): { columns: SlaColumns | null; events: SlaEvent[] } {
  const events: SlaEvent[] = [];
  const current = parseSla(before.sla);
  const policy = firstMatch(set, after, now);
  let state: SlaState | null = current;
  if (state !== null) {
    const calendar = calendarOf(set, state.business_hours_id);
    if (after.status !== before.status) state = statusChanged(state, calendar, after.status, now, events);
    if (happening === 'agent_reply') state = agentReplied(state, calendar, now, events);
    const targets = set.policies.find((p) => p.id === state!.policy_id)?.targets ?? policy?.targets ?? [];
    if (happening === 'customer_reply') state = customerReplied(state, calendar, targets, now);
  }
  if (policy === undefined) state = null;
  else if (state === null) state = startState(policy, calendarOf(set, policy.business_hours_id), after, now);
  else if (policy.id !== state.policy_id || after.priority !== state.priority) state = retarget(state, policy, calendarOf(set, policy.business_hours_id), after.priority, now);
  const text = state === null ? null : JSON.stringify(state);
  return { columns: text === before.sla ? null : columnsOf(state, text), events };
}

/** The sweeper's step: the warnings and breaches due at `now`, with the columns that follow. */
export function slaFireDue(text: string | null, now: Date): { columns: SlaColumns; events: SlaEvent[] } {
  const events: SlaEvent[] = [];
  const state = parseSla(text);
  const next = state && fireDue(state, now, events);
  return { columns: columnsOf(next), events };
}

/** Puts SLA columns on a row being inserted or changed. */
export function withSlaColumns<T extends Updateable<TicketsTable>>(row: T, columns: SlaColumns): T {
  return Object.assign(row, columns);
}

/**
 * The SLA events of a change in its event log. Each carries the ticket as its answer shows it
 * (without its tracking token), the metric and its due time.
 */
export function logSlaEvents(events: EventLog, ticket: { id: string; sla: ReturnType<typeof presentSla> } & object, slaEvents: SlaEvent[]): void {
  if (slaEvents.length === 0) return;
  const { tracking_token: _token, ...shown } = ticket as { tracking_token?: unknown };
  void _token;
  for (const e of slaEvents) {
    events.add({
      type: e.type,
      resourceType: 'ticket',
      resourceId: ticket.id,
      ticketId: ticket.id,
      object: { metric: e.metric, policy_id: ticket.sla?.policy_id ?? null, due_at: e.due_at, ticket: shown },
      occurredAt: e.at,
    });
  }
}
