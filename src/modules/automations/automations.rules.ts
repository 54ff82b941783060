import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/types.js';
import { AppError, errors } from '../../errors.js';
import type { Executor } from '../../shared/executor.js';
import { isEventType } from '../events/events.schemas.js';
import { findDefaultMailbox } from '../mail/mailboxes.repository.js';
import { checkActions, type Actions } from '../macros/actions.js';
import { ticketFieldsByKey } from '../ticket-fields/ticket-fields.repository.js';
import { optionsOf } from '../ticket-fields/ticket-fields.values.js';
import { checkConditions, MAX_WITHIN_HOURS, usesMe, type Condition, type ConditionField, type Conditions } from '../views/conditions.js';
import { compileConditions, type CompileContext } from '../views/conditions.compile.js';
import { TRIGGER_EVENT_TYPES, type RuleAction, type RuleActions } from './automations.schemas.js';

/**
 * What triggers and automations are checked against when saved (each failure a 422 naming the
 * exact field), and their conditions compiled to SQL: the shared condition format plus, for
 * automations, `hours_since_created`, `hours_since_updated` and `hours_since_status_change`
 * (`at_least` / `less_than` a number of hours, fractions allowed, 0 included), compared with
 * timestamps computed from the time of the check so the organization's indexes still serve.
 */

export const HOURS_FIELDS = { hours_since_created: 'created_at', hours_since_updated: 'updated_at', hours_since_status_change: 'status_changed_at' } as const;
type HoursField = keyof typeof HOURS_FIELDS;
const HOURS_OPERATORS = ['at_least', 'less_than'];
const isHours = (field: string): field is HoursField => Object.hasOwn(HOURS_FIELDS, field);

export type StoredConditions = Required<Conditions>;
export type NotifyAction = Extract<RuleAction, { field: 'notify' }>;

const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** Triggers follow ticket events only; each named type must be one of them (422 naming `body.on[i]`). */
export function checkEventTypes(on: string[]): string[] {
  on.forEach((type, i) => {
    if (!(TRIGGER_EVENT_TYPES as readonly string[]).includes(type)) {
      const why = isEventType(type) ? `'${type}' is not an event of a ticket that triggers follow` : `'${type}' is not an event type`;
      throw errors.invalidField(`body.on[${i}]`, `${why}; use one of ${TRIGGER_EVENT_TYPES.join(', ')}`);
    }
  });
  return on;
}

/** A placeholder the shared checks accept, standing where an hours_since condition is (so the indexes of errors stay right). */
const PLACEHOLDER: Condition = { field: 'created_at', operator: 'within_last_hours', value: 1 };

function checkHours(condition: Condition, at: string): Condition {
  if (!HOURS_OPERATORS.includes(condition.operator)) throw errors.invalidField(`${at}.operator`, `operator '${condition.operator}' does not apply to ${condition.field}; use one of ${HOURS_OPERATORS.join(', ')}`);
  const v = condition.value;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_WITHIN_HOURS) throw errors.invalidField(`${at}.value`, `must be a number of hours, 0 to ${MAX_WITHIN_HOURS} (fractions allowed)`);
  return { field: condition.field, operator: condition.operator, value: v };
}

/**
 * Conditions as stored. `hours`: whether the hours_since_* fields are allowed (automations). A
 * rule runs without anyone behind it, so "me" is refused.
 */
export async function checkRuleConditions(db: Executor, organizationId: string, conditions: Conditions, hours: boolean): Promise<StoredConditions> {
  const at = 'body.conditions';
  const pick = (list: Condition[] | undefined, name: 'all' | 'any') =>
    (list ?? []).map((c, i) => {
      if (!isHours(c.field)) return c;
      if (!hours) throw errors.invalidField(`${at}.${name}[${i}].field`, `'${c.field}' is a field of automations only: a trigger runs at an event`);
      return PLACEHOLDER;
    });
  if (usesMe(conditions)) throw errors.invalidField(at, 'assigned_user_id "me" has no meaning here: a trigger or automation runs without a user; name the user');
  const rows = await ticketFieldsByKey(db, organizationId);
  const fields = new Map<string, ConditionField>([...rows].map(([key, f]) => [key, { id: f.id, type: f.type, options: optionsOf(f) }]));
  const checked = checkConditions({ all: pick(conditions.all, 'all'), any: pick(conditions.any, 'any') }, at, fields);
  const restore = (list: Condition[], original: Condition[] | undefined, name: 'all' | 'any') =>
    list.map((c, i) => (isHours(original![i]!.field) ? checkHours(original![i]!, `${at}.${name}[${i}]`) : c));
  return { all: restore(checked.all, conditions.all, 'all'), any: restore(checked.any, conditions.any, 'any') };
}

/** A 422 of checkActions over the macro actions alone, its indexes put back to those of the whole list. */
function reindexed(error: unknown, indexes: number[]): unknown {
  if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) return error;
  return errors.validation(error.errors.map((e) => ({ ...e, field: e.field.replace(/^body\.actions\[(\d+)\]/, (_m, j: string) => `body.actions[${indexes[Number(j)]}]`) })));
}

/** The actions as stored: the macro ones checked as macros check them, notify's address and the mailbox to send from. */
export async function checkRuleActions(db: Executor, organizationId: string, actions: RuleActions): Promise<RuleActions> {
  const macro: Actions = [];
  const indexes: number[] = [];
  actions.forEach((a, i) => {
    if (a.field === 'notify') return;
    if (a.field === 'assigned_user_id' && a.value === 'me') throw errors.invalidField(`body.actions[${i}].value`, '"me" has no meaning here: a trigger or automation runs without a user; name the user');
    macro.push(a);
    indexes.push(i);
  });
  let checked: Actions = [];
  try {
    if (macro.length > 0) checked = await checkActions(db, organizationId, macro, 'body.actions');
  } catch (error) {
    throw reindexed(error, indexes);
  }
  const out: RuleActions = [];
  let next = 0;
  for (const [i, a] of actions.entries()) {
    if (a.field !== 'notify') {
      out.push(checked[next++]!);
      continue;
    }
    const notify = a as NotifyAction;
    const to = notify.value.to.trim().toLowerCase();
    if (to !== 'requester' && to !== 'assignee' && !ADDRESS.test(to)) throw errors.invalidField(`body.actions[${i}].value.to`, 'must be "requester", "assignee" or an email address');
    // Decided: refused when saved rather than failing at every run (docs/api-behaviour.md#triggers-and-automations).
    if (!(await findDefaultMailbox(db, organizationId))) {
      throw errors.invalidField(`body.actions[${i}]`, 'this organization has no default mailbox to send from: add one (POST /v1/mailboxes) first');
    }
    out.push({ field: 'notify', value: { ...notify.value, to } });
  }
  return out;
}

type Eb = ExpressionBuilder<Database, 'tickets'>;

function hoursCondition(eb: Eb, condition: Condition, now: Date): Expression<SqlBool> {
  const column = HOURS_FIELDS[condition.field as HoursField];
  const ref = column === 'status_changed_at' ? sql<string>`coalesce(tickets.status_changed_at, tickets.created_at)` : sql.ref<string>(`tickets.${column}`);
  const at = new Date(now.getTime() - (condition.value as number) * 3_600_000).toISOString();
  return condition.operator === 'at_least' ? eb(ref, '<=', at) : eb(ref, '>', at);
}

/** Stored conditions of a trigger or automation as a where-expression over `tickets`. */
export function compileRuleConditions(conditions: StoredConditions, ctx: CompileContext) {
  return (eb: Eb): Expression<SqlBool> => {
    const one = (c: Condition) => (isHours(c.field) ? hoursCondition(eb, c, ctx.now) : compileConditions({ all: [c], any: [] }, ctx)(eb));
    const parts = conditions.all.map(one);
    if (conditions.any.length > 0) parts.push(eb.or(conditions.any.map(one)));
    return eb.and(parts);
  };
}
