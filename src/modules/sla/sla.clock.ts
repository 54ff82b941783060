import { addMinutes, minutesBetween, type SlaCalendar } from './sla.time.js';

/**
 * A ticket's SLA clocks as pure functions of their state (stored as JSON in `tickets.sla`) and
 * the instant: what starts, pauses, resumes, is fulfilled or fires. The rules
 * (docs/api-behaviour.md, SLA policies): time counts only in business hours when the policy has a
 * calendar; a clock runs only while the ticket is new or open (pending pauses every clock,
 * resolved and closed stop them); the first public agent comment fulfils first response; a
 * customer reply (after the first response) starts next response, which the agent's next public
 * reply fulfils; resolved or closed fulfils resolution. A change of priority or policy gives the
 * clocks their new targets, keeping the time used.
 */

export const METRICS = ['first_response', 'next_response', 'resolution'] as const;
export type Metric = (typeof METRICS)[number];

export interface Target {
  priority: 'low' | 'medium' | 'high' | 'urgent';
  first_response_minutes: number | null;
  next_response_minutes: number | null;
  resolution_minutes: number | null;
  warning_minutes: number;
}

export interface Clock {
  target: number;
  /** Business minutes used before `since`. */
  used: number;
  /** Running since (ISO), null while stopped. */
  since: string | null;
  due_at: string | null;
  warn_at: string | null;
  warned: boolean;
  breached: boolean;
  fulfilled_at: string | null;
}

export interface Breach {
  metric: Metric;
  due_at: string;
  breached_at: string;
}

export interface SlaState {
  policy_id: string;
  priority: string;
  business_hours_id: string | null;
  warning: number;
  /** True while no clock may run (pending, resolved, closed). */
  paused: boolean;
  clocks: Partial<Record<Metric, Clock>>;
  breaches: Breach[];
}

/** What a change did to the clocks: the events to write with it. */
export interface SlaEvent {
  type: 'sla.warning' | 'sla.breached' | 'sla.fulfilled';
  metric: Metric;
  due_at: string | null;
  at: string;
}

export interface PolicyForClock {
  id: string;
  business_hours_id: string | null;
  targets: Target[];
}

const RUNS: readonly string[] = ['new', 'open'];
export const clocksRunIn = (status: string): boolean => RUNS.includes(status);

const minutesOf = (target: Target, metric: Metric): number | null => target[`${metric}_minutes`];
const iso = (d: Date) => d.toISOString();

/** The clock's business minutes used up to `now`. */
function usedAt(calendar: SlaCalendar | null, clock: Clock, now: Date): number {
  return clock.since === null ? clock.used : clock.used + minutesBetween(calendar, new Date(clock.since), now);
}

/** The clock running from `now` (`since`: `now` as ISO text) with its remaining time: due and warning instants set (flags reset for instants still ahead). */
function run(calendar: SlaCalendar | null, clock: Clock, warning: number, now: Date, since = iso(now)): Clock {
  const remaining = clock.target - clock.used;
  const due = remaining >= 0 ? addMinutes(calendar, now, remaining) : new Date(now.getTime() + remaining * 60_000);
  const warn = warning > 0 ? (remaining > warning ? addMinutes(calendar, now, remaining - warning) : now) : null;
  return {
    ...clock,
    since,
    due_at: iso(due),
    warn_at: warn && iso(warn),
    breached: clock.breached && due <= now,
    warned: clock.warned && warn !== null && warn <= now,
  };
}

function stop(calendar: SlaCalendar | null, clock: Clock, now: Date): Clock {
  if (clock.since === null) return clock;
  return { ...clock, used: usedAt(calendar, clock, now), since: null, due_at: null, warn_at: null };
}

const fresh = (target: number): Clock => ({ target, used: 0, since: null, due_at: null, warn_at: null, warned: false, breached: false, fulfilled_at: null });

/** A new state for a ticket that a policy starts to apply to at `now`. */
export function startState(policy: PolicyForClock, calendar: SlaCalendar | null, ticket: { priority: string; status: string }, now: Date): SlaState | null {
  const target = policy.targets.find((t) => t.priority === ticket.priority);
  if (!target) return null;
  const state: SlaState = {
    policy_id: policy.id,
    priority: ticket.priority,
    business_hours_id: policy.business_hours_id,
    warning: target.warning_minutes,
    paused: !clocksRunIn(ticket.status),
    clocks: {},
    breaches: [],
  };
  const since = iso(now);
  for (const metric of ['first_response', 'resolution'] as const) {
    const minutes = minutesOf(target, metric);
    if (minutes === null) continue;
    state.clocks[metric] = state.paused ? fresh(minutes) : run(calendar, fresh(minutes), target.warning_minutes, now, since);
  }
  return state;
}

/**
 * The state under another policy or priority: each clock gets its new target keeping the time
 * used (a clock the new targets lack goes, unless fulfilled), due times recomputed.
 */
export function retarget(state: SlaState, policy: PolicyForClock, calendar: SlaCalendar | null, priority: string, now: Date): SlaState | null {
  const target = policy.targets.find((t) => t.priority === priority);
  if (!target) return null;
  const clocks: SlaState['clocks'] = {};
  for (const metric of METRICS) {
    const clock = state.clocks[metric];
    if (!clock) continue;
    const minutes = minutesOf(target, metric);
    if (clock.fulfilled_at !== null) {
      clocks[metric] = clock;
      continue;
    }
    if (minutes === null) continue;
    const stopped = { ...stop(calendar, clock, now), target: minutes };
    clocks[metric] = state.paused ? stopped : run(calendar, stopped, target.warning_minutes, now);
  }
  // A metric the old targets lacked starts now, as it would have at creation.
  for (const metric of ['first_response', 'resolution'] as const) {
    const minutes = minutesOf(target, metric);
    if (clocks[metric] || minutes === null || state.clocks[metric]) continue;
    clocks[metric] = state.paused ? fresh(minutes) : run(calendar, fresh(minutes), target.warning_minutes, now);
  }
  return { ...state, policy_id: policy.id, priority, business_hours_id: policy.business_hours_id, warning: target.warning_minutes, clocks };
}

function fulfil(state: SlaState, calendar: SlaCalendar | null, metric: Metric, now: Date, events: SlaEvent[]): SlaState {
  const clock = state.clocks[metric];
  if (!clock || clock.fulfilled_at !== null) return state;
  const stopped = stop(calendar, clock, now);
  const at = iso(now);
  const late = stopped.used > stopped.target;
  const due = clock.due_at ?? at;
  let breaches = state.breaches;
  // Fulfilled after its due time before the sweeper fired: the breach is written now, once.
  if (late && !clock.breached) {
    breaches = [...breaches, { metric, due_at: due, breached_at: at }];
    events.push({ type: 'sla.breached', metric, due_at: due, at });
  }
  events.push({ type: 'sla.fulfilled', metric, due_at: clock.due_at, at });
  return { ...state, breaches, clocks: { ...state.clocks, [metric]: { ...stopped, breached: clock.breached || late, fulfilled_at: at } } };
}

/** The ticket's status moved: clocks pause, resume, and resolution is fulfilled. */
export function statusChanged(state: SlaState, calendar: SlaCalendar | null, to: string, now: Date, events: SlaEvent[]): SlaState {
  let next = state;
  if (to === 'resolved' || to === 'closed') next = fulfil(next, calendar, 'resolution', now, events);
  const paused = !clocksRunIn(to);
  if (paused === next.paused) return next;
  const clocks: SlaState['clocks'] = {};
  for (const metric of METRICS) {
    const clock = next.clocks[metric];
    if (!clock) continue;
    if (clock.fulfilled_at !== null) clocks[metric] = clock;
    else clocks[metric] = paused ? stop(calendar, clock, now) : run(calendar, clock, next.warning, now);
  }
  return { ...next, paused, clocks };
}

/** A public comment by an agent: first response, and a running next response, are fulfilled. */
export function agentReplied(state: SlaState, calendar: SlaCalendar | null, now: Date, events: SlaEvent[]): SlaState {
  return fulfil(fulfil(state, calendar, 'first_response', now, events), calendar, 'next_response', now, events);
}

/** A customer's reply: once the first response is given, next response starts (unless already waiting for one). */
export function customerReplied(state: SlaState, calendar: SlaCalendar | null, targets: PolicyForClock['targets'], now: Date): SlaState {
  const first = state.clocks.first_response;
  if (first && first.fulfilled_at === null) return state;
  const waiting = state.clocks.next_response;
  if (waiting && waiting.fulfilled_at === null) return state;
  const minutes = targets.find((t) => t.priority === state.priority)?.next_response_minutes ?? null;
  if (minutes === null) return state;
  const clock = state.paused ? fresh(minutes) : run(calendar, fresh(minutes), state.warning, now);
  return { ...state, clocks: { ...state.clocks, next_response: clock } };
}

/** The warnings and breaches due at `now`, each fired once. */
export function fireDue(state: SlaState, now: Date, events: SlaEvent[]): SlaState {
  const fired: SlaEvent[] = [];
  const clocks: SlaState['clocks'] = { ...state.clocks };
  const breaches = [...state.breaches];
  for (const metric of METRICS) {
    const clock = clocks[metric];
    if (!clock || clock.since === null || clock.fulfilled_at !== null) continue;
    let next = clock;
    if (!next.warned && next.warn_at !== null && Date.parse(next.warn_at) <= now.getTime()) {
      next = { ...next, warned: true };
      fired.push({ type: 'sla.warning', metric, due_at: next.due_at, at: next.warn_at! });
    }
    if (!next.breached && next.due_at !== null && Date.parse(next.due_at) <= now.getTime()) {
      next = { ...next, breached: true };
      breaches.push({ metric, due_at: next.due_at!, breached_at: next.due_at! });
      fired.push({ type: 'sla.breached', metric, due_at: next.due_at, at: next.due_at! });
    }
    clocks[metric] = next;
  }
  // In the order of their instants (several were due when the sweeper was away).
  events.push(...fired.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)));
  breaches.sort((a, b) => (a.breached_at < b.breached_at ? -1 : a.breached_at > b.breached_at ? 1 : 0));
  return { ...state, clocks, breaches };
}

/** The columns that index the state: the earliest due time of a running clock, and the sweeper's next instant. */
export function deadlinesOf(state: SlaState | null): { sla_next_due_at: string | null; next_sla_deadline_at: string | null } {
  let due: string | null = null;
  let next: string | null = null;
  const earlier = (a: string | null, b: string | null) => (b === null || (a !== null && a <= b) ? a : b);
  for (const clock of Object.values(state?.clocks ?? {})) {
    if (clock.since === null || clock.fulfilled_at !== null) continue;
    due = earlier(due, clock.due_at);
    if (!clock.warned) next = earlier(next, clock.warn_at);
    if (!clock.breached) next = earlier(next, clock.due_at);
  }
  return { sla_next_due_at: due, next_sla_deadline_at: next };
}

/** The `sla` block of a ticket answer. */
export function presentSla(state: SlaState | null) {
  if (state === null) return null;
  const dueOf = (metric: Metric) => {
    const clock = state.clocks[metric];
    return clock && clock.fulfilled_at === null ? clock.due_at : null;
  };
  return {
    policy_id: state.policy_id,
    first_response_due_at: dueOf('first_response'),
    next_response_due_at: dueOf('next_response'),
    resolution_due_at: dueOf('resolution'),
    paused: state.paused,
    // A copy: the state may be one this process keeps (sla.hooks.ts, parseSla).
    breaches: [...state.breaches],
  };
}
