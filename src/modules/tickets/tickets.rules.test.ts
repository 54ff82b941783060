import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

type T = Record<string, unknown> & { id: string; ticket_number: number; updated_at: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

const newTicket = (overrides: Record<string, unknown> = {}) => ({
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  subject: 'Printer on fire',
  description: 'It is literally on fire',
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}): Promise<T> {
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket(overrides) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<T>();
}

const patchRaw = (id: string, body: unknown) => t.request({ method: 'PATCH', url: `/v1/tickets/${id}`, body });

async function patch(id: string, body: Record<string, unknown>): Promise<T> {
  await tick(); // so a changed updated_at differs from the previous one
  const res = await patchRaw(id, body);
  expect(res.statusCode, res.body).toBe(200);
  const ticket = res.json<T>();
  expect((await t.request({ method: 'GET', url: `/v1/tickets/${id}` })).json()).toEqual(ticket);
  return ticket;
}

async function insertUser(organizationId = t.org.id): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const email = `${id}@example.com`;
  await t.store.db
    .insertInto('users')
    .values({ id, organization_id: organizationId, email, email_normalized: email, full_name: 'Agent', role: 'agent', is_active: 1, created_at: now, updated_at: now })
    .execute();
  return id;
}

async function insertTeam(organizationId = t.org.id): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await t.store.db.insertInto('teams').values({ id, organization_id: organizationId, name: 'Team', created_at: now, updated_at: now }).execute();
  return id;
}

function expectFieldError(res: { statusCode: number; json: <R>() => R }, field: string): void {
  expect(res.statusCode).toBe(422);
  expect(res.json<{ detail: string; errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
}

describe('status and its timestamps', () => {
  it('sets resolved_at on resolved, closed_at on closed keeping resolved_at, clears both on reopening', async () => {
    const ticket = await create();
    const resolved = await patch(ticket.id, { status: 'resolved' });
    expect(resolved.resolved_at).toMatch(ISO_MS);
    expect(resolved.closed_at).toBeNull();
    const closed = await patch(ticket.id, { status: 'closed' });
    expect(closed.resolved_at).toBe(resolved.resolved_at);
    expect(closed.closed_at).toMatch(ISO_MS);
    expect(closed.closed_at! > resolved.resolved_at!).toBe(true);
    for (const status of ['new', 'open', 'pending'] as const) {
      await patch(ticket.id, { status: 'closed' });
      await patch(ticket.id, { status: 'resolved' });
      const reopened = await patch(ticket.id, { status });
      expect(reopened).toMatchObject({ status, resolved_at: null, closed_at: null });
    }
  });

  it('closing a ticket that was never resolved sets only closed_at', async () => {
    const ticket = await create();
    const closed = await patch(ticket.id, { status: 'closed' });
    expect(closed.closed_at).toMatch(ISO_MS);
    expect(closed.resolved_at).toBeNull();
  });

  it('setting the status a ticket already has changes neither timestamp nor updated_at', async () => {
    const ticket = await create();
    const resolved = await patch(ticket.id, { status: 'resolved' });
    const again = await patch(ticket.id, { status: 'resolved' });
    expect(again).toEqual(resolved);
    const closed = await patch(ticket.id, { status: 'closed' });
    const closedAgain = await patch(ticket.id, { status: 'closed' });
    expect(closedAgain).toEqual(closed);
  });

  it('allows every transition', async () => {
    const statuses = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
    for (const from of statuses) {
      for (const to of statuses) {
        const ticket = await create();
        if (from !== 'new') await patch(ticket.id, { status: from });
        expect((await patch(ticket.id, { status: to })).status).toBe(to);
      }
    }
  });
});

describe('updating', () => {
  it('changes updated_at when something changes and not otherwise', async () => {
    const ticket = await create({ category: 'billing' });
    const same = await patch(ticket.id, { subject: ticket.subject, category: 'billing', priority: 'medium', assigned_user_id: null });
    expect(same).toEqual(ticket);
    expect(await patch(ticket.id, {})).toEqual(ticket);
    const changed = await patch(ticket.id, { subject: 'New subject' });
    expect(changed.subject).toBe('New subject');
    expect(changed.updated_at > ticket.updated_at).toBe(true);
    expect(changed.created_at).toBe(ticket.created_at);
    for (const body of [{ priority: 'low' }, { category: 'tech' }, { description: 'New' }, { due_date: '2030-01-01T00:00:00Z' }]) {
      const before = (await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}` })).json<T>();
      const after = await patch(ticket.id, body);
      expect(after.updated_at > before.updated_at, JSON.stringify(body)).toBe(true);
    }
  });

  it('changes only the fields sent', async () => {
    const ticket = await create({ priority: 'high', category: 'billing' });
    const changed = await patch(ticket.id, { priority: 'low' });
    expect(changed).toEqual({ ...ticket, priority: 'low', updated_at: changed.updated_at });
  });

  it('assigns and unassigns with null; ids of no user/team of the organization are 422 naming the field', async () => {
    const user = await insertUser();
    const team = await insertTeam();
    const ticket = await create({ assigned_user_id: user, assigned_team_id: team });
    expect(ticket).toMatchObject({ assigned_user_id: user, assigned_team_id: team });
    const unassigned = await patch(ticket.id, { assigned_user_id: null });
    expect(unassigned).toMatchObject({ assigned_user_id: null, assigned_team_id: team });
    expect(await patch(ticket.id, { assigned_team_id: null })).toMatchObject({ assigned_user_id: null, assigned_team_id: null });
    expect(await patch(ticket.id, { assigned_user_id: user, assigned_team_id: team })).toMatchObject({ assigned_user_id: user, assigned_team_id: team });

    const other = await t.newOrg('Other');
    const foreignUser = await insertUser(other.id);
    const foreignTeam = await insertTeam(other.id);
    for (const id of [randomUUID(), foreignUser]) {
      expectFieldError(await patchRaw(ticket.id, { assigned_user_id: id }), 'body.assigned_user_id');
      expectFieldError(await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ assigned_user_id: id }) }), 'body.assigned_user_id');
    }
    for (const id of [randomUUID(), foreignTeam]) {
      expectFieldError(await patchRaw(ticket.id, { assigned_team_id: id }), 'body.assigned_team_id');
      expectFieldError(await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ assigned_team_id: id }) }), 'body.assigned_team_id');
    }
    expectFieldError(await patchRaw(ticket.id, { assigned_user_id: 'nope' }), 'body.assigned_user_id');
    // Nothing of a rejected update is kept.
    const after = (await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}` })).json<T>();
    expect(after).toMatchObject({ assigned_user_id: user, assigned_team_id: team });
  });

  it('rejects invalid values with 422 and changes nothing', async () => {
    const ticket = await create();
    expectFieldError(await patchRaw(ticket.id, { status: 'done' }), 'body.status');
    expectFieldError(await patchRaw(ticket.id, { priority: 'extreme' }), 'body.priority');
    expectFieldError(await patchRaw(ticket.id, { ticket_number: 7 }), 'body.ticket_number');
    expectFieldError(await patchRaw(ticket.id, { subject: null }), 'body.subject');
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}` })).json()).toEqual(ticket);
  });
});

describe('field limits on create and update', () => {
  const cases: [string, unknown, boolean][] = [
    ['subject', 'x'.repeat(500), true],
    ['subject', 'x'.repeat(501), false],
    ['subject', '', false],
    ['description', 'd'.repeat(100_000), true],
    ['description', 'd'.repeat(100_001), false],
    ['description', '', false],
    ['category', 'c'.repeat(100), true],
    ['category', 'c'.repeat(101), false],
  ];
  for (const [field, value, ok] of cases) {
    it(`${field} of ${String(value).length} characters is ${ok ? 'accepted' : 'rejected'}`, async () => {
      const created = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ [field]: value }) });
      const ticket = await create();
      const updated = await patchRaw(ticket.id, { [field]: value });
      if (ok) {
        expect(created.statusCode).toBe(201);
        expect(created.json<T>()[field]).toBe(value);
        expect(updated.statusCode).toBe(200);
        expect(updated.json<T>()[field]).toBe(value);
      } else {
        expectFieldError(created, `body.${field}`);
        expectFieldError(updated, `body.${field}`);
      }
    });
  }

  it('stores strings as sent, spaces included', async () => {
    const ticket = await create({ subject: '  padded  ', description: ' d ', category: ' c ' });
    expect(ticket).toMatchObject({ subject: '  padded  ', description: ' d ', category: ' c ' });
    expect(await patch(ticket.id, { subject: ' s ' })).toMatchObject({ subject: ' s ' });
    expect(await patch(ticket.id, { subject: '日本語のチケット 🎫' })).toMatchObject({ subject: '日本語のチケット 🎫' });
  });
});

describe('due_date', () => {
  it('is stored as UTC with milliseconds and a Z, on create and update', async () => {
    const ticket = await create({ due_date: '2026-03-01T10:00:00+02:00' });
    expect(ticket.due_date).toBe('2026-03-01T08:00:00.000Z');
    expect((await patch(ticket.id, { due_date: '2026-03-02T10:00:00.5-05:30' })).due_date).toBe('2026-03-02T15:30:00.500Z');
    expect((await patch(ticket.id, { due_date: null })).due_date).toBeNull();
    const res = await t.request({ method: 'GET', url: `/v1/tickets?limit=1` });
    for (const field of ['created_at', 'updated_at']) expect(res.json<T[]>()[0]![field]).toMatch(ISO_MS);
  });

  it('does not touch updated_at when the same instant is sent with another offset', async () => {
    const ticket = await create({ due_date: '2026-03-01T08:00:00Z' });
    expect(await patch(ticket.id, { due_date: '2026-03-01T10:00:00+02:00' })).toEqual(ticket);
  });

  it('rejects a bad datetime with 422 naming the field', async () => {
    const ticket = await create();
    for (const bad of ['tomorrow', '2026-02-30T10:00:00Z', '2026-03-01T10:00:00', '2026-03-01', '2026-13-01T00:00:00Z', 12]) {
      expectFieldError(await patchRaw(ticket.id, { due_date: bad }), 'body.due_date');
      expectFieldError(await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ due_date: bad }) }), 'body.due_date');
    }
  });

  it('never answers 500 for a datetime the validator accepts', async () => {
    const ticket = await create();
    for (const edge of ['2026-12-31T23:59:60Z', '2026-03-01 10:00:00Z', '2026-03-01t10:00:00z', '0001-01-01T00:00:00Z', '0000-01-01T00:30:00+01:00', '9999-12-31T23:30:00-01:00']) {
      const res = await patchRaw(ticket.id, { due_date: edge });
      expect([200, 422], `${edge}: ${res.body}`).toContain(res.statusCode);
      if (res.statusCode === 200) expect(res.json<T>().due_date, edge).toMatch(ISO_MS);
    }
  });
});
