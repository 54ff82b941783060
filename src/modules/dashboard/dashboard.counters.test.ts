import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { Migrator } from 'kysely';
import { migrations } from '../../db/migrator.js';
import { compactDashboard, compactDashboardOnce, startDashboardCompaction } from './dashboard.compaction.js';
import { medianFallbacks } from './dashboard.median.js';
import type { Dashboard } from './dashboard.schemas.js';

/**
 * The dashboard's counters (triggers, deltas, compaction) against a full recount of the tickets:
 * after random concurrent changes through the API and the store (creates, status, priority,
 * assignee, team and due-date changes, timestamps moved across the edges of the time windows,
 * deletes of tickets, agents and teams), with compactions of a few deltas at a time racing the
 * writes and each other, before and after a full compaction. On SQLite and on PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Every median in this file came from the histogram: none fell back to sorting the window. */
let fallbacksBefore = 0;
beforeAll(() => {
  fallbacksBefore = medianFallbacks.count;
});
afterAll(() => {
  expect(medianFallbacks.count - fallbacksBefore).toBe(0);
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
const OPEN = ['new', 'open', 'pending'];

async function dashboard(org: TestOrg): Promise<Dashboard> {
  const res = await t.request({ method: 'GET', url: '/v1/dashboard', key: org.adminKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Dashboard>();
}

/** The figures recounted from every ticket of the organization, at the dashboard's own instant. */
async function recount(orgId: string, generatedAt: string): Promise<Omit<Dashboard, 'generated_at'>> {
  const tickets = await t.store.db
    .selectFrom('tickets')
    .select(['status', 'priority', 'assigned_user_id', 'assigned_team_id', 'created_at', 'due_date', 'resolved_at'])
    .where('organization_id', '=', orgId)
    .execute();
  const teams = await t.store.db.selectFrom('teams').select(['id', 'name']).where('organization_id', '=', orgId).execute();
  const users = await t.store.db.selectFrom('users').select(['id', 'full_name', 'is_active']).where('organization_id', '=', orgId).execute();
  const now = Date.parse(generatedAt);
  const since = (ms: number) => new Date(now - ms).toISOString();
  const zero = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const byStatus = zero(STATUSES);
  const byPriority = zero(PRIORITIES);
  const openByPriority = zero(PRIORITIES);
  const open = tickets.filter((x) => OPEN.includes(x.status));
  for (const x of tickets) {
    byStatus[x.status]++;
    byPriority[x.priority]++;
  }
  for (const x of open) openByPriority[x.priority]++;
  const count = (list: typeof tickets, pick: (x: (typeof tickets)[number]) => string | null, from: string) =>
    list.filter((x) => {
      const v = pick(x);
      return v !== null && v >= from;
    }).length;
  const load = (id: string, pick: (x: (typeof tickets)[number]) => string | null) => open.filter((x) => pick(x) === id).length;
  const order = <T extends { id: string; open: number }>(name: (x: T) => string) => (a: T, b: T) =>
    b.open - a.open || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0) || (a.id < b.id ? -1 : 1);
  return {
    tickets: { total: tickets.length, by_status: byStatus, by_priority: byPriority },
    open: {
      total: open.length,
      by_priority: openByPriority,
      unassigned: open.filter((x) => x.assigned_user_id === null).length,
      without_team: open.filter((x) => x.assigned_team_id === null).length,
      overdue: open.filter((x) => x.due_date !== null && x.due_date < generatedAt).length,
    },
    created: { last_24_hours: count(tickets, (x) => String(x.created_at), since(DAY)), last_7_days: count(tickets, (x) => String(x.created_at), since(7 * DAY)) },
    resolved: { last_24_hours: count(tickets, (x) => x.resolved_at as string | null, since(DAY)), last_7_days: count(tickets, (x) => x.resolved_at as string | null, since(7 * DAY)) },
    resolution_last_30_days: { resolved: count(tickets, (x) => x.resolved_at as string | null, since(30 * DAY)), median_seconds: median(tickets, since(30 * DAY)) },
    open_by_team: teams.map((x) => ({ id: x.id, name: x.name, open: load(x.id, (y) => y.assigned_team_id) })).sort(order((x) => x.name)),
    open_by_agent: users
      .map((u) => ({ id: u.id, full_name: u.full_name, open: load(u.id, (y) => y.assigned_user_id), active: Boolean(u.is_active) }))
      .filter((u) => u.active || u.open > 0)
      .map(({ id, full_name, open }) => ({ id, full_name, open }))
      .sort(order((x) => x.full_name)),
  };
}

/** The exact median resolution time (s, to the ms) of the tickets resolved since `from`, by sorting them all. */
function median(tickets: { created_at: string | Date; resolved_at: string | Date | null }[], from: string): number | null {
  const ms = tickets
    .flatMap((x) => (x.resolved_at !== null && String(x.resolved_at) >= from ? [Date.parse(String(x.resolved_at)) - Date.parse(String(x.created_at))] : []))
    .sort((a, b) => a - b);
  if (ms.length === 0) return null;
  const middle = Math.floor((ms.length - 1) / 2);
  return Math.round(ms.length % 2 ? ms[middle]! : (ms[middle]! + ms[middle + 1]!) / 2) / 1000;
}

/** The dashboard equals the recount, the median included (read from the resolution-time histogram). */
async function expectRecount(org: TestOrg): Promise<void> {
  const { generated_at, ...figures } = await dashboard(org);
  expect(figures).toEqual(await recount(org.id, generated_at));
}

type Op =
  | { kind: 'create'; priority: number; user: number; team: number; due: number | null }
  | { kind: 'status' | 'priority' | 'user' | 'team'; ticket: number; value: number }
  | { kind: 'due'; ticket: number; value: number | null }
  | { kind: 'stamp'; ticket: number; column: 'created_at' | 'resolved_at'; edge: number; offset: number }
  | { kind: 'delete-ticket'; ticket: number }
  | { kind: 'delete-team' | 'delete-user'; value: number }
  | { kind: 'compact'; batch: number }
  | { kind: 'read' };

/** An offset in ms around the edges the figures cut at: now, 24 hours, 7 days and 30 days ago. */
const EDGES = [0, DAY, 7 * DAY, 30 * DAY];
const offset = fc.integer({ min: -2 * HOUR, max: 2 * HOUR });
/** Also across a whole day, so the median's histogram is read from days, hours and the edge hour whatever the time of day. */
const wideOffset = fc.oneof(offset, fc.integer({ min: -30 * HOUR, max: 30 * HOUR }));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), priority: fc.nat(3), user: fc.nat(4), team: fc.nat(3), due: fc.option(offset) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('status' as const, 'priority' as const, 'user' as const, 'team' as const), ticket: fc.nat(), value: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('due' as const), ticket: fc.nat(), value: fc.option(offset) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('stamp' as const), ticket: fc.nat(), column: fc.constantFrom('created_at' as const, 'resolved_at' as const), edge: fc.nat(3), offset: wideOffset }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-ticket' as const), ticket: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('delete-team' as const, 'delete-user' as const), value: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('compact' as const), batch: fc.integer({ min: 1, max: 8 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('read' as const) }) },
);

async function run(org: TestOrg, ops: Op[]): Promise<void> {
  const users: (string | null)[] = [null];
  const teams: (string | null)[] = [null];
  for (let i = 0; i < 4; i++) {
    const u = await t.request({ method: 'POST', url: '/v1/users', key: org.adminKey, body: { email: `a${i}-${org.id}@example.com`, full_name: `Agent ${i}` } });
    users.push(u.json<{ id: string }>().id);
  }
  for (let i = 0; i < 3; i++) {
    const team = await t.request({ method: 'POST', url: '/v1/teams', key: org.adminKey, body: { name: `Team ${i}` } });
    teams.push(team.json<{ id: string }>().id);
  }
  const tickets: string[] = [];
  const at = (ms: number) => new Date(Date.now() - ms).toISOString();
  const request = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.request({ method, url, key: org.adminKey, ...(body === undefined ? {} : { body }) });
    // A change may be refused (a deleted agent, a transition the API forbids), never fail.
    expect(res.statusCode, res.body).toBeLessThan(500);
    return res;
  };
  const apply = async (o: Op): Promise<void> => {
    const ticket = 'ticket' in o ? tickets[o.ticket % Math.max(tickets.length, 1)] : undefined;
    switch (o.kind) {
      case 'create': {
        const res = await request('POST', '/v1/tickets', {
          customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'S', description: 'D', priority: PRIORITIES[o.priority],
          assigned_user_id: users[o.user] ?? null, assigned_team_id: teams[o.team] ?? null, due_date: o.due === null ? null : at(o.due),
        });
        if (res.statusCode === 201) tickets.push(res.json<{ id: string }>().id);
        return;
      }
      case 'status':
        if (ticket) await request('PATCH', `/v1/tickets/${ticket}`, { status: STATUSES[o.value % 5] });
        return;
      case 'priority':
        if (ticket) await request('PATCH', `/v1/tickets/${ticket}`, { priority: PRIORITIES[o.value % 4] });
        return;
      case 'user':
        if (ticket) await request('PATCH', `/v1/tickets/${ticket}`, { assigned_user_id: users[o.value % users.length] });
        return;
      case 'team':
        if (ticket) await request('PATCH', `/v1/tickets/${ticket}`, { assigned_team_id: teams[o.value % teams.length] });
        return;
      case 'due':
        if (ticket) await request('PATCH', `/v1/tickets/${ticket}`, { due_date: o.value === null ? null : at(o.value) });
        return;
      case 'stamp':
        // The API stamps "now"; the store moves a timestamp across a window's edge (as an import would).
        if (ticket) await t.store.db.updateTable('tickets').set({ [o.column]: at(EDGES[o.edge]! + o.offset) }).where('id', '=', ticket).execute();
        return;
      case 'delete-ticket':
        if (ticket) await request('DELETE', `/v1/tickets/${ticket}`);
        return;
      case 'delete-team':
        if (teams[o.value + 1]) await request('DELETE', `/v1/teams/${teams[o.value + 1]}`);
        return;
      case 'delete-user':
        if (users[o.value + 1]) await request('DELETE', `/v1/users/${users[o.value + 1]}`);
        return;
      case 'compact':
        await compactDashboardOnce(t.store, o.batch);
        return;
      case 'read':
        await request('GET', '/v1/dashboard');
    }
  };
  // Six at a time: creates, changes, compactions and reads interleave. An agent or team is
  // deleted alone: a ticket assigned to one while it is being deleted is a race of the ticket
  // service's own (a 500 on PostgreSQL), not of the counters.
  let group: Op[] = [];
  const flush = async () => {
    await Promise.all(group.map(apply));
    group = [];
  };
  for (const o of ops) {
    if (o.kind === 'delete-team' || o.kind === 'delete-user') {
      await flush();
      await apply(o);
    } else if (group.push(o) === 6) await flush();
  }
  await flush();
}

describe('dashboard counters', () => {
  it('equal a full recount after random concurrent changes, before and after compaction', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 40, maxLength: 80 }), async (ops) => {
        const org = await t.newOrg('Random');
        await run(org, ops);
        await expectRecount(org);
        await compactDashboard(t.store);
        await expectRecount(org);
      }),
      { numRuns: 6 },
    );
  });

  it('lose nothing when compactions race writes and each other', async () => {
    const org = await t.newOrg('Racing');
    const ops: Op[] = [];
    for (let i = 0; i < 120; i++) {
      ops.push(i % 3 === 0 ? { kind: 'compact', batch: 3 } : { kind: 'create', priority: i % 4, user: i % 5, team: i % 4, due: i % 2 ? HOUR : -HOUR });
    }
    await run(org, ops);
    await Promise.all([compactDashboard(t.store), compactDashboard(t.store)]);
    await expectRecount(org);
    const left = await t.store.db.selectFrom('dashboard_deltas').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it('are compacted by the background job while tickets are created', async () => {
    const org = await t.newOrg('Job');
    const errors: unknown[] = [];
    const job = startDashboardCompaction({ store: t.store, config: { dashboardCompactionIntervalMs: 20 }, log: { level: 'info', warn: (e: unknown) => errors.push(e), error: (e: unknown) => errors.push(e) } });
    try {
      await run(org, Array.from({ length: 30 }, (_, i): Op => ({ kind: 'create', priority: i % 4, user: i % 5, team: i % 4, due: i % 3 ? HOUR : null })));
      const pending = async () =>
        Number((await t.store.db.selectFrom('dashboard_deltas').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', org.id).executeTakeFirstOrThrow()).n);
      for (let i = 0; i < 100 && (await pending()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await pending()).toBe(0);
      await expectRecount(org);
    } finally {
      await job.stop();
    }
    expect(errors).toEqual([]);
  });

  it("leave nothing behind for a deleted organization once compacted", async () => {
    const org = await t.newOrg('Leaving');
    await run(org, Array.from({ length: 12 }, (_, i): Op => ({ kind: 'create', priority: i % 4, user: i % 5, team: i % 4, due: i % 2 ? -HOUR : null })));
    await compactDashboard(t.store);
    expect((await t.store.db.selectFrom('dashboard_totals').select('n').where('organization_id', '=', org.id).execute()).length).toBeGreaterThan(0);
    await t.store.db.deleteFrom('organizations').where('id', '=', org.id).execute();
    await compactDashboard(t.store);
    expect(await t.store.db.selectFrom('dashboard_totals').select('n').where('organization_id', '=', org.id).execute()).toEqual([]);
  });
});

describe("the median's histogram", () => {
  /** Runs `body` with the clock at today's 05:30 UTC: the 30-day window then starts at 05:30, with hours of its first day after it. */
  async function at0530<T>(body: () => Promise<T>): Promise<T> {
    const today = new Date().toISOString().slice(0, 10);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(`${today}T05:30:00.000Z`));
    try {
      return await body();
    } finally {
      vi.useRealTimers();
    }
  }

  /** A resolved ticket, then given its timestamps through the store (as an import would). */
  async function resolved(org: TestOrg, resolvedAt: number, seconds: number): Promise<string> {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', key: org.adminKey, body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'S', description: 'D' } });
    const { id } = res.json<{ id: string }>();
    await t.request({ method: 'PATCH', url: `/v1/tickets/${id}`, key: org.adminKey, body: { status: 'resolved' } });
    await t.store.db
      .updateTable('tickets')
      .set({ created_at: new Date(resolvedAt - seconds * 1000).toISOString(), resolved_at: new Date(resolvedAt).toISOString() })
      .where('id', '=', id)
      .execute();
    return id;
  }

  it('finds the exact median wherever it was resolved: whole days, the first day\'s hours, the edge hour', async () => {
    await at0530(async () => {
      const since = Date.now() - 30 * DAY;
      // In the window: the edge hour, later hours of the first day, later days; outside: before it.
      const inside = [10 * 60_000, 20 * 60_000, 1.5 * HOUR, 6 * HOUR, 18 * HOUR, 18.4 * HOUR, DAY, 3 * DAY, 29 * DAY, 30 * DAY - 1];
      const outside = [-1, -10 * 60_000, -3 * HOUR, -DAY];
      // Every ticket a different fine bucket of the same coarse ones, rotated so that each in turn is the median.
      for (let turn = 0; turn < inside.length; turn += 3) {
        const org = await t.newOrg(`Median ${turn}`);
        for (const [i, offset] of inside.entries()) await resolved(org, since + offset, 1000 + ((i + turn) % inside.length) * 17.123);
        for (const [i, offset] of outside.entries()) await resolved(org, since + offset, 1000 + i * 5.5);
        await expectRecount(org);
        await compactDashboard(t.store);
        await expectRecount(org);
        expect((await dashboard(org)).resolution_last_30_days.resolved).toBe(inside.length);
      }
    });
  });

  it('follows a resolution time changed within the hour', async () => {
    await at0530(async () => {
      const org = await t.newOrg('Median moved');
      const id = await resolved(org, Date.now() - 2 * HOUR - 20 * 60_000, 600);
      await resolved(org, Date.now() - DAY, 10);
      await resolved(org, Date.now() - DAY, 20_000);
      await compactDashboard(t.store);
      await expectRecount(org);
      // Resolved at 03:50 rather than 03:10 (created at 03:00): the same hour, 3,000 s rather than 600.
      const row = await t.store.db.selectFrom('tickets').select(['resolved_at']).where('id', '=', id).executeTakeFirstOrThrow();
      const resolvedAt = new Date(Date.parse(String(row.resolved_at)) + 2_400_000).toISOString();
      expect(resolvedAt.slice(0, 13)).toBe(String(row.resolved_at).slice(0, 13));
      await t.store.db.updateTable('tickets').set({ resolved_at: resolvedAt }).where('id', '=', id).execute();
      await expectRecount(org);
      await compactDashboard(t.store);
      await expectRecount(org);
      expect((await dashboard(org)).resolution_last_30_days.median_seconds).toBe(3000);
    });
  });

  it('is backfilled by migration 0015 from the tickets, pending deltas counted once', async () => {
    const org = await t.newOrg('Median migrated');
    for (let i = 0; i < 6; i++) await resolved(org, Date.now() - i * 5 * DAY - 3 * HOUR, 100 + i * 999.5);
    await compactDashboard(t.store);
    await resolved(org, Date.now() - 2 * DAY, 50_000);
    const migrator = new Migrator({ db: t.store.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const down = await migrator.migrateTo('0014_partition_postgres_search_by_organization');
    expect(down.error).toBeUndefined();
    // Changed while the histogram is gone: deltas pending across the migration.
    await resolved(org, Date.now() - 10 * DAY, 7);
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    // Every later migration runs again too.
    expect(up.results?.map((r) => r.migrationName)).toEqual(Object.keys(migrations).filter((name) => name > '0015'));
    await expectRecount(org);
    await compactDashboard(t.store);
    await expectRecount(org);
  });

  it('answers the right median from the tickets, and logs why, when the histogram disagrees with them', async () => {
    const org = await t.newOrg('Median lost');
    for (const seconds of [30, 70, 5000]) await resolved(org, Date.now() - 2 * DAY, seconds);
    await compactDashboard(t.store);
    // What a process running code older than 0015 would leave by compacting after it: counts without their histogram.
    await t.store.db.deleteFrom('dashboard_totals').where('organization_id', '=', org.id).where('kind', 'in', ['md', 'mh', 'fd', 'fh']).execute();
    const before = medianFallbacks.count;
    expect((await dashboard(org)).resolution_last_30_days).toEqual({ resolved: 3, median_seconds: 70 });
    expect(medianFallbacks.count).toBe(before + 1);
    fallbacksBefore += 1;
  });
});
