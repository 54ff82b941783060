import BetterSqlite3 from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/types.js';
import { buildTestApp, TEST_STORE, type TestApp } from '../../../test/helpers/test-app.js';
import { getDashboard } from './dashboard.service.js';

/**
 * Every query the dashboard runs must be answered from an index of one organization: the counts
 * from its counters (dashboard_totals, dashboard_deltas), and from tickets only the edge hour of
 * each time window (a range bounded on both sides) and, for the median, the window's tickets of one
 * resolution-time bucket: never a scan of the organization's tickets, nor a sort of the window. The queries
 * are the real ones, captured while the service computes a dashboard, explained with their real
 * parameters. On SQLite, and in the postgres project on PostgreSQL.
 */
let t: TestApp;
let spy: Kysely<Database>;
const captured: CompiledQuery[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  // A second connection to the same store that records every query the service sends through it.
  const log = (event: LogEvent) => {
    if (event.level === 'query') captured.push(event.query);
  };
  if (t.store.dialect === 'postgres') {
    // One connection, so the session setting holds for the EXPLAINs. The tables are tiny and a
    // sequential scan would be cheapest; turned off, the plan shows which index serves the query.
    spy = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: t.config.databaseUrl, max: 1 }) }), log });
    await sql`set enable_seqscan = off`.execute(spy);
  } else {
    spy = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(join(t.dataDir, 'ticketing.sqlite')) }), log });
  }
});
afterAll(async () => {
  await spy.destroy();
  await t.close();
});

async function explain(query: CompiledQuery): Promise<string[]> {
  if (t.store.dialect === 'postgres') {
    const result = await spy.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain (costs off) ${query.sql}`, [...query.parameters]));
    return result.rows.map((r) => r['QUERY PLAN']);
  }
  const result = await spy.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
  return result.rows.map((r) => r.detail);
}

async function dashboardPlans(): Promise<Map<string, string[]>> {
  captured.length = 0;
  await getDashboard({ store: { ...t.store, db: spy } }, t.org.id);
  const plans = new Map<string, string[]>();
  for (const query of captured.filter((q) => /^select/i.test(q.sql))) plans.set(query.sql, await explain(query));
  return plans;
}

/**
 * A fragment of each dashboard query's SQL, the SQLite plan lines it must have (every one), and the
 * PostgreSQL index. The median: the edge hour's tickets, then the resolution-time histogram's
 * coarse and fine counts (days and hours, each a primary-key range), then the window's tickets of
 * one fine bucket, day by day, bounded on the resolution time: nothing sorts the window.
 */
const expected: [string, RegExp, string[], string][] = [
  ['counters', /"kind" in \(/, ['SEARCH dashboard_totals USING PRIMARY KEY (organization_id=? AND kind=?)'], 'dashboard_totals_pkey'],
  ['hour buckets', /sum\(case when "a" >/, ['SEARCH dashboard_totals USING PRIMARY KEY (organization_id=? AND kind=? AND a>?)'], 'dashboard_totals_pkey'],
  ['pending deltas', /from "dashboard_deltas"/, ['SEARCH dashboard_deltas USING INDEX dashboard_deltas_org_idx (organization_id=?)'], 'dashboard_deltas_org_idx'],
  // Migration 0038's (organization, status, due date) serves it as well as 0004's partial index of
  // open tickets: one range per open status against one range; SQLite takes the newer, PostgreSQL either.
  ['overdue edge hour', /"due_date" </, ['SEARCH tickets USING COVERING INDEX tickets_org_status_due_idx (organization_id=? AND status=? AND due_date>? AND due_date<?)'], '(?:tickets_open_org_due_idx|tickets_org_status_due_idx)'],
  ['created edge hour', /"created_at" </, ['SEARCH tickets USING COVERING INDEX tickets_org_created_idx (organization_id=? AND created_at>? AND created_at<?)'], 'tickets_org_created_idx'],
  ['resolved edge hour', /count\(\*\).*"resolved_at" </, ['SEARCH tickets USING COVERING INDEX tickets_org_resolved_idx (organization_id=? AND resolved_at>? AND resolved_at<?)'], 'tickets_org_resolved_idx'],
  ['median: edge hour', /^select created_at, resolved_at from tickets/, ['SEARCH tickets USING COVERING INDEX tickets_org_resolved_idx (organization_id=? AND resolved_at>? AND resolved_at<?)'], 'tickets_org_resolved_idx'],
  [
    'median: coarse counts',
    /^select a as key/,
    ['SEARCH dashboard_totals USING PRIMARY KEY (organization_id=? AND kind=?)', 'SEARCH dashboard_totals USING PRIMARY KEY (organization_id=? AND kind=? AND a>? AND a<?)'],
    'dashboard_totals_pkey',
  ],
  ['median: fine counts', /^select substr\(a, 5\) as key/, ['SEARCH dashboard_totals USING PRIMARY KEY (organization_id=? AND kind=? AND a>? AND a<?)'], 'dashboard_totals_pkey'],
  [
    'median: one bucket',
    /julianday|ticket_resolution_ms/,
    ['SEARCH tickets USING COVERING INDEX tickets_org_resolved_day_ms_idx (organization_id=? AND <expr>=? AND <expr>>? AND <expr><?)', 'SEARCH tickets USING COVERING INDEX tickets_org_resolved_day_ms_idx (organization_id=? AND <expr>>?)'],
    'tickets_org_resolved_day_ms_idx',
  ],
  ['team names', /from "teams"/, ['SEARCH teams USING INDEX teams_org_created_idx (organization_id=?)'], 'teams_org_created_idx'],
  ['agent names', /from "users"/, ['USING INDEX users_org_'], 'users_org_'],
];

function checkAll(populated: boolean): void {
  it('runs exactly the expected queries', async () => {
    const plans = await dashboardPlans();
    const sqls = [...plans.keys()];
    for (const [name, fragment] of expected) expect(sqls.filter((s) => fragment.test(s)), name).toHaveLength(1);
    expect(sqls).toHaveLength(expected.length);
  });

  it('sorts nothing: no query orders rows, none reads a ticket outside an index range of its window', async () => {
    const plans = await dashboardPlans();
    for (const [query, lines] of plans) {
      expect(query).not.toMatch(/order by/i);
      const text = lines.join('\n');
      if (TEST_STORE === 'postgres') {
        // Only the hour counters are grouped through a sort: at most 23 hours of buckets.
        if (/Sort/.test(text)) expect(text, query).toMatch(/Sort Key: dashboard_totals_1\.b\n\s+-> {2}Index Scan using dashboard_totals_pkey/);
      } else {
        for (const l of lines.filter((line) => /TEMP B-TREE/.test(line))) expect(l, query).toBe('USE TEMP B-TREE FOR GROUP BY');
      }
    }
  });

  for (const [name, fragment, sqliteLines, postgresIndex] of expected) {
    it(`${name} is read from an index`, async () => {
      const plans = await dashboardPlans();
      const [, lines] = [...plans.entries()].find(([sql]) => fragment.test(sql)) ?? ['', []];
      const text = lines.join('\n');
      if (TEST_STORE === 'postgres') {
        // On a table of one row, without statistics, tickets_org_updated_at_idx (updated_since) costs
        // exactly as much as tickets_org_created_idx for the created window (so does migration 0038's
        // tickets_org_status_assignee_idx, the organization its first column), and the tie may go to
        // any; with statistics (below) the range of tickets_org_created_idx must serve it. The same
        // for the resolved window and tickets_org_resolved_day_ms_idx (its last column resolved_at).
        const tie = !populated && name === 'created edge hour' ? /tickets_org_(updated_at|status_assignee)_idx/.exec(text)?.[0] : undefined;
        const resolvedTie = !populated && /^(resolved edge hour|median: edge hour)$/.test(name) && text.includes('tickets_org_resolved_day_ms_idx');
        expect(text, name).toMatch(new RegExp(`(Index Only Scan|Index Scan|Bitmap Index Scan) (using|on) ${tie ?? (resolvedTie ? 'tickets_org_resolved_day_ms_idx' : postgresIndex)}`));
        expect(text).not.toMatch(/Seq Scan/);
        // The organization and, for the windows, the range bound the index read.
        expect(text).toMatch(/Index Cond: .*organization_id = /);
        if (/edge hour/.test(name) && !tie) expect(text).toMatch(/Index Cond: .*(due_date|created_at|resolved_at) [<>]/);
        if (name === 'hour buckets') expect(text).toMatch(/Index Cond: .*a > /);
        if (/edge hour/.test(name) && !tie) expect(text).toMatch(/Index Cond: .*(due_date|created_at|resolved_at) < /);
        // The histogram's counts: each branch one range of the primary key (its time or bucket bounded).
        if (/median: (coarse|fine)/.test(name)) expect(text.match(/Index Cond: \(\(organization_id = .*kind = .*[ab] > /g)).toHaveLength(2);
        // The bucket's tickets: the window's days and the bucket's resolution times bound the index
        // read (without statistics, on a nearly empty table, the days may be left to a filter).
        if (name === 'median: one bucket') {
          expect(text).toMatch(/Index Cond: .*ticket_resolution_ms\(created_at, resolved_at\) >= .*ticket_resolution_ms\(created_at, resolved_at\) < /);
          if (populated) expect(text).toMatch(/Index Cond: .*substr\(resolved_at, 1, 10\) = ANY .*ticket_resolution_ms\(created_at, resolved_at\) >= .*ticket_resolution_ms\(created_at, resolved_at\) < /);
          expect(text).toMatch(/Index Cond: .*substr\(resolved_at, 1, 10\) > .*ticket_resolution_ms\(created_at, resolved_at\) >= /);
        }
        return;
      }
      for (const line of sqliteLines) expect(text, name).toContain(line);
      for (const l of lines) {
        expect(l).not.toMatch(/\bSCAN (tickets|teams|users|dashboard_totals|dashboard_deltas)\b/);
        expect(l).not.toMatch(/AUTOMATIC/);
        // Grouping follows the index order, but for the histogram's hours (23 hours of buckets at most).
        if (!/median: (coarse|fine)/.test(name)) expect(l).not.toMatch(/TEMP B-TREE/);
      }
    });
  }
}

describe('without statistics, on a nearly empty store', () => {
  // With no resolved ticket the median query is not run at all; give it one to explain.
  beforeAll(async () => {
    await seedTickets(1, t.org.id);
  });
  checkAll(false);
});

async function seedTickets(count: number, organizationId: string): Promise<void> {
  const now = Date.now();
  const customerId = randomUUID();
  const iso = (ms: number) => new Date(ms).toISOString();
  await t.store.db
    .insertInto('customers')
    .values({ id: customerId, organization_id: organizationId, name: 'C', email: `${customerId}@x.io`, email_normalized: `${customerId}@x.io`, has_premium_support: 0, is_vip: 0, created_at: iso(now), updated_at: iso(now) })
    .execute();
  const statuses = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
  const start = Number((await t.store.db.selectFrom('tickets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = Array.from({ length: count }, (_, i) => {
    const status = statuses[(i + 3) % 5]!;
    const created = now - (i % 90) * 86_400_000 - 3_600_000;
    return {
      id: randomUUID(), organization_id: organizationId, ticket_number: start + i + 1, tracking_token: randomUUID(), customer_id: customerId,
      subject: 's', description: 'd', status, priority: 'low' as const, created_at: iso(created), updated_at: iso(created),
      due_date: i % 4 ? iso(created + 86_400_000) : null,
      resolved_at: status === 'resolved' || status === 'closed' ? iso(created + 1_800_000) : null,
    };
  });
  for (let i = 0; i < rows.length; i += 500) await t.store.db.insertInto('tickets').values(rows.slice(i, i + 500)).execute();
}

describe('with statistics from a populated store (ANALYZE)', () => {
  beforeAll(async () => {
    const other = await t.newOrg('Other');
    await seedTickets(3000, t.org.id);
    await seedTickets(3000, other.id);
    // PostgreSQL: VACUUM too, as autovacuum would, so the visibility map lets indexes answer alone.
    await t.store.db.executeQuery(CompiledQuery.raw(TEST_STORE === 'postgres' ? 'vacuum analyze tickets' : 'analyze'));
  });
  checkAll(true);
});
