import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import type { Dashboard } from './dashboard.schemas.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function call(org: TestOrg, path: string, method: 'GET' | 'POST' | 'PATCH' = 'GET', body?: unknown) {
  const res = await t.request({ method, url: path, key: org.adminKey, ...(body === undefined ? {} : { body }) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json<{ id: string }>();
}

async function dashboard(org: TestOrg): Promise<Dashboard> {
  const res = await t.request({ method: 'GET', url: '/v1/dashboard', key: org.adminKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Dashboard>();
}

let emails = 0;
async function user(org: TestOrg, fullName: string): Promise<string> {
  return (await call(org, '/v1/users', 'POST', { email: `agent${++emails}@example.com`, full_name: fullName })).id;
}
const team = async (org: TestOrg, name: string) => (await call(org, '/v1/teams', 'POST', { name })).id;

interface TicketSpec {
  status?: 'new' | 'open' | 'pending' | 'resolved' | 'closed';
  priority?: 'low' | 'medium' | 'high' | 'urgent';
  user?: string;
  team?: string;
  due?: string;
  /** How long ago it was created and resolved: stored directly, as the API always stamps "now". */
  created?: number;
  resolved?: number;
}

/** A ticket made through the API, then given its timestamps through the store. */
async function ticket(org: TestOrg, spec: TicketSpec = {}): Promise<string> {
  const { id } = await call(org, '/v1/tickets', 'POST', {
    customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Printer', description: 'On fire',
    priority: spec.priority ?? 'medium',
    ...(spec.user ? { assigned_user_id: spec.user } : {}),
    ...(spec.team ? { assigned_team_id: spec.team } : {}),
  });
  if (spec.due) await call(org, `/v1/tickets/${id}`, 'PATCH', { due_date: spec.due });
  if (spec.status === 'closed') await call(org, `/v1/tickets/${id}`, 'PATCH', { status: 'resolved' });
  if (spec.status && spec.status !== 'new') await call(org, `/v1/tickets/${id}`, 'PATCH', { status: spec.status });
  // One instant for both, so resolved - created is exactly what the test says.
  const now = Date.now();
  const stamps: { created_at?: string; resolved_at?: string } = {};
  if (spec.created !== undefined) stamps.created_at = new Date(now - spec.created).toISOString();
  if (spec.resolved !== undefined) stamps.resolved_at = new Date(now - spec.resolved).toISOString();
  if (Object.keys(stamps).length > 0) await t.store.db.updateTable('tickets').set(stamps).where('id', '=', id).execute();
  return id;
}

const withoutTime = ({ generated_at: _, ...rest }: Dashboard) => rest;

describe('GET /v1/dashboard', () => {
  it('answers zeros for every status and priority, null median and empty lists for an empty organization', async () => {
    const org = await t.newOrg('Empty');
    const before = Date.now();
    const d = await dashboard(org);
    expect(d.generated_at).toMatch(ISO_MS);
    expect(Date.parse(d.generated_at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(d.generated_at)).toBeLessThanOrEqual(Date.now());
    expect(withoutTime(d)).toEqual({
      tickets: { total: 0, by_status: { new: 0, open: 0, pending: 0, resolved: 0, closed: 0 }, by_priority: { low: 0, medium: 0, high: 0, urgent: 0 } },
      open: { total: 0, by_priority: { low: 0, medium: 0, high: 0, urgent: 0 }, unassigned: 0, without_team: 0, overdue: 0 },
      created: { last_24_hours: 0, last_7_days: 0 },
      resolved: { last_24_hours: 0, last_7_days: 0 },
      resolution_last_30_days: { resolved: 0, median_seconds: null },
      open_by_team: [],
      open_by_agent: [],
    });
  });

  describe('with known tickets', () => {
    let org: TestOrg;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      org = await t.newOrg('Known');
      ids.alice = await user(org, 'Alice');
      ids.bob = await user(org, 'Bob');
      ids.carol = await user(org, 'Carol');
      ids.dave = await user(org, 'Dave');
      ids.eve = await user(org, 'Eve');
      ids.billing = await team(org, 'Billing');
      ids.tech = await team(org, 'Tech');
      ids.empty = await team(org, 'Empty');
      const yesterday = ago(DAY);
      const tomorrow = new Date(Date.now() + DAY).toISOString();
      // 1..8: open ones are 1-5 and 8; overdue: 2 and 4 (6 and 7 are past due but done).
      await ticket(org, { status: 'new', priority: 'low', user: ids.alice, team: ids.billing, created: HOUR });
      await ticket(org, { status: 'open', priority: 'high', user: ids.alice, team: ids.tech, due: yesterday, created: 23 * HOUR });
      await ticket(org, { status: 'pending', priority: 'urgent', user: ids.bob, due: tomorrow, created: 25 * HOUR });
      await ticket(org, { status: 'open', priority: 'medium', team: ids.billing, due: yesterday, created: 6 * DAY });
      await ticket(org, { status: 'new', priority: 'medium', created: 8 * DAY });
      await ticket(org, { status: 'resolved', priority: 'high', user: ids.alice, team: ids.billing, due: yesterday, created: 40 * DAY, resolved: 2 * HOUR });
      await ticket(org, { status: 'closed', priority: 'low', user: ids.bob, team: ids.tech, due: yesterday, created: 10 * DAY, resolved: 3 * DAY });
      await ticket(org, { status: 'open', priority: 'low', user: ids.carol, team: ids.tech, created: 20 * DAY });
      // Carol leaves but still holds an open ticket; Dave leaves holding none; Eve holds none.
      await call(org, `/v1/users/${ids.carol}`, 'PATCH', { is_active: false });
      await call(org, `/v1/users/${ids.dave}`, 'PATCH', { is_active: false });
    });

    it('counts tickets by status and by priority, all of them', async () => {
      const d = await dashboard(org);
      expect(d.tickets).toEqual({
        total: 8,
        by_status: { new: 2, open: 3, pending: 1, resolved: 1, closed: 1 },
        by_priority: { low: 3, medium: 2, high: 2, urgent: 1 },
      });
    });

    it('counts open tickets (new, open, pending): by priority, without agent, without team, overdue', async () => {
      const d = await dashboard(org);
      expect(d.open).toEqual({ total: 6, by_priority: { low: 2, medium: 2, high: 1, urgent: 1 }, unassigned: 2, without_team: 2, overdue: 2 });
    });

    it('lists every team with its open tickets, most first, then by name', async () => {
      const d = await dashboard(org);
      expect(d.open_by_team).toEqual([
        { id: ids.billing, name: 'Billing', open: 2 },
        { id: ids.tech, name: 'Tech', open: 2 },
        { id: ids.empty, name: 'Empty', open: 0 },
      ]);
    });

    it('lists active agents and inactive ones still holding open tickets, most first, then by name', async () => {
      const d = await dashboard(org);
      expect(d.open_by_agent).toEqual([
        { id: ids.alice, full_name: 'Alice', open: 2 },
        { id: ids.bob, full_name: 'Bob', open: 1 },
        { id: ids.carol, full_name: 'Carol', open: 1 },
        { id: ids.eve, full_name: 'Eve', open: 0 },
      ]);
    });

    it('counts tickets created and resolved in the last 24 hours and 7 days', async () => {
      const d = await dashboard(org);
      expect(d.created).toEqual({ last_24_hours: 2, last_7_days: 4 });
      expect(d.resolved).toEqual({ last_24_hours: 1, last_7_days: 2 });
    });

    it('gives the median time to resolution over the last 30 days (mean of the middle two when even)', async () => {
      const d = await dashboard(org);
      // 40 days - 2 hours and 7 days.
      expect(d.resolution_last_30_days).toEqual({ resolved: 2, median_seconds: ((40 * DAY - 2 * HOUR + 7 * DAY) / 2) / 1000 });
    });

    it('moves the figures as tickets change through the API', async () => {
      const before = await dashboard(org);
      const id = await ticket(org, { status: 'open', priority: 'urgent', user: ids.eve, team: ids.empty, due: ago(HOUR) });
      const during = await dashboard(org);
      expect(during.open).toMatchObject({ total: 7, overdue: 3, unassigned: 2 });
      expect(during.open_by_team.find((x) => x.id === ids.empty)?.open).toBe(1);
      expect(during.open_by_agent.find((x) => x.id === ids.eve)?.open).toBe(1);
      expect(during.created).toEqual({ last_24_hours: 3, last_7_days: 5 });
      // Resolving it takes it out of the open figures and into the resolved ones, with its time.
      await call(org, `/v1/tickets/${id}`, 'PATCH', { status: 'resolved' });
      const after = await dashboard(org);
      expect(after.open).toEqual(before.open);
      expect(after.open_by_team).toEqual(before.open_by_team);
      expect(after.resolved).toEqual({ last_24_hours: 2, last_7_days: 3 });
      expect(after.resolution_last_30_days.resolved).toBe(3);
      // Reopening clears resolved_at: it leaves the resolved figures again.
      await call(org, `/v1/tickets/${id}`, 'PATCH', { status: 'pending' });
      const reopened = await dashboard(org);
      expect(reopened.resolved).toEqual(before.resolved);
      expect(reopened.resolution_last_30_days).toEqual(before.resolution_last_30_days);
      expect(reopened.open.total).toBe(7);
      await t.request({ method: 'DELETE', url: `/v1/tickets/${id}`, key: org.adminKey });
      expect(withoutTime(await dashboard(org))).toEqual(withoutTime(before));
    });

    it("never counts another organization's tickets, agents or teams", async () => {
      const before = withoutTime(await dashboard(org));
      const other = await t.newOrg('Other');
      const agent = await user(other, 'Mallory');
      const squad = await team(other, 'Other team');
      for (const status of ['new', 'open', 'pending', 'resolved', 'closed'] as const) {
        await ticket(other, { status, user: agent, team: squad, due: ago(HOUR), created: HOUR, ...(status === 'resolved' ? { resolved: HOUR } : {}) });
      }
      expect(withoutTime(await dashboard(org))).toEqual(before);
      const d = await dashboard(other);
      expect(d.tickets.total).toBe(5);
      expect(d.open).toMatchObject({ total: 3, overdue: 3, unassigned: 0 });
      expect(d.open_by_team).toEqual([{ id: squad, name: 'Other team', open: 3 }]);
      expect(d.open_by_agent).toEqual([{ id: agent, full_name: 'Mallory', open: 3 }]);
      expect(d.resolution_last_30_days.resolved).toBe(2);
    });
  });

  describe('median time to resolution', () => {
    const resolvedAfter = (org: TestOrg, seconds: number, resolvedAgo = HOUR) =>
      ticket(org, { status: 'resolved', created: resolvedAgo + seconds * 1000, resolved: resolvedAgo });

    it('is the middle value of an odd count, counting only tickets resolved in the last 30 days', async () => {
      const org = await t.newOrg('Median odd');
      await resolvedAfter(org, 1000);
      await resolvedAfter(org, 10);
      await resolvedAfter(org, 100.25, 29 * DAY);
      // Outside the window: resolved 31 days ago, very fast.
      await resolvedAfter(org, 1, 31 * DAY);
      // Resolved, then reopened (resolved_at cleared); closed without being resolved (none set).
      const reopened = await resolvedAfter(org, 2);
      await call(org, `/v1/tickets/${reopened}`, 'PATCH', { status: 'open' });
      await ticket(org, { status: 'open', created: DAY }).then((id) => call(org, `/v1/tickets/${id}`, 'PATCH', { status: 'closed' }));
      const d = await dashboard(org);
      expect(d.resolution_last_30_days).toEqual({ resolved: 3, median_seconds: 100.25 });
      expect(d.tickets.by_status).toMatchObject({ resolved: 4, closed: 1, open: 1 });
    });

    it('is the mean of the middle two of an even count, to the millisecond', async () => {
      const org = await t.newOrg('Median even');
      for (const s of [3000, 0.5, 1000.002, 10]) await resolvedAfter(org, s);
      const d = await dashboard(org);
      expect(d.resolution_last_30_days).toEqual({ resolved: 4, median_seconds: 505.001 });
    });

    it('keeps resolved_at when a resolved ticket is closed, so it still counts', async () => {
      const org = await t.newOrg('Median closed');
      await ticket(org, { status: 'closed', created: 2 * HOUR + 60_000, resolved: 2 * HOUR });
      const d = await dashboard(org);
      expect(d.resolution_last_30_days).toEqual({ resolved: 1, median_seconds: 60 });
      expect(d.resolved).toEqual({ last_24_hours: 1, last_7_days: 1 });
    });
  });

  describe('access and requests', () => {
    it('needs a key (401) and the dashboard:read scope (403)', async () => {
      const none = await t.request({ method: 'GET', url: '/v1/dashboard', key: null });
      expect(none.statusCode).toBe(401);
      const wrong = await t.request({ method: 'GET', url: '/v1/dashboard', key: 'key_admin_notarealkey' });
      expect(wrong.statusCode).toBe(401);
      const ticketsOnly = await t.org.key({ scopes: ['tickets:read', 'teams:read', 'users:read'] });
      const res = await t.request({ method: 'GET', url: '/v1/dashboard', key: ticketsOnly });
      expect(res.statusCode).toBe(403);
      expect(res.json<{ detail: string }>().detail).toContain('dashboard:read');
    });

    it('answers a read-only key holding dashboard:read, and one holding only that scope', async () => {
      for (const key of [await t.org.key({ role: 'readonly' }), await t.org.key({ role: 'readonly', scopes: ['dashboard:read'] })]) {
        const res = await t.request({ method: 'GET', url: '/v1/dashboard', key });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<Dashboard>().tickets.total).toBe(0);
      }
    });

    it('answers other methods with 405 and Allow', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await t.request({ method, url: '/v1/dashboard', ...(method === 'DELETE' ? {} : { body: {} }) });
        expect(res.statusCode, method).toBe(405);
        expect(res.headers.allow).toMatch(/\bGET\b/);
      }
    });

    it('rejects any query parameter with 422 naming it', async () => {
      const res = await t.request({ method: 'GET', url: '/v1/dashboard?team_id=1' });
      expect(res.statusCode).toBe(422);
      expect(JSON.stringify(res.json())).toContain('team_id');
    });
  });
});
