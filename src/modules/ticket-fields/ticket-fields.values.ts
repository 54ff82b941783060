import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { TicketFieldValuesTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Executor } from '../../shared/executor.js';
import { replaceFieldValues, type TicketFieldRow } from './ticket-fields.repository.js';
import { MAX_TEXT_VALUE_LENGTH, type CustomFieldsInput } from './ticket-fields.schemas.js';

/**
 * A ticket's custom field values: checked against the organization's definitions, stored as a JSON
 * object on the ticket and as indexed rows (docs/api-behaviour.md, Custom fields).
 */

export type FieldValue = string | number | boolean | string[];
export type CustomFields = Record<string, FieldValue>;

export const optionsOf = (field: TicketFieldRow): string[] => (field.options === null ? [] : (JSON.parse(field.options) as string[]));

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const isDate = (value: string): boolean => {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().startsWith(value);
};

/** The value as stored, or a 422 naming `at` when it does not suit the field. */
export function checkValue(field: TicketFieldRow, value: unknown, at: string): FieldValue {
  const options = optionsOf(field);
  switch (field.type) {
    case 'text':
      if (typeof value !== 'string') throw errors.invalidField(at, 'must be a string (a text field)');
      if (value.length > MAX_TEXT_VALUE_LENGTH) throw errors.invalidField(at, `must be at most ${MAX_TEXT_VALUE_LENGTH} characters`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw errors.invalidField(at, 'must be a number (a number field)');
      return value;
    case 'date':
      if (typeof value !== 'string' || !isDate(value)) throw errors.invalidField(at, 'must be a date, YYYY-MM-DD (a date field)');
      return value;
    case 'checkbox':
      if (typeof value !== 'boolean') throw errors.invalidField(at, 'must be true or false (a checkbox field)');
      return value;
    case 'dropdown':
      if (typeof value !== 'string' || !options.includes(value)) throw errors.invalidField(at, `must be one of: ${options.join(', ')}`);
      return value;
    case 'multiselect': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw errors.invalidField(at, 'must be a list of options (a multiselect field)');
      const bad = (value as string[]).find((v) => !options.includes(v));
      if (bad !== undefined) throw errors.invalidField(at, `'${bad}' is not one of: ${options.join(', ')}`);
      // In the order of the options, each once.
      return options.filter((o) => (value as string[]).includes(o));
    }
  }
}

/**
 * The custom fields after a create (`current` empty) or a PATCH (merged over `current`; null clears
 * a key). Unknown keys and bad values are 422s naming `body.custom_fields.<key>`; so is a required
 * field left without a value.
 */
export function customFieldsAfter(fields: Map<string, TicketFieldRow>, current: CustomFields, input: object | undefined): CustomFields {
  const next: CustomFields = { ...current };
  for (const [key, value] of Object.entries((input ?? {}) as CustomFieldsInput)) {
    const at = `body.custom_fields.${key}`;
    const field = fields.get(key);
    if (!field) throw errors.invalidField(at, 'is not a custom field of this organization (see GET /v1/ticket-fields)');
    if (value === null) delete next[key];
    else next[key] = checkValue(field, value, at);
  }
  for (const field of fields.values()) {
    if (field.required === 1 && next[field.key] === undefined) throw errors.invalidField(`body.custom_fields.${field.key}`, 'is required');
  }
  // Keys in a stable order, so the same values are the same text.
  return Object.fromEntries(Object.keys(next).sort().map((k) => [k, next[k]!]));
}

/** The indexed rows of a field's value: text-like values as text, numbers as numbers, one row per option of a multiselect. */
export function valueRows(
  organizationId: string,
  ticket: { id: string; ticket_number: number },
  field: TicketFieldRow,
  value: FieldValue,
): Array<Insertable<TicketFieldValuesTable>> {
  const row = (text: string | null, number: number | null) => ({
    id: randomUUID(),
    organization_id: organizationId,
    field_id: field.id,
    ticket_id: ticket.id,
    ticket_number: ticket.ticket_number,
    value_text: text,
    value_number: number,
  });
  if (Array.isArray(value)) return value.map((v) => row(v, null));
  if (typeof value === 'number') return [row(null, value)];
  return [row(String(value), null)];
}

/** A filter's text as the field's typed value (checkbox `true`/`false`, a number, a date, an option), or a 422 naming the parameter. */
export function filterValue(field: TicketFieldRow, raw: string, at: string): { text: string } | { number: number } {
  switch (field.type) {
    case 'number': {
      const n = raw.trim() === '' ? NaN : Number(raw);
      if (!Number.isFinite(n)) throw errors.invalidField(at, 'must be a number (a number field)');
      return { number: n };
    }
    case 'checkbox':
      if (raw !== 'true' && raw !== 'false') throw errors.invalidField(at, 'must be true or false (a checkbox field)');
      return { text: raw };
    case 'date':
      if (!isDate(raw)) throw errors.invalidField(at, 'must be a date, YYYY-MM-DD (a date field)');
      return { text: raw };
    case 'dropdown':
    case 'multiselect':
      if (!optionsOf(field).includes(raw)) throw errors.invalidField(at, `must be one of: ${optionsOf(field).join(', ')}`);
      return { text: raw };
    case 'text':
      return { text: raw };
  }
}

/** Writes a ticket's indexed values for the fields whose value changed between `before` and `after`. */
export async function writeTicketFieldValues(
  trx: Executor,
  organizationId: string,
  ticket: { id: string; ticket_number: number },
  fields: Map<string, TicketFieldRow>,
  before: CustomFields,
  after: CustomFields,
): Promise<void> {
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  const ids: string[] = [];
  const rows = [];
  for (const key of changed) {
    const field = fields.get(key);
    if (!field) continue;
    ids.push(field.id);
    if (after[key] !== undefined) rows.push(...valueRows(organizationId, ticket, field, after[key]));
  }
  await replaceFieldValues(trx, organizationId, ticket.id, ids, rows);
}
