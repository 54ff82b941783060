import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { SlaPoliciesTable } from '../../db/types.sla.js';
import { errors } from '../../errors.js';
import { assertBelowCap } from '../../limits/collection-caps.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { findBusinessHours } from '../business-hours/business-hours.repository.js';
import { ticketFieldsByKey } from '../ticket-fields/ticket-fields.repository.js';
import { optionsOf } from '../ticket-fields/ticket-fields.values.js';
import { checkConditions, usesMe, type Conditions } from '../views/conditions.js';
import type { Target } from './sla.clock.js';
import { forgetSlaPolicies } from './sla.policy-cache.js';
import * as repo from './sla-policies.repository.js';
import type { CreateSlaPolicyBody, SlaPolicy, SlaTargetInput, UpdateSlaPolicyBody } from './sla-policies.schemas.js';

export interface SlaPolicyDeps {
  store: Store;
  config: Config;
}

export function presentSlaPolicy(row: repo.SlaPolicyRow): SlaPolicy {
  return {
    id: row.id,
    name: row.name,
    position: Number(row.position),
    conditions: JSON.parse(row.conditions) as SlaPolicy['conditions'],
    business_hours_id: row.business_hours_id,
    targets: JSON.parse(row.targets) as SlaPolicy['targets'],
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** Conditions as views check them; "me" names no one when a policy is applied, so it is refused. */
async function checked(db: Executor, organizationId: string, conditions: Conditions): Promise<string> {
  if (usesMe(conditions)) throw errors.invalidField('body.conditions', 'assigned_user_id "me" has no meaning in an SLA policy: name the user by id');
  for (const list of ['all', 'any'] as const) {
    const at = (conditions[list] ?? []).findIndex((c) => c.field === 'sla_next_due_at');
    if (at !== -1) throw errors.invalidField(`body.conditions.${list}[${at}].field`, 'an SLA policy cannot depend on the SLA deadlines it sets');
  }
  const fields = await ticketFieldsByKey(db, organizationId);
  const byKey = new Map([...fields].map(([key, f]) => [key, { id: f.id, type: f.type, options: optionsOf(f) }]));
  return JSON.stringify(checkConditions(conditions, 'body.conditions', byKey));
}

/** Targets as stored: one per priority, every value present (null: no such clock). */
function checkedTargets(targets: SlaTargetInput[]): string {
  const seen = new Set<string>();
  const stored: Target[] = targets.map((t, i) => {
    if (seen.has(t.priority)) throw errors.invalidField(`body.targets[${i}].priority`, `'${t.priority}' has a target already: one target per priority`);
    seen.add(t.priority);
    const target: Target = {
      priority: t.priority,
      first_response_minutes: t.first_response_minutes ?? null,
      next_response_minutes: t.next_response_minutes ?? null,
      resolution_minutes: t.resolution_minutes ?? null,
      warning_minutes: t.warning_minutes ?? 0,
    };
    if (target.first_response_minutes === null && target.next_response_minutes === null && target.resolution_minutes === null) {
      throw errors.invalidField(`body.targets[${i}]`, 'sets no clock: give first_response_minutes, next_response_minutes or resolution_minutes');
    }
    return target;
  });
  return JSON.stringify(stored);
}

/** A calendar id must name one of the organization's business-hours calendars. */
async function checkCalendar(db: Executor, organizationId: string, id: string | null | undefined): Promise<void> {
  if (id === null || id === undefined) return;
  if (!(await calendarExists(db, organizationId, id))) throw errors.invalidField('body.business_hours_id', 'does not name a business-hours calendar of this organization (see GET /v1/business-hours)');
}

async function calendarExists(db: Executor, organizationId: string, id: string): Promise<boolean> {
  return (await findBusinessHours(db, organizationId, id)) !== undefined;
}

export async function createSlaPolicy(deps: SlaPolicyDeps, auth: AuthContext, body: CreateSlaPolicyBody): Promise<SlaPolicy> {
  const organizationId = auth.organizationId;
  const policy = await deps.store.db.transaction().execute(async (trx) => {
    await assertBelowCap(trx, organizationId, { collection: 'sla_policies', max: deps.config.caps.slaPolicies, setting: 'MAX_SLA_POLICIES_PER_ORG', noun: 'SLA policies', remedy: 'delete one first' }, repo.countSlaPolicies);
    const now = nowIso();
    const targets = checkedTargets(body.targets);
    await checkCalendar(trx, organizationId, body.business_hours_id);
    const row = {
      id: randomUUID(),
      organization_id: organizationId,
      name: body.name,
      position: body.position ?? 0,
      conditions: await checked(trx, organizationId, body.conditions),
      business_hours_id: body.business_hours_id ?? null,
      targets,
      created_at: now,
      updated_at: now,
    };
    await repo.insertSlaPolicy(trx, row);
    return presentSlaPolicy(row);
  });
  forgetSlaPolicies(organizationId);
  return policy;
}

async function getRow(db: Executor, organizationId: string, id: string): Promise<repo.SlaPolicyRow> {
  const row = await repo.findSlaPolicy(db, organizationId, id);
  if (!row) throw errors.notFound('SLA policy');
  return row;
}

export async function getSlaPolicy(deps: SlaPolicyDeps, auth: AuthContext, id: string): Promise<SlaPolicy> {
  return presentSlaPolicy(await getRow(deps.store.db, auth.organizationId, id));
}

export async function listSlaPolicies(deps: SlaPolicyDeps, auth: AuthContext, page: Page): Promise<SlaPolicy[]> {
  return (await repo.listSlaPolicies(deps.store.db, auth.organizationId, page)).map(presentSlaPolicy);
}

export async function updateSlaPolicy(deps: SlaPolicyDeps, auth: AuthContext, id: string, body: UpdateSlaPolicyBody): Promise<SlaPolicy> {
  const organizationId = auth.organizationId;
  const policy = await deps.store.db.transaction().execute(async (trx) => {
    const current = await getRow(trx, organizationId, id);
    const changes: Updateable<SlaPoliciesTable> = { updated_at: nowIso() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.position !== undefined) changes.position = body.position;
    if (body.targets !== undefined) changes.targets = checkedTargets(body.targets);
    if (body.business_hours_id !== undefined) {
      await checkCalendar(trx, organizationId, body.business_hours_id);
      changes.business_hours_id = body.business_hours_id;
    }
    if (body.conditions !== undefined) changes.conditions = await checked(trx, organizationId, body.conditions);
    await repo.updateSlaPolicy(trx, organizationId, id, changes);
    return presentSlaPolicy({ ...current, ...changes });
  });
  forgetSlaPolicies(organizationId);
  return policy;
}

export async function deleteSlaPolicy(deps: SlaPolicyDeps, auth: AuthContext, id: string): Promise<void> {
  if (!(await repo.deleteSlaPolicy(deps.store.db, auth.organizationId, id))) throw errors.notFound('SLA policy');
  forgetSlaPolicies(auth.organizationId);
}
