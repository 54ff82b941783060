import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

type T = Record<string, unknown> & { id: string; ticket_number: number; customer_id: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const newTicket = (overrides: Record<string, unknown> = {}) => ({
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  subject: 'Printer on fire',
  description: 'It is literally on fire',
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}, key?: string): Promise<T> {
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket(overrides), ...(key ? { key } : {}) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<T>();
}

async function list(query: string, key?: string): Promise<T[]> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets${query}`, ...(key ? { key } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T[]>();
}

const numbers = (tickets: T[]) => tickets.map((x) => x.ticket_number);

describe('creating tickets', () => {
  it('answers 201 with status new, default priority medium, a customer and every field', async () => {
    const ticket = await create();
    expect(ticket).toMatchObject({
      status: 'new',
      priority: 'medium',
      category: null,
      subject: 'Printer on fire',
      description: 'It is literally on fire',
      assigned_user_id: null,
      assigned_team_id: null,
      due_date: null,
      resolved_at: null,
      closed_at: null,
      ticket_display_id: `TKT-${ticket.ticket_number}`,
    });
    expect(Object.keys(ticket).sort()).toEqual(
      [
        'id', 'ticket_number', 'tracking_token', 'ticket_display_id', 'customer_id', 'subject', 'description', 'status',
        'priority', 'category', 'assigned_user_id', 'assigned_team_id', 'due_date', 'created_at', 'updated_at',
        'resolved_at', 'closed_at', 'tags', 'custom_fields', 'channel', 'email', 'sla',
      ].sort(),
    );
    // Through the API: no mail behind it.
    expect(ticket).toMatchObject({ channel: 'api', email: null });
    for (const f of ['id', 'customer_id', 'tracking_token']) expect(ticket[f]).toMatch(/^[0-9a-f]{8}-[0-9a-f-]{27}$/);
    expect(ticket.created_at).toMatch(ISO_MS);
    expect(ticket.updated_at).toBe(ticket.created_at);
    const got = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}` });
    expect(got.json()).toEqual(ticket);
  });

  it('keeps the priority and category sent', async () => {
    const ticket = await create({ priority: 'urgent', category: 'billing' });
    expect(ticket).toMatchObject({ priority: 'urgent', category: 'billing', status: 'new' });
  });

  it('finds the customer by email case-insensitively and never overwrites the name', async () => {
    const first = await create({ customer_name: 'Grace Hopper', customer_email: 'grace@example.com' });
    const second = await create({ customer_name: 'Someone Else', customer_email: 'GRACE@Example.COM' });
    expect(second.customer_id).toBe(first.customer_id);
    const customers = await t.store.db.selectFrom('customers').select(['name', 'email']).where('id', '=', first.customer_id).execute();
    expect(customers).toEqual([{ name: 'Grace Hopper', email: 'grace@example.com' }]);
    const other = await create({ customer_email: 'grace2@example.com' });
    expect(other.customer_id).not.toBe(first.customer_id);
  });

  it('numbers tickets from 1 per organization, unpadded, never reusing a deleted number', async () => {
    const org = await t.newOrg('Numbering');
    const a = await create({}, org.adminKey);
    const b = await create({}, org.adminKey);
    expect([a.ticket_number, b.ticket_number]).toEqual([1, 2]);
    expect(a.ticket_display_id).toBe('TKT-1');
    const del = await t.request({ method: 'DELETE', url: `/v1/tickets/${b.id}`, key: org.adminKey });
    expect(del.statusCode).toBe(204);
    const c = await create({}, org.adminKey);
    expect(c.ticket_number).toBe(3);
    expect(c.ticket_display_id).toBe('TKT-3');
    const numbered = await t.newOrg('Numbering 2');
    expect((await create({}, numbered.adminKey)).ticket_number).toBe(1);
  });

  it('gets, deletes and then answers 404 for the deleted ticket', async () => {
    const ticket = await create();
    const deleted = await t.request({ method: 'DELETE', url: `/v1/tickets/${ticket.id}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.request({ method, url: `/v1/tickets/${ticket.id}`, ...(method === 'PATCH' ? { body: { subject: 'x' } } : {}) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Ticket not found' });
    }
  });

  it('answers 404 for another organization\'s ticket and 422 for a malformed id', async () => {
    const other = await t.newOrg('Other');
    const ticket = await create({}, other.adminKey);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${ticket.id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key: other.adminKey })).statusCode).toBe(200);
    const bad = await t.request({ method: 'GET', url: '/v1/tickets/not-a-uuid' });
    expect(bad.statusCode).toBe(422);
  });

  it('rejects an enum value outside its set with 422 naming the field', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ priority: 'extreme' }) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: 'body.priority' }] });
  });

  it('rejects missing fields, unknown fields and a bad email with 422', async () => {
    const noSubject: Record<string, unknown> = newTicket();
    delete noSubject.subject;
    const missing = await t.request({ method: 'POST', url: '/v1/tickets', body: noSubject });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ errors: [{ field: 'body.subject' }] });
    const unknown = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ status: 'open' }) });
    expect(unknown.statusCode).toBe(422);
    const email = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ customer_email: 'nope' }) });
    expect(email.statusCode).toBe(422);
    expect(email.json()).toMatchObject({ errors: [{ field: 'body.customer_email' }] });
  });
});

describe('listing tickets', () => {
  let org: { adminKey: string; id: string };
  let user: string;
  let team: string;
  let all: T[];
  beforeAll(async () => {
    org = await t.newOrg('Listing');
    const now = new Date().toISOString();
    user = randomUUID();
    team = randomUUID();
    await t.store.db
      .insertInto('users')
      .values({ id: user, organization_id: org.id, email: 'agent@x.io', email_normalized: 'agent@x.io', full_name: 'Agent', role: 'agent', is_active: 1, created_at: now, updated_at: now })
      .execute();
    await t.store.db.insertInto('teams').values({ id: team, organization_id: org.id, name: 'Team', created_at: now, updated_at: now }).execute();
    const specs: Record<string, unknown>[] = [
      { priority: 'low', category: 'billing' },
      { priority: 'high', category: 'billing', assigned_user_id: user },
      { priority: 'high', category: 'tech', assigned_team_id: team },
      { priority: 'high', category: 'tech', assigned_user_id: user, assigned_team_id: team, customer_email: 'bob@x.io' },
      { priority: 'urgent', customer_email: 'bob@x.io' },
    ];
    all = [];
    for (const spec of specs) all.push(await create(spec, org.adminKey));
    const patch = await t.request({ method: 'PATCH', url: `/v1/tickets/${all[3]!.id}`, body: { status: 'open' }, key: org.adminKey });
    expect(patch.statusCode).toBe(200);
    all[3] = patch.json<T>();
  });

  it('returns full tickets, newest first', async () => {
    const items = await list('', org.adminKey);
    expect(numbers(items)).toEqual([5, 4, 3, 2, 1]);
    expect(items[1]).toEqual(all[3]);
  });

  it('filters by each field alone', async () => {
    const bob = all[3]!.customer_id;
    const cases: [string, number[]][] = [
      ['status=open', [4]],
      ['status=new', [5, 3, 2, 1]],
      ['status=closed', []],
      ['priority=high', [4, 3, 2]],
      [`assigned_user_id=${user}`, [4, 2]],
      [`assigned_team_id=${team}`, [4, 3]],
      [`customer_id=${bob}`, [5, 4]],
      ['category=billing', [2, 1]],
      ['category=tech', [4, 3]],
      ['unassigned=true', [5, 3, 1]],
      ['unassigned=false', [4, 2]],
      [`assigned_user_id=${randomUUID()}`, []],
    ];
    for (const [query, expected] of cases) expect(numbers(await list(`?${query}`, org.adminKey)), query).toEqual(expected);
  });

  it('combines filters with AND', async () => {
    const cases: [string, number[]][] = [
      ['priority=high&category=tech', [4, 3]],
      ['priority=high&unassigned=true', [3]],
      [`priority=high&assigned_team_id=${team}&unassigned=false`, [4]],
      ['status=new&priority=high&category=billing', [2]],
      ['status=open&priority=low', []],
    ];
    for (const [query, expected] of cases) expect(numbers(await list(`?${query}`, org.adminKey)), query).toEqual(expected);
  });

  it('status and priority take several values, any of which matches', async () => {
    const cases: [string, number[]][] = [
      ['status=open,new', [5, 4, 3, 2, 1]],
      ['status=open,closed', [4]],
      ['status=resolved,closed', []],
      ['status=open,open', [4]],
      ['priority=high,urgent', [5, 4, 3, 2]],
      ['priority=low,urgent', [5, 1]],
      ['status=new&priority=low,urgent', [5, 1]],
      ['status=open,pending&priority=high', [4]],
    ];
    for (const [query, expected] of cases) expect(numbers(await list(`?${query}`, org.adminKey)), query).toEqual(expected);
    // A cursor page of a several-value filter goes on where it stopped.
    const first = await t.request({ method: 'GET', url: '/v1/tickets?status=new,open&limit=2', key: org.adminKey });
    expect(numbers(first.json<T[]>())).toEqual([5, 4]);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))?.[1];
    expect(next).toBeDefined();
    expect(next).toMatch(/status=new%2Copen|status=new,open/);
    const rest = await t.request({ method: 'GET', url: next!, key: org.adminKey });
    expect(numbers(rest.json<T[]>())).toEqual([3, 2]);
  });

  it('a bad value among several is 422 naming it and the allowed ones', async () => {
    const cases: [string, string, RegExp][] = [
      ['status=open,done', 'query.status', /'done' is not a status; give one or more of new, open, pending, resolved, closed/],
      ['status=open,', 'query.status', /'' is not a status/],
      ['status=Open', 'query.status', /'Open' is not a status/],
      ['priority=high,extreme', 'query.priority', /'extreme' is not a priority; give one or more of low, medium, high, urgent/],
    ];
    for (const [query, field, message] of cases) {
      const res = await t.request({ method: 'GET', url: `/v1/tickets?${query}`, key: org.adminKey });
      expect(res.statusCode, query).toBe(422);
      const body = res.json<{ detail: string; errors: { field: string; message: string }[] }>();
      expect(body.errors, query).toEqual([{ field, message: expect.stringMatching(message) as unknown }]);
    }
  });

  it('pages with limit and offset (or skip); a short page is the last', async () => {
    expect(numbers(await list('?limit=2', org.adminKey))).toEqual([5, 4]);
    expect(numbers(await list('?limit=2&offset=2', org.adminKey))).toEqual([3, 2]);
    expect(numbers(await list('?limit=2&skip=4', org.adminKey))).toEqual([1]);
    expect(numbers(await list('?limit=2&offset=4&skip=4', org.adminKey))).toEqual([1]);
    expect(await list('?offset=5', org.adminKey)).toEqual([]);
    expect(numbers(await list('?priority=high&limit=1&offset=1', org.adminKey))).toEqual([3]);
  });

  it('defaults limit to 100 and allows at most 500', async () => {
    const many = await t.newOrg('Many');
    const now = new Date().toISOString();
    const customer = (await create({}, many.adminKey)).customer_id;
    const rows = Array.from({ length: 501 }, (_, i) => ({
      id: randomUUID(), organization_id: many.id, ticket_number: i + 2, tracking_token: randomUUID(), customer_id: customer,
      subject: 's', description: 'd', status: 'new' as const, priority: 'low' as const, created_at: now, updated_at: now,
    }));
    await t.store.db.insertInto('tickets').values(rows).execute();
    expect(await list('', many.adminKey)).toHaveLength(100);
    const max = await list('?limit=500', many.adminKey);
    expect(max).toHaveLength(500);
    expect(max[0]!.ticket_number).toBe(502);
    expect(await list('?limit=500&offset=500', many.adminKey)).toHaveLength(2);
  });

  it('rejects bad paging and enum values with 422 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['limit=501', 'query.limit'],
      ['limit=0', 'query.limit'],
      ['limit=-1', 'query.limit'],
      ['offset=-1', 'query.offset'],
      ['offset=1&skip=2', 'query.skip'],
      ['status=done', 'query.status'],
      ['priority=extreme', 'query.priority'],
      ['unassigned=maybe', 'query.unassigned'],
      ['customer_id=123', 'query.customer_id'],
      ['nope=1', 'query.nope'],
    ];
    for (const [query, field] of cases) {
      const res = await t.request({ method: 'GET', url: `/v1/tickets?${query}`, key: org.adminKey });
      expect(res.statusCode, query).toBe(422);
      expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field), query).toContain(field);
    }
  });

  it('shows only the caller\'s organization', async () => {
    const mine = await list('?limit=500');
    expect(mine.some((x) => all.some((a) => a.id === x.id))).toBe(false);
    expect(numbers(await list('?limit=500', org.adminKey))).toEqual([5, 4, 3, 2, 1]);
  });
});
