import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import type { Conditions } from '../views/conditions.js';
import { ticketMatches, type MatchableTicket } from './sla.match.js';

/**
 * The in-memory evaluation of conditions (SLA policies pick a ticket's policy with it) against the
 * compiled SQL (a view's tickets): for random tickets and random conditions, the same tickets.
 */

type Ticket = MatchableTicket & { id: string; ticket_number: number };
type Condition = { field: string; operator: string; value: unknown };

let t: TestApp;
let org: TestOrg;
let users: string[];
let tickets: Ticket[];
const TAGS = ['a', 'b', 'c'];
const DUES = ['2026-01-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z'];

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrg();
  const post = async <T>(url: string, body: unknown): Promise<T> => {
    const res = await t.request({ method: 'POST', url, key: org.adminKey, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<T>();
  };
  users = [];
  for (let i = 0; i < 2; i++) users.push((await post<{ id: string }>('/v1/users', { email: `u${i}@example.com`, full_name: 'U' })).id);
  await post('/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'] });
  await post('/v1/ticket-fields', { key: 'seats', label: 'Seats', type: 'number' });
  await post('/v1/ticket-fields', { key: 'areas', label: 'Areas', type: 'multiselect', options: ['web', 'api'] });
  await post('/v1/ticket-fields', { key: 'vip', label: 'VIP', type: 'checkbox' });
  const rows = fc.sample(
    fc.record({
      priority: fc.constantFrom('low', 'medium', 'high', 'urgent'),
      category: fc.constantFrom(undefined, 'billing', 'tech'),
      assigned_user_id: fc.constantFrom(undefined, ...users),
      tags: fc.subarray(TAGS),
      due_date: fc.constantFrom(undefined, ...DUES),
      plan: fc.constantFrom(undefined, 'free', 'pro'),
      seats: fc.constantFrom(undefined, 1, 5),
      areas: fc.constantFrom(undefined, ['web'], ['web', 'api']),
      vip: fc.constantFrom(undefined, true, false),
    }),
    { numRuns: 25, seed: 7 },
  );
  tickets = [];
  for (const [i, r] of rows.entries()) {
    const custom = Object.fromEntries(Object.entries({ plan: r.plan, seats: r.seats, areas: r.areas, vip: r.vip }).filter(([, v]) => v !== undefined));
    tickets.push(
      await post<Ticket>('/v1/tickets', {
        customer_name: 'Ada', customer_email: `a${i}@example.com`, subject: 'S', description: 'D',
        priority: r.priority, category: r.category, assigned_user_id: r.assigned_user_id, tags: r.tags, due_date: r.due_date, custom_fields: custom,
      }),
    );
  }
}, 60_000);
afterAll(async () => {
  await t.close();
});

const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);
const someOf = <T>(values: T[]) => fc.subarray(values, { minLength: 1 });

const condition = (): fc.Arbitrary<Condition> =>
  fc.oneof(
    fc.record({ field: oneOf('status'), operator: oneOf('is', 'is_not'), value: oneOf('new', 'open') }),
    fc.record({ field: oneOf('priority'), operator: oneOf('in', 'not_in'), value: someOf(['low', 'medium', 'high', 'urgent']) }),
    fc.record({ field: oneOf('category'), operator: oneOf('is', 'is_not'), value: oneOf<string | null>(null, 'billing', 'tech') }),
    fc.record({ field: oneOf('assigned_user_id'), operator: oneOf('in', 'not_in'), value: someOf(users) }),
    fc.record({ field: oneOf('tags'), operator: oneOf('includes_all', 'includes_any', 'excludes'), value: someOf(TAGS) }),
    fc.record({ field: oneOf('due_date'), operator: oneOf('before', 'after'), value: oneOf(...DUES, '2026-03-01T00:00:00Z') }),
    fc.record({ field: oneOf('due_date'), operator: oneOf('is', 'is_not'), value: fc.constant(null) }),
    fc.record({ field: oneOf('created_at'), operator: oneOf('within_last_hours'), value: oneOf(1, 24) }),
    fc.record({ field: oneOf('custom_fields.plan'), operator: oneOf('is', 'is_not'), value: oneOf<string | null>(null, 'free', 'pro') }),
    fc.record({ field: oneOf('custom_fields.seats'), operator: oneOf('in', 'not_in'), value: someOf([1, 5, 7]) }),
    fc.record({ field: oneOf('custom_fields.areas'), operator: oneOf('includes_all', 'includes_any', 'excludes', 'is'), value: oneOf<unknown>(['web'], ['api', 'web'], 'api') }),
    fc.record({ field: oneOf('custom_fields.vip'), operator: oneOf('is', 'is_not'), value: oneOf<boolean | null>(true, false, null) }),
  ).filter((c) => !(c.field === 'custom_fields.areas' && ((c.operator === 'is') !== (typeof c.value === 'string'))));

describe('SLA policy matching: in memory as in SQL', () => {
  it('ticketMatches answers what the compiled conditions select, for random conditions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(condition(), { maxLength: 3 }), fc.array(condition(), { maxLength: 3 }), async (all, any) => {
        const res = await t.request({ method: 'POST', url: '/v1/views', key: org.adminKey, body: { name: 'P', shared: true, conditions: { all, any }, sort: { by: 'ticket_number', order: 'asc' } } });
        expect(res.statusCode, res.body).toBe(201);
        const view = res.json<{ id: string; conditions: Required<Conditions> }>();
        const listed = await t.request({ method: 'GET', url: `/v1/views/${view.id}/tickets?limit=500`, key: org.adminKey });
        const bySql = listed.json<Ticket[]>().map((x) => x.ticket_number);
        // The conditions as stored (checked, normalized): what a policy holds.
        const inMemory = tickets.filter((x) => ticketMatches(x, view.conditions, new Date())).map((x) => x.ticket_number).sort((a, b) => a - b);
        expect(inMemory).toEqual(bySql);
        await t.request({ method: 'DELETE', url: `/v1/views/${view.id}`, key: org.adminKey });
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
