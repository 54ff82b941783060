import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';

/** Saved views: CRUD, visibility, their tickets and counts, bad conditions (docs/api-behaviour.md, Views and conditions). */

type View = { id: string; name: string; shared: boolean; owner_user_id: string | null; conditions: { all: unknown[]; any: unknown[] }; sort: { by: string; order: string } };
type Ticket = { id: string; ticket_number: number; tracking_token: string | null; priority: string };
type FieldError = { field: string; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ MAX_VIEWS_PER_ORG: '3' });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const send = (key: string, method: Method, url: string, body?: unknown) => t.request({ method, url, key, body });
async function ok<T>(key: string, method: Method, url: string, body?: unknown): Promise<T> {
  const res = await send(key, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? undefined : res.json()) as T;
}
function fieldErrors(res: { statusCode: number; body: string; json: <T>() => T }): FieldError[] {
  expect(res.statusCode, res.body).toBe(422);
  return res.json<{ errors: FieldError[] }>().errors;
}

let n = 0;
const ticket = (key: string, extra: Record<string, unknown> = {}) =>
  ok<Ticket>(key, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${n++}@example.com`, subject: 'S', description: 'D', ...extra });

async function userKey(org: TestOrg): Promise<{ userId: string; key: string }> {
  const user = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/users', { email: `agent${n++}@example.com`, full_name: 'Agent' });
  return { userId: user.id, key: await org.key({ role: 'admin', name: 'held', holderUserId: user.id }) };
}

const view = (conditions: unknown, extra: Record<string, unknown> = {}) => ({ name: 'V', shared: true, conditions, ...extra });

describe('views: CRUD and visibility', () => {
  it('are created, read, listed, changed and deleted; another organization gets 404', async () => {
    const org = await t.newOrg();
    const created = await ok<View>(org.adminKey, 'POST', '/v1/views', view({ all: [{ field: 'status', operator: 'in', value: ['open', 'new'] }] }));
    expect(created).toMatchObject({ shared: true, owner_user_id: null, conditions: { all: [{ field: 'status', operator: 'in', value: ['open', 'new'] }], any: [] }, sort: { by: 'created_at', order: 'desc' } });
    expect(await ok(org.adminKey, 'GET', `/v1/views/${created.id}`)).toEqual(created);
    expect(await ok(org.adminKey, 'GET', '/v1/views')).toEqual([created]);
    const changed = await ok<View>(org.adminKey, 'PATCH', `/v1/views/${created.id}`, { name: 'Open', sort: { by: 'priority', order: 'asc' } });
    expect(changed).toMatchObject({ name: 'Open', sort: { by: 'priority', order: 'asc' } });
    const other = await t.newOrg();
    for (const [method, url] of [['GET', `/v1/views/${created.id}`], ['GET', `/v1/views/${created.id}/tickets`], ['PATCH', `/v1/views/${created.id}`], ['DELETE', `/v1/views/${created.id}`]] as const) {
      const res = await send(other.adminKey, method, url, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    await ok(org.adminKey, 'DELETE', `/v1/views/${created.id}`);
    expect((await send(org.adminKey, 'GET', `/v1/views/${created.id}`)).statusCode).toBe(404);
  });

  it('a personal view belongs to its creator and is seen by no one else; a key without a user makes only shared ones', async () => {
    const org = await t.newOrg();
    const a = await userKey(org);
    const b = await userKey(org);
    const mine = await ok<View>(a.key, 'POST', '/v1/views', view({}, { shared: false }));
    expect(mine).toMatchObject({ shared: false, owner_user_id: a.userId });
    expect((await send(b.key, 'GET', `/v1/views/${mine.id}`)).statusCode).toBe(404);
    expect((await send(org.adminKey, 'GET', `/v1/views/${mine.id}`)).statusCode).toBe(404);
    expect(await ok(b.key, 'GET', '/v1/views')).toEqual([]);
    expect((await ok<View[]>(a.key, 'GET', '/v1/views')).map((v) => v.id)).toEqual([mine.id]);
    expect(fieldErrors(await send(org.adminKey, 'POST', '/v1/views', view({}, { shared: false })))[0]!.field).toBe('body.shared');
  });

  it('an organization has at most MAX_VIEWS_PER_ORG views: the next is 422 naming the cap', async () => {
    const org = await t.newOrg();
    for (let i = 0; i < 3; i++) await ok(org.adminKey, 'POST', '/v1/views', view({}));
    const res = await send(org.adminKey, 'POST', '/v1/views', view({}));
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toBe('This organization already has 3 views, the most allowed (MAX_VIEWS_PER_ORG=3); delete one first');
  });
});

describe('views: tickets and counts', () => {
  it("pages a view's tickets in its order by offset and by cursor, and counts every view at once", async () => {
    const org = await t.newOrg();
    const made: Ticket[] = [];
    for (const priority of ['low', 'urgent', 'medium', 'urgent', 'high', 'low', 'urgent']) made.push(await ticket(org.adminKey, { priority }));
    const v = await ok<View>(org.adminKey, 'POST', '/v1/views', view({ all: [{ field: 'priority', operator: 'is_not', value: 'medium' }] }, { sort: { by: 'priority', order: 'desc' } }));
    const rank = { low: 1, medium: 2, high: 3, urgent: 4 } as Record<string, number>;
    const expected = made.filter((x) => x.priority !== 'medium').sort((x, y) => rank[y.priority]! - rank[x.priority]! || y.ticket_number - x.ticket_number).map((x) => x.id);
    const all = await ok<Ticket[]>(org.adminKey, 'GET', `/v1/views/${v.id}/tickets`);
    expect(all.map((x) => x.id)).toEqual(expected);
    expect(all[0]!.tracking_token).not.toBeNull();
    expect((await ok<Ticket[]>(org.adminKey, 'GET', `/v1/views/${v.id}/tickets?limit=2&offset=2`)).map((x) => x.id)).toEqual(expected.slice(2, 4));
    const paged: string[] = [];
    let url: string | undefined = `/v1/views/${v.id}/tickets?limit=2`;
    while (url) {
      const res = await send(org.adminKey, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      paged.push(...res.json<Ticket[]>().map((x) => x.id));
      url = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1];
    }
    expect(paged).toEqual(expected);
    const reader = await org.key({ role: 'readonly', name: 'r' });
    expect((await ok<Ticket[]>(reader, 'GET', `/v1/views/${v.id}/tickets`))[0]!.tracking_token).toBeNull();
    const everything = await ok<View>(org.adminKey, 'POST', '/v1/views', view({}));
    const counts = await ok<{ counted_at: string; views: Array<{ id: string; count: number }> }>(org.adminKey, 'GET', '/v1/views/counts');
    expect(counts.views).toEqual([{ id: v.id, name: 'V', count: expected.length }, { id: everything.id, name: 'V', count: made.length }]);
    expect(Date.parse(counts.counted_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('"me" is the caller\'s user; a key without a user gets a clear 422, and a null count', async () => {
    const org = await t.newOrg();
    const a = await userKey(org);
    const mineTicket = await ticket(org.adminKey, { assigned_user_id: a.userId });
    await ticket(org.adminKey);
    const v = await ok<View>(a.key, 'POST', '/v1/views', view({ all: [{ field: 'assigned_user_id', operator: 'is', value: 'me' }] }));
    expect((await ok<Ticket[]>(a.key, 'GET', `/v1/views/${v.id}/tickets`)).map((x) => x.id)).toEqual([mineTicket.id]);
    const res = await send(org.adminKey, 'GET', `/v1/views/${v.id}/tickets`);
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toMatch(/"me" needs a user behind the request/);
    expect((await ok<{ views: unknown[] }>(org.adminKey, 'GET', '/v1/views/counts')).views).toEqual([{ id: v.id, name: 'V', count: null }]);
    expect(fieldErrors(await send(org.adminKey, 'POST', '/v1/views', view({ any: [{ field: 'assigned_user_id', operator: 'in', value: ['me'] }] })))[0]!.field).toBe('body.conditions');
  });
});

describe('views: every sort pages the same by cursor as by offset', () => {
  it.each(['created_at', 'updated_at', 'priority', 'due_date', 'ticket_number'].flatMap((by) => [[by, 'asc'], [by, 'desc']]))('%s %s', async (by, order) => {
    const org = await t.newOrg();
    const dues = [null, '2026-05-01T00:00:00.000Z', null, '2026-02-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z'];
    const made: Array<Ticket & Record<string, unknown>> = [];
    for (const [i, due] of dues.entries()) made.push(await ticket(org.adminKey, { due_date: due, priority: ['low', 'high', 'low', 'urgent', 'medium'][i] }));
    // The documented order: priority by rank, no due date after every date (asc), ties by number.
    const rank: Record<string, number> = { low: 1, medium: 2, high: 3, urgent: 4 };
    const keyOf = (x: Ticket & Record<string, unknown>): string | number =>
      by === 'priority' ? rank[x.priority]! : by === 'due_date' ? ((x.due_date as string | null) ?? '9999') : (x[by] as string | number);
    const sign = order === 'asc' ? 1 : -1;
    const expected = [...made].sort((x, y) => sign * (keyOf(x) < keyOf(y) ? -1 : keyOf(x) > keyOf(y) ? 1 : x.ticket_number - y.ticket_number)).map((x) => x.id);
    const v = await ok<View>(org.adminKey, 'POST', '/v1/views', view({}, { sort: { by, order } }));
    const whole = (await ok<Ticket[]>(org.adminKey, 'GET', `/v1/views/${v.id}/tickets`)).map((x) => x.id);
    expect(whole).toEqual(expected);
    const paged: string[] = [];
    let url: string | undefined = `/v1/views/${v.id}/tickets?limit=2`;
    while (url) {
      const res = await send(org.adminKey, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      paged.push(...res.json<Ticket[]>().map((x) => x.id));
      url = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1];
    }
    expect(paged).toEqual(whole);
  });
});

describe('views: scopes, sharing and cursors', () => {
  it('needs views: scopes, and tickets:read for the tickets; PATCH shared moves a view to its user; a cursor of another order is 422', async () => {
    const org = await t.newOrg();
    const a = await userKey(org);
    const v = await ok<View>(a.key, 'POST', '/v1/views', view({}, { sort: { by: 'ticket_number', order: 'asc' } }));
    const viewsOnly = await org.key({ role: 'admin', name: 'views only', scopes: ['views:read'] });
    expect((await send(viewsOnly, 'GET', `/v1/views/${v.id}`)).statusCode).toBe(200);
    const denied = await send(viewsOnly, 'GET', `/v1/views/${v.id}/tickets`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json<{ detail: string }>().detail).toBe('Insufficient permissions: requires tickets:read');
    expect((await send(viewsOnly, 'POST', '/v1/views', view({}))).statusCode).toBe(403);
    const ticketsOnly = await org.key({ role: 'admin', name: 'tickets only', scopes: ['tickets:read'] });
    expect((await send(ticketsOnly, 'GET', '/v1/views')).statusCode).toBe(403);
    const personal = await ok<View>(a.key, 'PATCH', `/v1/views/${v.id}`, { shared: false });
    expect(personal).toMatchObject({ shared: false, owner_user_id: a.userId });
    expect((await send(org.adminKey, 'GET', `/v1/views/${v.id}`)).statusCode).toBe(404);
    const byDate = await ok<View>(org.adminKey, 'POST', '/v1/views', view({}, { sort: { by: 'created_at', order: 'desc' } }));
    for (let i = 0; i < 3; i++) await ticket(org.adminKey);
    const first = await send(a.key, 'GET', `/v1/views/${v.id}/tickets?limit=1`);
    const cursor = /cursor=([^&>]+)/.exec(String(first.headers.link))![1]!;
    expect(fieldErrors(await send(org.adminKey, 'GET', `/v1/views/${byDate.id}/tickets?cursor=${cursor}`))[0]!.field).toBe('query.cursor');
  });
});

describe('views: signed-in agents', () => {
  it("an agent's session saves personal views, and \"me\" is the session's user", async () => {
    const password = 'a long enough password';
    const email = `session${n++}@example.com`;
    const agent = await ok<{ id: string }>(t.org.adminKey, 'POST', '/v1/users', { email, full_name: 'Agent', password, role: 'agent' });
    const signed = await t.app.inject({ method: 'POST', url: '/v1/sessions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, password }) });
    expect(signed.statusCode, signed.body).toBe(201);
    const headers = { cookie: String(signed.headers['set-cookie']).split(';')[0]!, 'x-csrf-token': signed.json<{ csrf_token: string }>().csrf_token };
    const mine = await ticket(t.org.adminKey, { assigned_user_id: agent.id });
    const created = await t.request({ method: 'POST', url: '/v1/views', key: null, headers, body: view({ all: [{ field: 'assigned_user_id', operator: 'is', value: 'me' }] }, { shared: false }) });
    expect(created.statusCode, created.body).toBe(201);
    const v = created.json<View>();
    expect(v.owner_user_id).toBe(agent.id);
    const listed = await t.request({ method: 'GET', url: `/v1/views/${v.id}/tickets`, key: null, headers });
    expect(listed.json<Ticket[]>().map((x) => x.id)).toEqual([mine.id]);
    expect((await send(t.org.adminKey, 'GET', `/v1/views/${v.id}`)).statusCode).toBe(404);
  });
});

describe('views: bad conditions are 422 naming the exact path', () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['unknown field', { all: [{ field: 'colour', operator: 'is', value: 'red' }] }, 'body.conditions.all[0].field', /not a condition field/],
    [
      'operator not of the field',
      { all: [{ field: 'status', operator: 'is', value: 'open' }, { field: 'priority', operator: 'is', value: 'low' }, { field: 'status', operator: 'contains', value: 'x' }] },
      'body.conditions.all[2].operator',
      /^operator 'contains' does not apply to status; use one of is, is_not, in, not_in$/,
    ],
    ['wrong value type', { any: [{ field: 'created_at', operator: 'before', value: 5 }] }, 'body.conditions.any[0].value', /ISO 8601/],
    ['enum value', { all: [{ field: 'status', operator: 'in', value: ['open', 'shut'] }] }, 'body.conditions.all[0].value[1]', /'shut' is not a status/],
    ['null for a field always set', { all: [{ field: 'status', operator: 'is', value: null }] }, 'body.conditions.all[0].value', /cannot be null/],
    ['unknown custom field', { all: [{ field: 'custom_fields.plan', operator: 'is', value: 'pro' }] }, 'body.conditions.all[0].field', /not a custom field/],
    ['list for is', { all: [{ field: 'category', operator: 'is', value: ['a'] }] }, 'body.conditions.all[0].value', /one value/],
  ];
  it.each(cases)('%s', async (_name, conditions, field, message) => {
    const errors = fieldErrors(await send(t.org.adminKey, 'POST', '/v1/views', view(conditions)));
    expect(errors[0]).toMatchObject({ field });
    expect(errors[0]!.message).toMatch(message);
  });

  it('ranges take one value of a number or date field (between: [from, to], from <= to), not other fields', async () => {
    const org = await t.newOrg();
    await ok(org.adminKey, 'POST', '/v1/ticket-fields', { key: 'seats', label: 'Seats', type: 'number' });
    await ok(org.adminKey, 'POST', '/v1/ticket-fields', { key: 'renewal', label: 'Renewal', type: 'date' });
    await ok(org.adminKey, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'text' });
    const bad: Array<[unknown, string, RegExp]> = [
      [{ field: 'custom_fields.seats', operator: 'gt', value: '5' }, 'value', /must be a number/],
      [{ field: 'custom_fields.seats', operator: 'gte', value: [1, 2] }, 'value', /use between for a range/],
      [{ field: 'custom_fields.seats', operator: 'between', value: [5] }, 'value', /two values/],
      [{ field: 'custom_fields.seats', operator: 'between', value: [5, 1] }, 'value', /from at most to/],
      [{ field: 'custom_fields.renewal', operator: 'between', value: ['2026-01-01', 'soon'] }, 'value[1]', /YYYY-MM-DD/],
      [{ field: 'custom_fields.plan', operator: 'lt', value: 'pro' }, 'operator', /does not apply to custom_fields.plan/],
      [{ field: 'priority', operator: 'gte', value: 'high' }, 'operator', /does not apply to priority/],
    ];
    for (const [condition, at, message] of bad) {
      const errors = fieldErrors(await send(org.adminKey, 'POST', '/v1/views', view({ all: [condition] })));
      expect(errors[0], JSON.stringify(condition)).toMatchObject({ field: `body.conditions.all[0].${at}` });
      expect(errors[0]!.message).toMatch(message);
    }
    await ticket(org.adminKey, { custom_fields: { seats: 3, renewal: '2026-03-01' } });
    await ticket(org.adminKey, { custom_fields: { seats: 10 } });
    await ticket(org.adminKey);
    const saved = await ok<View>(org.adminKey, 'POST', '/v1/views', view({ all: [{ field: 'custom_fields.seats', operator: 'between', value: [3, 9] }, { field: 'custom_fields.renewal', operator: 'before', value: '2026-03-02' }] }));
    expect(saved.conditions.all[0]).toEqual({ field: 'custom_fields.seats', operator: 'between', value: [3, 9] });
    expect((await ok<Ticket[]>(org.adminKey, 'GET', `/v1/views/${saved.id}/tickets`)).map((x) => x.ticket_number)).toEqual([1]);
  });

  it('21 conditions in a list, nesting and unknown keys are refused by the schema', async () => {
    const many = Array.from({ length: 21 }, () => ({ field: 'status', operator: 'is', value: 'open' }));
    for (const conditions of [{ all: many }, { all: [{ all: [{ field: 'status', operator: 'is', value: 'open' }] }] }, { none: [] }]) {
      const res = await send(t.org.adminKey, 'POST', '/v1/views', view(conditions));
      expect(res.statusCode, JSON.stringify(conditions)).toBe(422);
      expect(res.body).toMatch(/conditions/);
    }
    const twenty = await send(t.org.adminKey, 'POST', '/v1/views', view({ all: many.slice(1) }));
    expect(twenty.statusCode, twenty.body).toBe(201);
    await ok(t.org.adminKey, 'DELETE', `/v1/views/${twenty.json<View>().id}`);
  });
});
