import { Type, type Static } from 'typebox';
import { errors } from '../../errors.js';
import { toIso } from '../../shared/time.js';

/**
 * The condition format shared by views (and later SLA policies and triggers):
 * `{ "all": [ {field, operator, value} ], "any": [ ... ] }`. A ticket matches when it meets every
 * condition of `all` and, when `any` is not empty, at least one of `any`. Every field and operator
 * is documented in docs/api-behaviour.md, "Views and conditions". This file holds the schema and
 * the checks; conditions.compile.ts turns checked conditions into SQL.
 */

export const MAX_CONDITIONS_PER_LIST = 20;
export const MAX_VALUES = 50;
const MAX_VALUE_LENGTH = 200;
/** Ten years: `within_last_hours` reaches no further back. */
export const MAX_WITHIN_HOURS = 87_600;

const Scalar = Type.Union([Type.String({ maxLength: MAX_VALUE_LENGTH }), Type.Number(), Type.Boolean(), Type.Null()]);
const Value = Type.Union([Scalar, Type.Array(Type.Union([Type.String({ maxLength: MAX_VALUE_LENGTH }), Type.Number()]), { maxItems: MAX_VALUES })]);

export const Condition = Type.Object(
  {
    field: Type.String({ minLength: 1, maxLength: 80, examples: ['status'] }),
    operator: Type.String({ minLength: 1, maxLength: 40, examples: ['in'] }),
    value: Value,
  },
  { additionalProperties: false },
);

export const Conditions = Type.Object(
  {
    all: Type.Optional(Type.Array(Condition, { maxItems: MAX_CONDITIONS_PER_LIST, description: 'Every one must hold.' })),
    any: Type.Optional(Type.Array(Condition, { maxItems: MAX_CONDITIONS_PER_LIST, description: 'At least one must hold (when not empty).' })),
  },
  {
    additionalProperties: false,
    description: `At most ${MAX_CONDITIONS_PER_LIST} conditions per list; fields and operators: docs/api-behaviour.md, "Views and conditions".`,
  },
);

export type Condition = Static<typeof Condition>;
export type Conditions = Static<typeof Conditions>;
export type ConditionValue = Condition['value'];

/** A custom field as conditions need it. */
export interface ConditionField {
  id: string;
  type: 'text' | 'number' | 'date' | 'checkbox' | 'dropdown' | 'multiselect';
  options: string[];
}

type Kind = 'enum' | 'ref' | 'tags' | 'time';
interface FieldSpec {
  kind: Kind;
  nullable: boolean;
  values?: readonly string[];
}

export const STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export const CHANNELS = ['api', 'portal', 'email'] as const;

export const FIELDS: Record<string, FieldSpec> = {
  status: { kind: 'enum', nullable: false, values: STATUSES },
  priority: { kind: 'enum', nullable: false, values: PRIORITIES },
  channel: { kind: 'enum', nullable: false, values: CHANNELS },
  assigned_user_id: { kind: 'ref', nullable: true },
  assigned_team_id: { kind: 'ref', nullable: true },
  category: { kind: 'ref', nullable: true },
  tags: { kind: 'tags', nullable: false },
  created_at: { kind: 'time', nullable: false },
  updated_at: { kind: 'time', nullable: false },
  due_date: { kind: 'time', nullable: true },
  /** The earliest due time of the ticket's running SLA clocks (none: paused, fulfilled, or no policy). */
  sla_next_due_at: { kind: 'time', nullable: true },
};

const EQUALITY = ['is', 'is_not', 'in', 'not_in'];
const SET = ['includes_all', 'includes_any', 'excludes'];
const TIME = ['before', 'after', 'within_last_hours'];
/** Ranges over a number or date custom field: bounds exclusive (gt, lt) or inclusive (gte, lte, between). */
export const RANGE = ['gt', 'gte', 'lt', 'lte', 'between'];

/** The operators a field takes. */
export function operatorsOf(spec: FieldSpec | ConditionField): string[] {
  if ('kind' in spec) {
    if (spec.kind === 'tags') return SET;
    if (spec.kind === 'time') return spec.nullable ? [...TIME, 'is', 'is_not'] : TIME;
    return EQUALITY;
  }
  if (spec.type === 'number') return [...EQUALITY, ...RANGE];
  // A date field also takes before/after, as created_at and due_date do (the same as lt/gt).
  if (spec.type === 'date') return [...EQUALITY, 'before', 'after', ...RANGE];
  return spec.type === 'multiselect' ? [...SET, 'is', 'is_not'] : EQUALITY;
}

const CUSTOM = /^custom_fields\.([a-z][a-z0-9_]{0,49})$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;
const TAG = /^[a-z0-9_:.-]{1,50}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const fail = (at: string, message: string): never => {
  throw errors.invalidField(at, message);
};

/** One scalar of a field's type, or a 422 naming `at`. */
function checkScalar(value: unknown, at: string, field: string, spec: FieldSpec | ConditionField): string | number {
  if ('kind' in spec) {
    if (typeof value !== 'string' || value === '') return fail(at, `must be a non-empty string for ${field}`);
    if (spec.values && !spec.values.includes(value)) return fail(at, `'${value}' is not a ${field}; use one of ${spec.values.join(', ')}`);
    return value;
  }
  switch (spec.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : fail(at, `must be a number (${field} is a number field)`);
    case 'checkbox':
      return typeof value === 'boolean' ? String(value) : fail(at, `must be true or false (${field} is a checkbox field)`);
    case 'date':
      return typeof value === 'string' && DATE.test(value) ? value : fail(at, `must be a date, YYYY-MM-DD (${field} is a date field)`);
    case 'text':
      return typeof value === 'string' ? value : fail(at, `must be a string (${field} is a text field)`);
    case 'dropdown':
    case 'multiselect':
      return typeof value === 'string' && spec.options.includes(value) ? value : fail(at, `must be one of ${spec.options.join(', ')} (the options of ${field})`);
  }
}

/** The condition as stored: its value checked against the field and operator (times in UTC with milliseconds, checkboxes as text). */
function checkCondition(condition: Condition, at: string, fields: Map<string, ConditionField>): Condition {
  const { field, operator, value } = condition;
  const custom = CUSTOM.exec(field);
  const spec: FieldSpec | ConditionField | undefined = custom ? fields.get(custom[1]!) : FIELDS[field];
  if (!spec) {
    return custom
      ? fail(`${at}.field`, `'${custom[1]}' is not a custom field of this organization (see GET /v1/ticket-fields)`)
      : fail(`${at}.field`, `'${field}' is not a condition field; use one of ${Object.keys(FIELDS).join(', ')} or custom_fields.<key>`);
  }
  const operators = operatorsOf(spec);
  if (!operators.includes(operator)) fail(`${at}.operator`, `operator '${operator}' does not apply to ${field}; use one of ${operators.join(', ')}`);
  const v = `${at}.value`;
  const nullable = 'kind' in spec ? spec.nullable : true;
  if ((operator === 'is' || operator === 'is_not') && value === null) {
    return nullable ? condition : fail(v, `cannot be null: ${field} always has a value`);
  }
  if ('kind' in spec && spec.kind === 'time') {
    if (operator === 'is' || operator === 'is_not') return fail(v, `must be null (is: no ${field}; is_not: any ${field})`);
    if (operator === 'within_last_hours') {
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_WITHIN_HOURS ? condition : fail(v, `must be a whole number of hours, 1 to ${MAX_WITHIN_HOURS}`);
    }
    if (typeof value !== 'string' || !ISO_DATETIME.test(value) || Number.isNaN(Date.parse(value))) return fail(v, 'must be an ISO 8601 date-time (2026-01-31T09:00:00Z)');
    return { field, operator, value: toIso(value) };
  }
  if (operator === 'between') {
    if (!Array.isArray(value) || value.length !== 2) return fail(v, 'must be a list of two values, [from, to] (both included)');
    const [from, to] = value.map((x, i) => checkScalar(x, `${v}[${i}]`, field, spec));
    return from! <= to! ? { field, operator, value: [from!, to!] } : fail(v, `must be [from, to] with from at most to`);
  }
  if (SET.includes(operator) || operator === 'in' || operator === 'not_in') {
    if (!Array.isArray(value) || value.length === 0) return fail(v, `must be a list of 1 to ${MAX_VALUES} values`);
    if ('kind' in spec && spec.kind === 'tags') {
      const bad = value.findIndex((t) => typeof t !== 'string' || !TAG.test(t));
      return bad === -1 ? condition : fail(`${v}[${bad}]`, 'must be a tag: 1-50 characters of a-z 0-9 _ - : .');
    }
    return { field, operator, value: value.map((x, i) => checkScalar(x, `${v}[${i}]`, field, spec)) };
  }
  if (Array.isArray(value)) return fail(v, `must be one value for '${operator}' (use ${RANGE.includes(operator) ? 'between for a range' : 'in or not_in for a list'})`);
  return { field, operator, value: checkScalar(value, v, field, spec) };
}

/**
 * Conditions checked against the fields and operators (422 naming the exact path under `at`, e.g.
 * `body.conditions.all[2].operator`), in the form they are stored and compiled.
 */
export function checkConditions(conditions: Conditions, at: string, fields: Map<string, ConditionField>): Required<Conditions> {
  return {
    all: (conditions.all ?? []).map((c, i) => checkCondition(c, `${at}.all[${i}]`, fields)),
    any: (conditions.any ?? []).map((c, i) => checkCondition(c, `${at}.any[${i}]`, fields)),
  };
}

/** Whether a condition names the caller (`assigned_user_id` with "me"). */
export const usesMe = (conditions: Conditions): boolean =>
  [...(conditions.all ?? []), ...(conditions.any ?? [])].some(
    (c) => c.field === 'assigned_user_id' && (c.value === 'me' || (Array.isArray(c.value) && c.value.includes('me'))),
  );

/** Whether a condition names a custom field (only then are the organization's field ids needed to compile them). */
export const usesCustomFields = (conditions: Conditions): boolean =>
  [...(conditions.all ?? []), ...(conditions.any ?? [])].some((c) => c.field.startsWith('custom_fields.'));
