import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { MacrosTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { IfMatch } from '../../http/conditional.js';
import { assertBelowCap } from '../../limits/collection-caps.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { actorOf, withEvents } from '../events/events.log.js';
import type { Mailer } from '../mail/mail.outbox.js';
import type { Ticket } from '../tickets/tickets.schemas.js';
import { applyActions, checkActions, scopesOfActions, type Actions } from './actions.js';
import * as repo from './macros.repository.js';
import type { CreateMacroBody, Macro, UpdateMacroBody } from './macros.schemas.js';

export interface MacroDeps {
  store: Store;
  config: Config;
  /** Public comments of a macro are mailed to the customer, as the comments route mails them. */
  mailer?: Mailer | undefined;
}

export function presentMacro(row: repo.MacroRow): Macro {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    actions: JSON.parse(row.actions) as Actions,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

async function getRow(db: Executor, organizationId: string, id: string): Promise<repo.MacroRow> {
  const row = await repo.findMacro(db, organizationId, id);
  if (!row) throw errors.notFound('Macro');
  return row;
}

export async function createMacro(deps: MacroDeps, auth: AuthContext, body: CreateMacroBody): Promise<Macro> {
  const { organizationId } = auth;
  return deps.store.db.transaction().execute(async (trx) => {
    await assertBelowCap(trx, organizationId, { collection: 'macros', max: deps.config.caps.macros, setting: 'MAX_MACROS_PER_ORG', noun: 'macros', remedy: 'delete one first' }, repo.countMacros);
    const now = nowIso();
    const row = {
      id: randomUUID(),
      organization_id: organizationId,
      name: body.name,
      description: body.description ?? null,
      actions: JSON.stringify(await checkActions(trx, organizationId, body.actions, 'body.actions')),
      created_at: now,
      updated_at: now,
    };
    await repo.insertMacro(trx, row);
    return presentMacro(row);
  });
}

export async function getMacro(deps: MacroDeps, auth: AuthContext, id: string): Promise<Macro> {
  return presentMacro(await getRow(deps.store.db, auth.organizationId, id));
}

export async function listMacros(deps: MacroDeps, auth: AuthContext, page: Page): Promise<Macro[]> {
  return (await repo.listMacros(deps.store.db, auth.organizationId, page)).map(presentMacro);
}

export async function updateMacro(deps: MacroDeps, auth: AuthContext, id: string, body: UpdateMacroBody): Promise<Macro> {
  const { organizationId } = auth;
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await getRow(trx, organizationId, id);
    const changes: Updateable<MacrosTable> = { updated_at: nowIso() };
    if (body.name !== undefined) changes.name = body.name;
    if (body.description !== undefined) changes.description = body.description;
    if (body.actions !== undefined) changes.actions = JSON.stringify(await checkActions(trx, organizationId, body.actions, 'body.actions'));
    await repo.updateMacro(trx, organizationId, id, changes);
    return presentMacro({ ...current, ...changes });
  });
}

export async function deleteMacro(deps: MacroDeps, auth: AuthContext, id: string): Promise<void> {
  if (!(await repo.deleteMacro(deps.store.db, auth.organizationId, id))) throw errors.notFound('Macro');
}

/**
 * Applies a macro to a ticket in one transaction (applyActions: the ticket service's update and
 * comment paths, their events with the caller as actor) and answers the ticket. A macro with a
 * comment needs comments:write too (403). The macro is checked again as it is applied: an action
 * naming a record deleted since it was saved is 422 naming `macro.actions[i]`, and nothing changes.
 */
export async function applyMacro(deps: MacroDeps, auth: AuthContext, ticketId: string, macroId: string, ifMatch?: IfMatch): Promise<Ticket> {
  const { organizationId } = auth;
  const actor = actorOf(auth);
  return withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    const macro = presentMacro(await getRow(trx, organizationId, macroId));
    const missing = scopesOfActions(macro.actions).find((scope) => !auth.scopes.has(scope));
    if (missing !== undefined) throw errors.forbidden(missing);
    const ctx = { organizationId, events, mailer: deps.mailer, at: 'macro.actions', ifMatch };
    return (await applyActions(trx, ctx, ticketId, macro.actions, actor)).ticket;
  });
}
