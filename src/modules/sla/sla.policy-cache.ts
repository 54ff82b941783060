import type { Executor } from '../../shared/executor.js';
import type { Conditions } from '../views/conditions.js';
import type { PolicyForClock } from './sla.clock.js';
import type { SlaCalendar } from './sla.time.js';
import { findBusinessHours } from '../business-hours/business-hours.repository.js';
import { allSlaPolicies } from './sla-policies.repository.js';

/**
 * Each organization's SLA policies as the ticket services need them, cached per process so a
 * create reads none (docs/api-behaviour.md, SLA policies): a change through this process forgets
 * them at once; other processes of a fleet read them again after CACHE_MS at most.
 */
export interface LoadedPolicy extends PolicyForClock {
  conditions: Required<Conditions>;
}

export interface PolicySet {
  policies: LoadedPolicy[];
  calendars: Map<string, SlaCalendar>;
}

const CACHE_MS = 2_000;
const cache = new Map<string, { at: number; set: Promise<PolicySet> }>();
let generation = 0;

async function load(db: Executor, organizationId: string): Promise<PolicySet> {
  const rows = await allSlaPolicies(db, organizationId);
  const policies = rows.map((row) => ({
    id: row.id,
    business_hours_id: row.business_hours_id,
    conditions: JSON.parse(row.conditions) as Required<Conditions>,
    targets: JSON.parse(row.targets) as LoadedPolicy['targets'],
  }));
  const calendars = new Map<string, SlaCalendar>();
  for (const id of new Set(policies.map((p) => p.business_hours_id).filter((id): id is string => id !== null))) {
    const row = await findBusinessHours(db, organizationId, id);
    if (row) calendars.set(id, { time_zone: row.time_zone, weekly: JSON.parse(row.weekly) as SlaCalendar['weekly'], holidays: JSON.parse(row.holidays) as SlaCalendar['holidays'] });
  }
  return { policies, calendars };
}

/** The organization's policies in the order they are tried (read through `db` when not cached). */
export function slaPoliciesOf(db: Executor, organizationId: string): Promise<PolicySet> {
  const now = Date.now();
  const cached = cache.get(organizationId);
  if (cached && now - cached.at < CACHE_MS) return cached.set;
  const started = generation;
  const set = load(db, organizationId);
  if (cache.size > 10_000) cache.clear();
  cache.set(organizationId, { at: now, set });
  // A failed read is not kept; nor one that a change overtook while it ran.
  set.then(
    () => {
      if (generation !== started && cache.get(organizationId)?.set === set) cache.delete(organizationId);
    },
    () => {
      if (cache.get(organizationId)?.set === set) cache.delete(organizationId);
    },
  );
  return set;
}

/** After a change of the organization's policies (or calendars): the next read loads them again. */
export function forgetSlaPolicies(organizationId: string): void {
  generation++;
  cache.delete(organizationId);
}
