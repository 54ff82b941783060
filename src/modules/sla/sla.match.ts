import type { Condition, Conditions } from '../views/conditions.js';

/**
 * Checked conditions (src/modules/views/conditions.ts) evaluated against one ticket in memory, as
 * SLA policies pick a ticket's policy in the ticket's own transaction without a query. It answers
 * what the compiled SQL (conditions.compile.ts) answers for the same ticket; sla.match.test.ts
 * holds the two side by side. SLA policies refuse "me", so it never meets one.
 */

/** The ticket as conditions see it: its answer's fields. */
export interface MatchableTicket {
  status: string;
  priority: string;
  channel: string;
  assigned_user_id: string | null;
  assigned_team_id: string | null;
  category: string | null;
  tags: string[];
  created_at: string;
  updated_at: string;
  due_date: string | null;
  custom_fields: object;
}

const listOf = (value: Condition['value']): Array<string | number> => (Array.isArray(value) ? value : [value as string | number]);

/** A custom field's indexed values: a multiselect's options, a checkbox as 'true'/'false'. */
function customValues(ticket: MatchableTicket, key: string): Array<string | number> {
  const value = (ticket.custom_fields as Record<string, unknown>)[key];
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value as string[];
  if (typeof value === 'number') return [value];
  return typeof value === 'boolean' || typeof value === 'string' ? [String(value)] : [];
}

/** One of `wanted` among `values`, numbers compared as numbers and text as text (as the value index does). */
function anyOf(values: Array<string | number>, wanted: Array<string | number>): boolean {
  const numbers = wanted.some((w) => typeof w === 'number');
  return values.some((v) => wanted.some((w) => (numbers ? typeof v === 'number' && typeof w === 'number' && v === w : typeof v === 'string' && v === String(w))));
}

function customMatches(ticket: MatchableTicket, key: string, { operator, value }: Condition): boolean {
  const values = customValues(ticket, key);
  if (value === null) return operator === 'is' ? values.length === 0 : values.length > 0;
  const wanted = listOf(value);
  switch (operator) {
    case 'is':
    case 'in':
    case 'includes_any':
      return anyOf(values, wanted);
    case 'includes_all':
      return wanted.every((w) => anyOf(values, [w]));
    default:
      return !anyOf(values, wanted);
  }
}

function columnMatches(actual: string | null, { operator, value }: Condition, now: Date): boolean {
  if (value === null) return operator === 'is' ? actual === null : actual !== null;
  switch (operator) {
    case 'before':
      return actual !== null && actual < (value as string);
    case 'after':
      return actual !== null && actual > (value as string);
    case 'within_last_hours':
      return actual !== null && actual >= new Date(now.getTime() - (value as number) * 3_600_000).toISOString();
  }
  const values = listOf(value).map(String);
  const found = actual !== null && values.includes(actual);
  return operator === 'is_not' || operator === 'not_in' ? !found : found;
}

function matches(ticket: MatchableTicket, condition: Condition, now: Date): boolean {
  const { field, operator } = condition;
  if (field.startsWith('custom_fields.')) return customMatches(ticket, field.slice('custom_fields.'.length), condition);
  if (field === 'tags') {
    const tags = condition.value as string[];
    if (operator === 'includes_all') return tags.every((t) => ticket.tags.includes(t));
    const any = tags.some((t) => ticket.tags.includes(t));
    return operator === 'includes_any' ? any : !any;
  }
  return columnMatches(ticket[field as keyof MatchableTicket] as string | null, condition, now);
}

/** Whether the ticket meets every `all` and, when `any` is not empty, one of `any`. */
export function ticketMatches(ticket: MatchableTicket, conditions: Required<Conditions>, now: Date): boolean {
  if (!conditions.all.every((c) => matches(ticket, c, now))) return false;
  return conditions.any.length === 0 || conditions.any.some((c) => matches(ticket, c, now));
}
