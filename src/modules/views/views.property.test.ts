import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';

/**
 * A view's tickets and count against a brute-force filter in JS of random tickets by random
 * conditions (docs/api-behaviour.md, Views and conditions): the SQL compiler and the documented
 * meaning of each operator agree.
 */

type Ticket = {
  id: string;
  ticket_number: number;
  status: string;
  priority: string;
  category: string | null;
  assigned_user_id: string | null;
  assigned_team_id: string | null;
  channel: string;
  tags: string[];
  custom_fields: Record<string, unknown>;
  due_date: string | null;
  created_at: string;
  updated_at: string;
};
type Condition = { field: string; operator: string; value: unknown };

let t: TestApp;
let org: TestOrg;
let me: string;
let key: string;
let users: string[];
let tickets: Ticket[];
const TAGS = ['a', 'b', 'c', 'd'];
const RENEWALS = ['2026-01-31', '2026-02-01', '2027-12-31'];
const DUES = ['2026-01-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'];

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrg();
  const post = async <T>(url: string, body: unknown, k = org.adminKey): Promise<T> => {
    const res = await t.request({ method: 'POST', url, key: k, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<T>();
  };
  users = [];
  for (let i = 0; i < 2; i++) users.push((await post<{ id: string }>('/v1/users', { email: `u${i}@example.com`, full_name: 'U' })).id);
  me = users[0]!;
  key = await org.key({ role: 'admin', name: 'me', holderUserId: me });
  await post('/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'] });
  await post('/v1/ticket-fields', { key: 'seats', label: 'Seats', type: 'number' });
  await post('/v1/ticket-fields', { key: 'areas', label: 'Areas', type: 'multiselect', options: ['web', 'api'] });
  await post('/v1/ticket-fields', { key: 'renewal', label: 'Renewal', type: 'date' });
  const rows = fc.sample(
    fc.record({
      priority: fc.constantFrom('low', 'medium', 'high', 'urgent'),
      category: fc.constantFrom(undefined, 'billing', 'tech'),
      assigned_user_id: fc.constantFrom(undefined, ...users),
      tags: fc.subarray(TAGS),
      due_date: fc.constantFrom(undefined, ...DUES),
      plan: fc.constantFrom(undefined, 'free', 'pro'),
      seats: fc.constantFrom(undefined, 1, 5, 12.5, -3),
      renewal: fc.constantFrom(undefined, ...RENEWALS),
      areas: fc.constantFrom(undefined, ['web'], ['web', 'api']),
      status: fc.constantFrom(undefined, 'open', 'pending'),
    }),
    { numRuns: 30, seed: 42 },
  );
  tickets = [];
  for (const [i, r] of rows.entries()) {
    const custom = Object.fromEntries(Object.entries({ plan: r.plan, seats: r.seats, areas: r.areas, renewal: r.renewal }).filter(([, v]) => v !== undefined));
    let made = await post<Ticket>('/v1/tickets', {
      customer_name: 'Ada', customer_email: `a${i}@example.com`, subject: 'S', description: 'D',
      priority: r.priority, category: r.category, assigned_user_id: r.assigned_user_id, tags: r.tags, due_date: r.due_date, custom_fields: custom,
    });
    if (r.status) {
      const res = await t.request({ method: 'PATCH', url: `/v1/tickets/${made.id}`, key: org.adminKey, body: { status: r.status } });
      made = res.json<Ticket>();
    }
    tickets.push(made);
  }
}, 60_000);
afterAll(async () => {
  await t.close();
});

const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);
const someOf = <T>(values: T[]) => fc.subarray(values, { minLength: 1 });

/** Random valid conditions over every field kind. */
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ field: oneOf('status'), operator: oneOf('is', 'is_not'), value: oneOf('new', 'open', 'pending') }),
  fc.record({ field: oneOf('priority'), operator: oneOf('in', 'not_in'), value: someOf(['low', 'medium', 'high', 'urgent']) }),
  fc.record({ field: oneOf('channel'), operator: oneOf('is', 'is_not'), value: oneOf('api', 'email') }),
  fc.record({ field: oneOf('category'), operator: oneOf('is', 'is_not'), value: oneOf<string | null>(null, 'billing', 'tech') }),
  fc.record({ field: oneOf('assigned_user_id'), operator: oneOf('is', 'is_not'), value: fc.constantFrom<string | null>(null, 'me', 'u1') }),
  fc.record({ field: oneOf('assigned_user_id'), operator: oneOf('in', 'not_in'), value: someOf(['me', 'u1']) }),
  fc.record({ field: oneOf('tags'), operator: oneOf('includes_all', 'includes_any', 'excludes'), value: someOf(TAGS) }),
  fc.record({ field: oneOf('due_date'), operator: oneOf('before', 'after'), value: oneOf(...DUES, '2026-03-01T00:00:00Z') }),
  fc.record({ field: oneOf('due_date'), operator: oneOf('is', 'is_not'), value: fc.constant(null) }),
  fc.record({ field: oneOf('created_at', 'updated_at'), operator: oneOf('within_last_hours'), value: oneOf(1, 24) }),
  fc.record({ field: oneOf('created_at'), operator: oneOf('before', 'after'), value: oneOf('2000-01-01T00:00:00Z', '2999-01-01T00:00:00Z') }),
  fc.record({ field: oneOf('custom_fields.plan'), operator: oneOf('is', 'is_not'), value: oneOf<string | null>(null, 'free', 'pro') }),
  fc.record({ field: oneOf('custom_fields.seats'), operator: oneOf('in', 'not_in'), value: someOf([1, 5, 7]) }),
  fc.record({ field: oneOf('custom_fields.seats'), operator: oneOf('gt', 'gte', 'lt', 'lte'), value: oneOf(-3, 0, 1, 5, 12.5) }),
  fc.record({ field: oneOf('custom_fields.seats'), operator: oneOf('between'), value: oneOf([1, 5], [-3, 1], [5, 5], [0, 100]) }),
  fc.record({ field: oneOf('custom_fields.renewal'), operator: oneOf('gt', 'gte', 'lt', 'lte', 'before', 'after'), value: oneOf(...RENEWALS, '2026-06-01') }),
  fc.record({ field: oneOf('custom_fields.renewal'), operator: oneOf('between'), value: oneOf(['2026-01-31', '2026-02-01'], ['2026-02-01', '2030-01-01']) }),
  fc.record({ field: oneOf('custom_fields.areas'), operator: oneOf('includes_all', 'includes_any', 'excludes'), value: someOf(['web', 'api']) }),
);

/** What the documentation says each operator means. */
function holds(ticket: Ticket, { field, operator, value }: Condition): boolean {
  const resolve = (v: unknown) => (v === 'me' ? me : v === 'u1' ? users[1] : v);
  if (field === 'tags' || field === 'custom_fields.areas') {
    const have = field === 'tags' ? ticket.tags : ((ticket.custom_fields.areas as string[] | undefined) ?? []);
    const wanted = value as string[];
    if (operator === 'includes_all') return wanted.every((w) => have.includes(w));
    if (operator === 'includes_any') return wanted.some((w) => have.includes(w));
    return !wanted.some((w) => have.includes(w));
  }
  const actual = (field.startsWith('custom_fields.') ? ticket.custom_fields[field.slice(14)] : ticket[field as keyof Ticket]) ?? null;
  const [low, high] = (Array.isArray(value) ? value : [value, value]) as Array<string | number>;
  // Custom number and date ranges (dates as YYYY-MM-DD compare as strings); no value never matches.
  if (field.startsWith('custom_fields.') && actual !== null) {
    const a = actual as string | number;
    if (operator === 'gt' || operator === 'after') return a > low!;
    if (operator === 'gte') return a >= low!;
    if (operator === 'lt' || operator === 'before') return a < low!;
    if (operator === 'lte') return a <= low!;
    if (operator === 'between') return a >= low! && a <= high!;
  }
  if (['gt', 'gte', 'lt', 'lte', 'between'].includes(operator) || (field.startsWith('custom_fields.') && ['before', 'after'].includes(operator))) return false;
  switch (operator) {
    case 'before':
      return actual !== null && Date.parse(actual as string) < Date.parse(value as string);
    case 'after':
      return actual !== null && Date.parse(actual as string) > Date.parse(value as string);
    case 'within_last_hours':
      return Date.parse(actual as string) >= Date.now() - (value as number) * 3_600_000;
    case 'is':
      return actual === resolve(value);
    case 'is_not':
      return actual !== resolve(value);
    case 'in':
      return (value as unknown[]).map(resolve).includes(actual);
    default:
      return !(value as unknown[]).map(resolve).includes(actual);
  }
}

const matches = (ticket: Ticket, c: { all: Condition[]; any: Condition[] }) => c.all.every((x) => holds(ticket, x)) && (c.any.length === 0 || c.any.some((x) => holds(ticket, x)));

describe('views: property', () => {
  it("a view's tickets and count are exactly the tickets its conditions describe", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(condition, { maxLength: 3 }), fc.array(condition, { maxLength: 3 }), async (all, any) => {
        const other = (v: unknown): unknown => (v === 'u1' ? users[1] : v);
        const stored = (c: Condition) => (c.field === 'assigned_user_id' ? { ...c, value: Array.isArray(c.value) ? c.value.map(other) : other(c.value) } : c);
        const res = await t.request({ method: 'POST', url: '/v1/views', key, body: { name: 'P', shared: false, conditions: { all: all.map(stored), any: any.map(stored) }, sort: { by: 'ticket_number', order: 'asc' } } });
        expect(res.statusCode, res.body).toBe(201);
        const id = res.json<{ id: string }>().id;
        const listed = await t.request({ method: 'GET', url: `/v1/views/${id}/tickets?limit=500`, key });
        expect(listed.statusCode, listed.body).toBe(200);
        const expected = tickets.filter((x) => matches(x, { all, any })).map((x) => x.ticket_number).sort((a, b) => a - b);
        expect(listed.json<Ticket[]>().map((x) => x.ticket_number)).toEqual(expected);
        const countsRes = await t.request({ method: 'GET', url: '/v1/views/counts', key });
        expect(countsRes.statusCode, countsRes.body).toBe(200);
        const counts = countsRes.json<{ views: Array<{ id: string; count: number }> }>();
        expect(counts.views.find((v) => v.id === id)?.count).toBe(expected.length);
        await t.request({ method: 'DELETE', url: `/v1/views/${id}`, key });
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});
