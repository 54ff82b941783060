import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Condition, Conditions } from './conditions.js';

/**
 * Checked conditions (conditions.ts) as a where-expression over `tickets`: columns compared in
 * place (the organization's ticket indexes lead with organization_id); tags and custom fields as
 * `exists` seeks of ticket_tags_pkey (organization, tag, number) and the field value indexes
 * (organization, field, value, number), as the ticket list's filters do. For a count (`semiJoin`)
 * they are `ticket_number in (...)` instead: the store may then read the matching rows from those
 * indexes and look up only their tickets, where a count by `exists` probes once per ticket of the
 * organization (measured in bench/RESULTS.md, Views).
 */

export interface CompileContext {
  organizationId: string;
  /** The caller's user, for `assigned_user_id` "me" (the service refuses "me" without one first). */
  me: string | null;
  /** Custom field ids by key; a field deleted since the view was saved has no values. */
  fieldIds: Map<string, string>;
  now: Date;
  /** Counting rather than paging: tags and custom fields as `ticket_number in (subquery)`. */
  semiJoin?: boolean;
}

type Eb = ExpressionBuilder<Database, 'tickets'>;
type Column = 'status' | 'priority' | 'channel' | 'assigned_user_id' | 'assigned_team_id' | 'category' | 'created_at' | 'updated_at' | 'due_date' | 'sla_next_due_at';

const ref = (column: Column) => `tickets.${column}` as const;

const tagRows = (eb: Eb, ctx: CompileContext, tags: string[]) =>
  eb.selectFrom('ticket_tags').where('ticket_tags.organization_id', '=', ctx.organizationId).where('ticket_tags.tag', 'in', tags);

const valueRows = (eb: Eb, ctx: CompileContext, key: string) =>
  eb.selectFrom('ticket_field_values').where('ticket_field_values.organization_id', '=', ctx.organizationId).where('ticket_field_values.field_id', '=', ctx.fieldIds.get(key) ?? '');

/** The ticket carries one of the tags: `exists`, correlated by its number, or for a count `in`. */
function tagged(eb: Eb, ctx: CompileContext, tags: string[]): Expression<SqlBool> {
  const rows = tagRows(eb, ctx, tags);
  if (ctx.semiJoin) return eb('tickets.ticket_number', 'in', rows.select('ticket_tags.ticket_number'));
  return eb.exists(rows.select(sql.lit(1).as('one')).whereRef('ticket_tags.ticket_number', '=', 'tickets.ticket_number'));
}

/** The ticket has one of `rows` (values of a field), as `tagged`. */
function among(eb: Eb, ctx: CompileContext, rows: ReturnType<typeof valueRows>): Expression<SqlBool> {
  if (ctx.semiJoin) return eb('tickets.ticket_number', 'in', rows.select('ticket_field_values.ticket_number'));
  return eb.exists(rows.select(sql.lit(1).as('one')).whereRef('ticket_field_values.ticket_number', '=', 'tickets.ticket_number'));
}

function valued(eb: Eb, ctx: CompileContext, key: string, values: Array<string | number> | null) {
  let rows = valueRows(eb, ctx, key);
  if (values !== null) {
    const numbers = values.filter((v): v is number => typeof v === 'number');
    const texts = values.filter((v): v is string => typeof v === 'string');
    rows = numbers.length > 0 ? rows.where('ticket_field_values.value_number', 'in', numbers) : rows.where('ticket_field_values.value_text', 'in', texts);
  }
  return among(eb, ctx, rows);
}

const listOf = (value: Condition['value']): Array<string | number> => (Array.isArray(value) ? value : [value as string | number]);

const RANGE_SQL: Record<string, '>' | '>=' | '<' | '<='> = { gt: '>', after: '>', gte: '>=', lt: '<', before: '<', lte: '<=' };

/**
 * The ticket's value of a number or date field lies in the range. Paging, correlated on the ticket
 * id, so a ticket is one seek of ticket_field_values_field_idx (organization, field, ticket) rather
 * than a walk of the value index's whole range per ticket (those fields hold one value per ticket):
 * the value is compared as an expression (`+ 0`, `|| ''`) so neither store picks that walk. For a
 * count, the range of the value index itself (organization, field, value, number).
 */
function inRange(eb: Eb, ctx: CompileContext, key: string, { operator, value }: Condition) {
  const [from, to] = (Array.isArray(value) ? value : [value, value]) as Array<string | number>;
  const name = typeof from === 'number' ? 'value_number' : 'value_text';
  const column = ctx.semiJoin ? sql.ref(`ticket_field_values.${name}`) : name === 'value_number' ? sql`ticket_field_values.value_number + 0` : sql`ticket_field_values.value_text || ''`;
  const compare = (op: string, v: string | number) => sql<SqlBool>`${column} ${sql.raw(op)} ${v}`;
  const test = operator === 'between' ? sql<SqlBool>`${compare('>=', from!)} and ${compare('<=', to!)}` : compare(RANGE_SQL[operator]!, from!);
  const rows = valueRows(eb, ctx, key).where(test);
  if (ctx.semiJoin) return among(eb, ctx, rows);
  return eb.exists(rows.select(sql.lit(1).as('one')).whereRef('ticket_field_values.ticket_id', '=', 'tickets.id'));
}

function customCondition(eb: Eb, ctx: CompileContext, key: string, condition: Condition): Expression<SqlBool> {
  const { operator, value } = condition;
  if (operator in RANGE_SQL || operator === 'between') return inRange(eb, ctx, key, condition);
  if (value === null) return operator === 'is' ? eb.not(valued(eb, ctx, key, null)) : valued(eb, ctx, key, null);
  const values = listOf(value);
  switch (operator) {
    case 'is':
    case 'in':
    case 'includes_any':
      return valued(eb, ctx, key, values);
    case 'includes_all':
      return eb.and(values.map((v) => valued(eb, ctx, key, [v])));
    default: // is_not, not_in, excludes
      return eb.not(valued(eb, ctx, key, values));
  }
}

function columnCondition(eb: Eb, ctx: CompileContext, column: Column, { operator, value }: Condition): Expression<SqlBool> {
  const col = ref(column);
  if (value === null) return eb(col, operator === 'is' ? 'is' : 'is not', null);
  switch (operator) {
    case 'before':
      return eb(col, '<', value as string);
    case 'after':
      return eb(col, '>', value as string);
    case 'within_last_hours':
      return eb(col, '>=', new Date(ctx.now.getTime() - (value as number) * 3_600_000).toISOString());
  }
  const values = listOf(value).map((v) => (v === 'me' && column === 'assigned_user_id' ? ctx.me! : String(v)));
  const negated = operator === 'is_not' || operator === 'not_in';
  const match = values.length === 1 ? eb(col, negated ? '<>' : '=', values[0]!) : eb(col, negated ? 'not in' : 'in', values);
  // "Not this one" includes the tickets without one.
  return negated && column !== 'status' && column !== 'priority' && column !== 'channel' ? eb.or([eb(col, 'is', null), match]) : match;
}

function compileCondition(eb: Eb, ctx: CompileContext, condition: Condition): Expression<SqlBool> {
  const { field, operator, value } = condition;
  if (field.startsWith('custom_fields.')) return customCondition(eb, ctx, field.slice('custom_fields.'.length), condition);
  if (field === 'tags') {
    const tags = value as string[];
    if (operator === 'includes_all') return eb.and(tags.map((t) => tagged(eb, ctx, [t])));
    return operator === 'includes_any' ? tagged(eb, ctx, tags) : eb.not(tagged(eb, ctx, tags));
  }
  return columnCondition(eb, ctx, field as Column, condition);
}

/** The where-expression of checked conditions: every `all`, and one of `any` when there are some. */
export function compileConditions(conditions: Required<Conditions>, ctx: CompileContext) {
  return (eb: Eb): Expression<SqlBool> => {
    const parts = conditions.all.map((c) => compileCondition(eb, ctx, c));
    if (conditions.any.length > 0) parts.push(eb.or(conditions.any.map((c) => compileCondition(eb, ctx, c))));
    return eb.and(parts);
  };
}
