import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { portalReply } from '../../../test/helpers/portal.js';
import { sweepSlaOnce } from './sla.sweeper.js';

/** SLA policies and clocks through HTTP (docs/api-behaviour.md, SLA policies), time moved with a fake Date. */

type Sla = { policy_id: string; first_response_due_at: string | null; next_response_due_at: string | null; resolution_due_at: string | null; paused: boolean; breaches: Array<{ metric: string; due_at: string; breached_at: string }> };
type Ticket = { id: string; priority: string; status: string; tracking_token: string; sla: Sla | null; created_at: string };
type Event = { type: string; resource_type: string; ticket_id: string | null; occurred_at: string; object: { metric?: string; due_at?: string | null; policy_id?: string; ticket?: { id: string; tracking_token?: unknown } } };
type FieldError = { field: string; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ MAX_SLA_POLICIES_PER_ORG: '3' });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});
// Each test a day later than the one before: creation times only move forward within a process.
let T0 = Date.parse('2030-03-04T10:00:00.000Z');
beforeEach(async () => {
  T0 += 86_400_000;
  // What earlier tests left due is fired first, so a test counts only its own.
  await sweepSlaOnce(t.store, new Date(T0 - 1));
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

const MINUTE = 60_000;
/** Moves the clock of the app (and of this test) to T0 + `minutes`. */
function at(minutes: number): Date {
  vi.useFakeTimers({ toFake: ['Date'] });
  const when = new Date(T0 + minutes * MINUTE);
  vi.setSystemTime(when);
  return when;
}
const iso = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();

let n = 0;
const ticket = (key: string, extra: Record<string, unknown> = {}) =>
  ok<Ticket>(key, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${n++}@example.com`, subject: 'S', description: 'D', ...extra });
const get = (key: string, id: string) => ok<Ticket>(key, 'GET', `/v1/tickets/${id}`);
const patch = (key: string, id: string, body: unknown) => ok<Ticket>(key, 'PATCH', `/v1/tickets/${id}`, body);
const comment = (key: string, id: string, body: Record<string, unknown> = {}) => ok(key, 'POST', `/v1/tickets/${id}/comments`, { body: 'Hello', ...body });
const slaEvents = async (key: string, id: string) =>
  (await ok<Event[]>(key, 'GET', `/v1/tickets/${id}/events?types=sla.warning,sla.breached,sla.fulfilled`)).map((e) => `${e.type}:${e.object.metric}`);

const TARGETS = [
  { priority: 'high', first_response_minutes: 30, next_response_minutes: 20, resolution_minutes: 60, warning_minutes: 10 },
  { priority: 'urgent', first_response_minutes: 10, resolution_minutes: 30 },
];
const policy = (extra: Record<string, unknown> = {}) => ({ name: 'P', conditions: { all: [{ field: 'priority', operator: 'in', value: ['high', 'urgent'] }] }, targets: TARGETS, ...extra });

async function orgWithPolicy(extra: Record<string, unknown> = {}): Promise<{ org: TestOrg; policyId: string }> {
  const org = await t.newOrg();
  const created = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/sla-policies', policy(extra));
  return { org, policyId: created.id };
}

describe('SLA policies: CRUD and bad input', () => {
  it('are created, listed by position, changed and deleted; another organization gets 404', async () => {
    const org = await t.newOrg();
    const second = await ok<{ id: string; position: number; targets: unknown[] }>(org.adminKey, 'POST', '/v1/sla-policies', policy({ name: 'Second', position: 5 }));
    expect(second.targets).toEqual([
      { priority: 'high', first_response_minutes: 30, next_response_minutes: 20, resolution_minutes: 60, warning_minutes: 10 },
      { priority: 'urgent', first_response_minutes: 10, next_response_minutes: null, resolution_minutes: 30, warning_minutes: 0 },
    ]);
    const first = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/sla-policies', policy({ name: 'First', position: 1, business_hours_id: null }));
    expect((await ok<Array<{ id: string }>>(org.adminKey, 'GET', '/v1/sla-policies')).map((p) => p.id)).toEqual([first.id, second.id]);
    await ok(org.adminKey, 'PATCH', `/v1/sla-policies/${first.id}`, { position: 9 });
    expect((await ok<Array<{ id: string }>>(org.adminKey, 'GET', '/v1/sla-policies')).map((p) => p.id)).toEqual([second.id, first.id]);
    const other = await t.newOrg();
    expect((await send(other.adminKey, 'GET', `/v1/sla-policies/${first.id}`)).statusCode).toBe(404);
    expect((await send(other.adminKey, 'DELETE', `/v1/sla-policies/${first.id}`)).statusCode).toBe(404);
    await ok(org.adminKey, 'DELETE', `/v1/sla-policies/${first.id}`);
    expect((await send(org.adminKey, 'GET', `/v1/sla-policies/${first.id}`)).statusCode).toBe(404);
  });

  it('422 names the field: no targets, duplicate priorities, a target without clocks, an unknown calendar, bad conditions, "me"', async () => {
    const org = await t.newOrg();
    const post = (body: unknown) => send(org.adminKey, 'POST', '/v1/sla-policies', body);
    expect(fieldErrors(await post(policy({ targets: [] })))[0]!.field).toBe('body.targets');
    expect(fieldErrors(await post(policy({ targets: [TARGETS[0], TARGETS[0]] })))[0]!.field).toBe('body.targets[1].priority');
    expect(fieldErrors(await post(policy({ targets: [{ priority: 'low' }] })))[0]!.field).toBe('body.targets[0]');
    expect(fieldErrors(await post(policy({ business_hours_id: '0c4f3f0e-2b57-4d8e-9a55-3f0f5b2a9d11' })))[0]!.field).toBe('body.business_hours_id');
    expect(fieldErrors(await post(policy({ conditions: { all: [{ field: 'priority', operator: 'is', value: 'extreme' }] } })))[0]!.field).toBe('body.conditions.all[0].value');
    expect(fieldErrors(await post(policy({ conditions: { all: [{ field: 'nope', operator: 'is', value: 'x' }] } })))[0]!.field).toBe('body.conditions.all[0].field');
    expect(fieldErrors(await post(policy({ conditions: { all: [{ field: 'assigned_user_id', operator: 'is', value: 'me' }] } })))[0]!.field).toBe('body.conditions');
    const created = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/sla-policies', policy());
    expect(fieldErrors(await send(org.adminKey, 'PATCH', `/v1/sla-policies/${created.id}`, { targets: [TARGETS[1], TARGETS[1]] }))[0]!.field).toBe('body.targets[1].priority');
  });

  it('an organization holds at most MAX_SLA_POLICIES_PER_ORG', async () => {
    const org = await t.newOrg();
    for (let i = 0; i < 3; i++) await ok(org.adminKey, 'POST', '/v1/sla-policies', policy());
    const res = await send(org.adminKey, 'POST', '/v1/sla-policies', policy());
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('MAX_SLA_POLICIES_PER_ORG');
  });

  it('needs the sla scopes', async () => {
    const org = await t.newOrg();
    const reader = await org.key({ role: 'readonly', name: 'reader' });
    expect((await send(reader, 'POST', '/v1/sla-policies', policy())).statusCode).toBe(403);
    expect((await send(reader, 'GET', '/v1/sla-policies')).statusCode).toBe(200);
  });
});

describe('SLA clocks on tickets', () => {
  it('the first matching policy applies, in position order; a ticket no policy matches has sla null', async () => {
    const { org, policyId } = await orgWithPolicy({ position: 2 });
    const urgentOnly = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/sla-policies', policy({ position: 1, conditions: { all: [{ field: 'priority', operator: 'is', value: 'urgent' }] } }));
    at(0);
    const high = await ticket(org.adminKey, { priority: 'high' });
    const urgent = await ticket(org.adminKey, { priority: 'urgent' });
    const low = await ticket(org.adminKey, { priority: 'low' });
    expect(high.sla).toEqual({ policy_id: policyId, first_response_due_at: iso(30), next_response_due_at: null, resolution_due_at: iso(60), paused: false, breaches: [] });
    expect(urgent.sla?.policy_id).toBe(urgentOnly.id);
    expect(low.sla).toBeNull();
    // The same block on every answer: get by id (fast path), the list.
    expect((await get(org.adminKey, high.id)).sla).toEqual(high.sla);
    const list = await ok<Ticket[]>(org.adminKey, 'GET', '/v1/tickets');
    expect(list.find((x) => x.id === high.id)!.sla).toEqual(high.sla);
  });

  it('a create is matched on its tags and custom fields as given (plain create) and on its own fields (grouped create)', async () => {
    const org = await t.newOrg();
    await ok(org.adminKey, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'] });
    const tagged = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/sla-policies', policy({ position: 1, conditions: { all: [{ field: 'tags', operator: 'includes_any', value: ['vip'] }] } }));
    const pro = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/sla-policies', policy({ position: 2, conditions: { all: [{ field: 'custom_fields.plan', operator: 'is', value: 'pro' }] } }));
    const recent = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/sla-policies', policy({ position: 3, conditions: { all: [{ field: 'channel', operator: 'is', value: 'api' }, { field: 'created_at', operator: 'within_last_hours', value: 1 }] } }));
    at(0);
    const [vip, paying, plain] = await Promise.all([
      ticket(org.adminKey, { priority: 'high', tags: ['VIP'] }),
      ticket(org.adminKey, { priority: 'high', custom_fields: { plan: 'pro' } }),
      ticket(org.adminKey, { priority: 'high' }),
    ]);
    expect([vip.sla?.policy_id, paying.sla?.policy_id, plain.sla?.policy_id]).toEqual([tagged.id, pro.id, recent.id]);
    expect(plain.sla).toEqual({ policy_id: recent.id, first_response_due_at: iso(30), next_response_due_at: null, resolution_due_at: iso(60), paused: false, breaches: [] });
    for (const x of [vip, paying, plain]) expect((await get(org.adminKey, x.id)).sla).toEqual(x.sla);
  });

  it('the first public agent comment fulfils first response; an internal one does not', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const created = await ticket(org.adminKey, { priority: 'high' });
    at(5);
    await comment(org.adminKey, created.id, { is_internal: true });
    expect((await get(org.adminKey, created.id)).sla?.first_response_due_at).toBe(iso(30));
    at(7);
    await comment(org.adminKey, created.id);
    const after = await get(org.adminKey, created.id);
    expect(after.sla).toMatchObject({ first_response_due_at: null, resolution_due_at: iso(60) });
    expect(await slaEvents(org.adminKey, created.id)).toEqual(['sla.fulfilled:first_response']);
  });

  it('pending pauses every clock, keeping the time used; leaving pending resumes them', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const created = await ticket(org.adminKey, { priority: 'high' });
    at(10);
    const paused = await patch(org.adminKey, created.id, { status: 'pending' });
    expect(paused.sla).toMatchObject({ paused: true, first_response_due_at: null, resolution_due_at: null });
    at(40);
    const resumed = await patch(org.adminKey, created.id, { status: 'open' });
    // 10 minutes used: 20 and 50 left from minute 40.
    expect(resumed.sla).toMatchObject({ paused: false, first_response_due_at: iso(60), resolution_due_at: iso(90) });
  });

  it('a customer reply starts next response once the first is given; the agent reply fulfils it; resolved fulfils resolution', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const created = await ticket(org.adminKey, { priority: 'high' });
    at(1);
    expect((await portalReply(t, created.tracking_token, { body: 'Any news?' })).statusCode).toBe(201);
    // No next-response clock while the first response is still awaited.
    expect((await get(org.adminKey, created.id)).sla?.next_response_due_at).toBeNull();
    at(2);
    await comment(org.adminKey, created.id);
    at(5);
    expect((await portalReply(t, created.tracking_token, { body: 'Thanks, and?' })).statusCode).toBe(201);
    expect((await get(org.adminKey, created.id)).sla?.next_response_due_at).toBe(iso(25));
    at(6);
    expect((await portalReply(t, created.tracking_token, { body: 'Hello?' })).statusCode).toBe(201);
    // A second reply does not restart the wait.
    expect((await get(org.adminKey, created.id)).sla?.next_response_due_at).toBe(iso(25));
    at(8);
    await comment(org.adminKey, created.id);
    expect((await get(org.adminKey, created.id)).sla?.next_response_due_at).toBeNull();
    at(9);
    const resolved = await patch(org.adminKey, created.id, { status: 'resolved' });
    expect(resolved.sla?.resolution_due_at).toBeNull();
    expect(await slaEvents(org.adminKey, created.id)).toEqual(['sla.fulfilled:first_response', 'sla.fulfilled:next_response', 'sla.fulfilled:resolution']);
  });

  it('a priority change gives the clocks their new targets, keeping the time used', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const created = await ticket(org.adminKey, { priority: 'high' });
    at(4);
    const urgent = await patch(org.adminKey, created.id, { priority: 'urgent' });
    // Urgent: 10 and 30 minutes, 4 used.
    expect(urgent.sla).toMatchObject({ first_response_due_at: iso(10), resolution_due_at: iso(30) });
    at(6);
    const low = await patch(org.adminKey, created.id, { priority: 'low' });
    expect(low.sla).toBeNull();
  });
});

describe('SLA deadline events', () => {
  it('warning and breach fire once each at their instant, in the order of their instants, in the feed and the ticket history', async () => {
    const { org, policyId } = await orgWithPolicy();
    at(0);
    const created = await ticket(org.adminKey, { priority: 'high' });
    vi.useRealTimers();
    expect(await sweepSlaOnce(t.store, new Date(T0 + 19 * MINUTE))).toBe(0);
    expect(await sweepSlaOnce(t.store, new Date(T0 + 20 * MINUTE))).toBe(1);
    expect(await slaEvents(org.adminKey, created.id)).toEqual(['sla.warning:first_response']);
    expect(await sweepSlaOnce(t.store, new Date(T0 + 20 * MINUTE))).toBe(0);
    // Down from minute 21 to 65: everything passed fires once, at its own instant.
    expect(await sweepSlaOnce(t.store, new Date(T0 + 65 * MINUTE))).toBe(1);
    expect(await sweepSlaOnce(t.store, new Date(T0 + 66 * MINUTE))).toBe(0);
    const events = await ok<Event[]>(org.adminKey, 'GET', `/v1/tickets/${created.id}/events?types=sla.warning,sla.breached`);
    expect(events.map((e) => [e.type, e.object.metric, e.occurred_at])).toEqual([
      ['sla.warning', 'first_response', iso(20)],
      ['sla.breached', 'first_response', iso(30)],
      ['sla.warning', 'resolution', iso(50)],
      ['sla.breached', 'resolution', iso(60)],
    ]);
    expect(events[0]!.object).toMatchObject({ policy_id: policyId, due_at: iso(30), ticket: { id: created.id } });
    expect(events[0]!.object.ticket).not.toHaveProperty('tracking_token');
    expect(events[0]!.resource_type).toBe('ticket');
    const breaches = (await get(org.adminKey, created.id)).sla!.breaches;
    expect(breaches).toEqual([
      { metric: 'first_response', due_at: iso(30), breached_at: iso(30) },
      { metric: 'resolution', due_at: iso(60), breached_at: iso(60) },
    ]);
    // The feed shows them to a key that reads tickets.
    const reader = await org.key({ role: 'readonly', name: 'reader' });
    const feed = await ok<{ events: Event[] }>(reader, 'GET', '/v1/events?types=sla.breached');
    expect(feed.events.filter((e) => e.ticket_id === created.id)).toHaveLength(2);
  });

  it('a deadline passed without a sweep is breached by the fulfilment that comes late, once', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const created = await ticket(org.adminKey, { priority: 'urgent' });
    at(12);
    await comment(org.adminKey, created.id);
    vi.useRealTimers();
    expect(await slaEvents(org.adminKey, created.id)).toEqual(['sla.breached:first_response', 'sla.fulfilled:first_response']);
    // The sweeper has nothing left to fire for first response.
    await sweepSlaOnce(t.store, new Date(T0 + 31 * MINUTE));
    expect(await slaEvents(org.adminKey, created.id)).toEqual(['sla.breached:first_response', 'sla.fulfilled:first_response', 'sla.breached:resolution']);
  });

  it('a paused ticket fires nothing', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const created = await ticket(org.adminKey, { priority: 'urgent' });
    at(1);
    await patch(org.adminKey, created.id, { status: 'pending' });
    vi.useRealTimers();
    await sweepSlaOnce(t.store, new Date(T0 + 600 * MINUTE));
    expect(await slaEvents(org.adminKey, created.id)).toEqual([]);
  });

  it('many tickets due at once, of two organizations, fire once each (the sweeper fires them in groups)', async () => {
    const a = await orgWithPolicy();
    const b = await orgWithPolicy();
    at(0);
    // More than one group (50) of one organization, and a few of another.
    const many = [];
    for (let i = 0; i < 53; i++) many.push(await ticket(a.org.adminKey, { priority: 'high' }));
    const few = [await ticket(b.org.adminKey, { priority: 'high' }), await ticket(b.org.adminKey, { priority: 'high' })];
    vi.useRealTimers();
    expect(await sweepSlaOnce(t.store, new Date(T0 + 20 * MINUTE))).toBe(55);
    expect(await sweepSlaOnce(t.store, new Date(T0 + 20 * MINUTE))).toBe(0);
    for (const [key, tickets] of [[a.org.adminKey, many], [b.org.adminKey, few]] as const) {
      // One warning per ticket in the organization's feed, none twice.
      const feed = await ok<{ events: Event[] }>(key, 'GET', '/v1/events?types=sla.warning&limit=200');
      expect(feed.events.map((e) => `${e.ticket_id}:${e.object.metric}`).sort()).toEqual(tickets.map((c) => `${c.id}:first_response`).sort());
    }
  });

  it('on PostgreSQL a group of due tickets costs the same statements whatever its size', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const few = [];
    for (let i = 0; i < 2; i++) few.push(await ticket(org.adminKey, { priority: 'high' }));
    at(1);
    const many = [];
    for (let i = 0; i < 40; i++) many.push(await ticket(org.adminKey, { priority: 'high' }));
    vi.useRealTimers();
    // Every statement the sweep sends but its transactions' begin and commit.
    let statements = 0;
    const counted = t.store.db.withPlugin({
      transformQuery: (args) => (statements++, args.node),
      transformResult: (args) => Promise.resolve(args.result),
    });
    const sweep = async (minutes: number) => {
      statements = 0;
      const swept = await sweepSlaOnce({ ...t.store, db: counted }, new Date(T0 + minutes * MINUTE));
      return { swept, statements };
    };
    const small = await sweep(20);
    const large = await sweep(21);
    expect([small.swept, large.swept]).toEqual([2, 40]);
    // The due read, the claim and read of the group, its update, its events.
    if (t.store.dialect === 'postgres') expect([small.statements, large.statements]).toEqual([4, 4]);
    for (const created of [...few, ...many]) expect(await slaEvents(org.adminKey, created.id)).toEqual(['sla.warning:first_response']);
  });

  it('a ticket that cannot be swept holds back no other; the run fails and the others fire once', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const tickets = [];
    for (let i = 0; i < 5; i++) tickets.push(await ticket(org.adminKey, { priority: 'high' }));
    vi.useRealTimers();
    // The first due (of the group) has clocks that cannot be read.
    await t.store.db.updateTable('tickets').set({ sla: '{', next_sla_deadline_at: iso(19) }).where('id', '=', tickets[0]!.id).execute();
    await expect(sweepSlaOnce(t.store, new Date(T0 + 20 * MINUTE))).rejects.toThrow();
    for (const created of tickets.slice(1)) expect(await slaEvents(org.adminKey, created.id)).toEqual(['sla.warning:first_response']);
    expect(await slaEvents(org.adminKey, tickets[0]!.id)).toEqual([]);
    await t.store.db.updateTable('tickets').set({ sla: null, next_sla_deadline_at: null }).where('id', '=', tickets[0]!.id).execute();
    expect(await sweepSlaOnce(t.store, new Date(T0 + 20 * MINUTE))).toBe(0);
  });

  it('a webhook can subscribe to sla events with tickets:read', async () => {
    const res = await send(t.org.adminKey, 'POST', '/v1/webhooks', { url: 'https://example.com/hook', events: ['sla.breached', 'sla.warning'] });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('SLA clocks in business hours', () => {
  it('count only the calendar\'s hours; a calendar in use cannot be deleted', async () => {
    const org = await t.newOrg();
    const weekdays = ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, start: '09:00', end: '17:00' }));
    const hours = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/business-hours', { name: 'Office', time_zone: 'Europe/Berlin', weekly: weekdays, holidays: [{ date: '2030-06-10', name: 'Whit Monday' }] });
    const created = await ok<{ id: string; business_hours_id: string }>(org.adminKey, 'POST', '/v1/sla-policies', policy({ business_hours_id: hours.id }));
    expect(created.business_hours_id).toBe(hours.id);
    vi.useFakeTimers({ toFake: ['Date'] });
    // Friday 16:30 in Berlin (14:30 UTC, summer time): 30 minutes left that day, Monday a holiday, Tuesday from 09:00.
    vi.setSystemTime(new Date('2030-06-07T14:30:00.000Z'));
    const high = await ticket(org.adminKey, { priority: 'high' });
    expect(high.sla).toMatchObject({ first_response_due_at: '2030-06-07T15:00:00.000Z', resolution_due_at: '2030-06-11T07:30:00.000Z' });
    // Paused over the weekend from Friday 16:45 to Tuesday 10:00 (Berlin): 15 minutes used.
    vi.setSystemTime(new Date('2030-06-07T14:45:00.000Z'));
    await patch(org.adminKey, high.id, { status: 'pending' });
    vi.setSystemTime(new Date('2030-06-11T08:00:00.000Z'));
    const resumed = await patch(org.adminKey, high.id, { status: 'open' });
    expect(resumed.sla).toMatchObject({ first_response_due_at: '2030-06-11T08:15:00.000Z', resolution_due_at: '2030-06-11T08:45:00.000Z' });
    vi.useRealTimers();
    expect((await send(org.adminKey, 'DELETE', `/v1/business-hours/${hours.id}`)).statusCode).toBe(409);
  });
});

describe('views by the next SLA deadline', () => {
  it('filter and sort by sla_next_due_at; tickets without a running clock sort last', async () => {
    const { org } = await orgWithPolicy();
    at(0);
    const high = await ticket(org.adminKey, { priority: 'high' });
    const urgent = await ticket(org.adminKey, { priority: 'urgent' });
    const none = await ticket(org.adminKey, { priority: 'low' });
    const pending = await ticket(org.adminKey, { priority: 'urgent' });
    await patch(org.adminKey, pending.id, { status: 'pending' });
    vi.useRealTimers();
    const sorted = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/views', { name: 'By deadline', shared: true, conditions: {}, sort: { by: 'sla_next_due_at', order: 'asc' } });
    const order = (await ok<Ticket[]>(org.adminKey, 'GET', `/v1/views/${sorted.id}/tickets`)).map((x) => x.id);
    expect(order.slice(0, 2)).toEqual([urgent.id, high.id]);
    expect(new Set(order.slice(2))).toEqual(new Set([none.id, pending.id]));
    // Paged by cursor in the same order.
    const first = await send(org.adminKey, 'GET', `/v1/views/${sorted.id}/tickets?limit=1`);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))![1]!;
    expect((await ok<Ticket[]>(org.adminKey, 'GET', next)).map((x) => x.id)[0]).toBe(high.id);
    const soon = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/views', { name: 'Due within 20 minutes', shared: true, conditions: { all: [{ field: 'sla_next_due_at', operator: 'before', value: iso(20) }] } });
    expect((await ok<Ticket[]>(org.adminKey, 'GET', `/v1/views/${soon.id}/tickets`)).map((x) => x.id)).toEqual([urgent.id]);
    const running = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/views', { name: 'Clock running', shared: true, conditions: { all: [{ field: 'sla_next_due_at', operator: 'is_not', value: null }] } });
    expect(new Set((await ok<Ticket[]>(org.adminKey, 'GET', `/v1/views/${running.id}/tickets`)).map((x) => x.id))).toEqual(new Set([urgent.id, high.id]));
    // A policy cannot depend on the deadlines it sets.
    const res = await send(org.adminKey, 'POST', '/v1/sla-policies', policy({ conditions: { any: [{ field: 'sla_next_due_at', operator: 'is', value: null }] } }));
    expect(fieldErrors(res)[0]!.field).toBe('body.conditions.any[0].field');
  });
});
