import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { AutomationsTable, TriggersTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertBelowCap } from '../../limits/collection-caps.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { feedHead } from '../events/events.repository.js';
import * as repo from './automations.repository.js';
import { checkEventTypes, checkRuleActions, checkRuleConditions } from './automations.rules.js';
import type {
  Automation,
  CreateAutomationBody,
  CreateTriggerBody,
  RuleActions,
  Trigger,
  UpdateAutomationBody,
  UpdateTriggerBody,
} from './automations.schemas.js';

/**
 * Triggers and automations as records (docs/api-behaviour.md, "Triggers and automations"); the
 * trigger worker (triggers.worker.ts) and the automations job (automations.job.ts) run them.
 *
 * Loops: a trigger's own changes carry the trigger as actor and the worker runs no trigger on
 * them, nor on an automation's, so no trigger can set off another or itself: a chain or loop
 * between rules cannot be built. What is left to refuse is a rule without actions (422).
 */
export interface RuleDeps {
  store: Store;
  config: Config;
}

export function presentTrigger(row: repo.TriggerRow): Trigger {
  return {
    id: row.id,
    name: row.name,
    on: JSON.parse(row.on_types) as string[],
    conditions: JSON.parse(row.conditions) as Trigger['conditions'],
    actions: JSON.parse(row.actions) as RuleActions,
    active: Number(row.active) === 1,
    position: Number(row.position),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

export function presentAutomation(row: Omit<repo.AutomationRow, 'lease_owner' | 'lease_expires_at' | 'next_run_at'>): Automation {
  return {
    id: row.id,
    name: row.name,
    conditions: JSON.parse(row.conditions) as Automation['conditions'],
    actions: JSON.parse(row.actions) as RuleActions,
    active: Number(row.active) === 1,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

// ---------------------------------------------------------------------------------------------
// Triggers

export async function createTrigger(deps: RuleDeps, auth: AuthContext, body: CreateTriggerBody): Promise<Trigger> {
  const org = auth.organizationId;
  return deps.store.db.transaction().execute(async (trx) => {
    await assertBelowCap(trx, org, { collection: 'triggers', max: deps.config.caps.triggers, setting: 'MAX_TRIGGERS_PER_ORG', noun: 'triggers', remedy: 'delete one first' }, repo.countTriggers);
    const on = checkEventTypes(body.on);
    const conditions = await checkRuleConditions(trx, org, body.conditions, false);
    const actions = await checkRuleActions(trx, org, body.actions);
    const now = nowIso();
    // It runs on events from now on: those before it was made never run it.
    const head = await feedHead(trx, org);
    const row = {
      id: randomUUID(),
      organization_id: org,
      name: body.name,
      on_types: JSON.stringify(on),
      conditions: JSON.stringify(conditions),
      actions: JSON.stringify(actions),
      active: body.active === false ? 0 : 1,
      position: body.position ?? ((await repo.lastTriggerPosition(trx, org)) ?? -1) + 1,
      after_position: head,
      created_at: now,
      updated_at: now,
    };
    await repo.insertTrigger(trx, row);
    await repo.ensureTriggerCursor(trx, org, head);
    return presentTrigger(row);
  });
}

async function triggerRow(db: Executor, auth: AuthContext, id: string): Promise<repo.TriggerRow> {
  const row = await repo.findTrigger(db, auth.organizationId, id);
  if (!row) throw errors.notFound('Trigger');
  return row;
}

export async function getTrigger(deps: RuleDeps, auth: AuthContext, id: string): Promise<Trigger> {
  return presentTrigger(await triggerRow(deps.store.db, auth, id));
}

export async function listTriggers(deps: RuleDeps, auth: AuthContext, page: Page): Promise<Trigger[]> {
  return (await repo.listTriggers(deps.store.db, auth.organizationId, page)).map(presentTrigger);
}

export async function updateTrigger(deps: RuleDeps, auth: AuthContext, id: string, body: UpdateTriggerBody): Promise<Trigger> {
  const org = auth.organizationId;
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await triggerRow(trx, auth, id);
    const changes: Updateable<TriggersTable> = { updated_at: nowIso() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.on !== undefined) changes.on_types = JSON.stringify(checkEventTypes(body.on));
    if (body.conditions !== undefined) changes.conditions = JSON.stringify(await checkRuleConditions(trx, org, body.conditions, false));
    if (body.actions !== undefined) changes.actions = JSON.stringify(await checkRuleActions(trx, org, body.actions));
    if (body.position !== undefined) changes.position = body.position;
    if (body.active !== undefined) {
      changes.active = body.active ? 1 : 0;
      // Switched on again: it runs on events from now on, not on those it missed while off.
      if (body.active && Number(current.active) === 0) changes.after_position = await feedHead(trx, org);
    }
    await repo.updateTrigger(trx, org, id, changes);
    return presentTrigger({ ...current, ...changes });
  });
}

export async function deleteTrigger(deps: RuleDeps, auth: AuthContext, id: string): Promise<void> {
  if ((await repo.deleteTrigger(deps.store.db, auth.organizationId, id)) === 0) throw errors.notFound('Trigger');
}

// ---------------------------------------------------------------------------------------------
// Automations

export async function createAutomation(deps: RuleDeps, auth: AuthContext, body: CreateAutomationBody): Promise<Automation> {
  const org = auth.organizationId;
  return deps.store.db.transaction().execute(async (trx) => {
    await assertBelowCap(trx, org, { collection: 'automations', max: deps.config.caps.automations, setting: 'MAX_AUTOMATIONS_PER_ORG', noun: 'automations', remedy: 'delete one first' }, repo.countAutomations);
    const conditions = await checkRuleConditions(trx, org, body.conditions, true);
    const actions = await checkRuleActions(trx, org, body.actions);
    const now = nowIso();
    const row = {
      id: randomUUID(),
      organization_id: org,
      name: body.name,
      conditions: JSON.stringify(conditions),
      actions: JSON.stringify(actions),
      active: body.active === false ? 0 : 1,
      next_run_at: now,
      lease_owner: null,
      lease_expires_at: null,
      created_at: now,
      updated_at: now,
    };
    await repo.insertAutomation(trx, row);
    return presentAutomation(row);
  });
}

async function automationRow(db: Executor, auth: AuthContext, id: string): Promise<repo.AutomationRow> {
  const row = await repo.findAutomation(db, auth.organizationId, id);
  if (!row) throw errors.notFound('Automation');
  return row;
}

export async function getAutomation(deps: RuleDeps, auth: AuthContext, id: string): Promise<Automation> {
  return presentAutomation(await automationRow(deps.store.db, auth, id));
}

export async function listAutomations(deps: RuleDeps, auth: AuthContext, page: Page): Promise<Automation[]> {
  return (await repo.listAutomations(deps.store.db, auth.organizationId, page)).map(presentAutomation);
}

export async function updateAutomation(deps: RuleDeps, auth: AuthContext, id: string, body: UpdateAutomationBody): Promise<Automation> {
  const org = auth.organizationId;
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await automationRow(trx, auth, id);
    const changes: Updateable<AutomationsTable> = { updated_at: nowIso() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.conditions !== undefined) changes.conditions = JSON.stringify(await checkRuleConditions(trx, org, body.conditions, true));
    if (body.actions !== undefined) changes.actions = JSON.stringify(await checkRuleActions(trx, org, body.actions));
    if (body.active !== undefined) changes.active = body.active ? 1 : 0;
    // Changed conditions or actions are checked at the next sweep.
    if (body.conditions !== undefined || body.actions !== undefined || body.active === true) changes.next_run_at = changes.updated_at;
    await repo.updateAutomation(trx, org, id, changes);
    return presentAutomation({ ...current, ...changes });
  });
}

export async function deleteAutomation(deps: RuleDeps, auth: AuthContext, id: string): Promise<void> {
  if ((await repo.deleteAutomation(deps.store.db, auth.organizationId, id)) === 0) throw errors.notFound('Automation');
}
