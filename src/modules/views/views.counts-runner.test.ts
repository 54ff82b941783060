import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, TEST_STORE, type TestApp } from '../../../test/helpers/test-app.js';
import * as repo from './views.repository.js';

/**
 * A view's count runs through the store's read runner (search-runner.ts), not on the event loop:
 * on SQLite a worker thread, on PostgreSQL a pool connection, so a count taking seconds (a million
 * tickets) never freezes other requests, other tenants' included; past VIEWS_COUNT_TIMEOUT_MS the
 * view's count is null (docs/api-behaviour.md, Views and conditions). The count is made slow by
 * its query: a recursive count of this many rows (about a second or more on either store).
 */
const SLOW_ROWS = TEST_STORE === 'postgres' ? 3_000_000 : 2_500_000;

/** Every count of tickets, for the next `times` counts, a slow count of SLOW_ROWS instead. */
function slowCounts(times: number) {
  const spy = vi.spyOn(repo, 'countTicketsQuery');
  for (let i = 0; i < times; i++) {
    spy.mockImplementationOnce((db) => db.selectNoFrom(sql<number>`(with recursive c(x) as (select 1 union all select x + 1 from c where x < ${SLOW_ROWS}) select count(*) from c)`.as('n')));
  }
  return spy;
}

type Counts = { views: Array<{ id: string; count: number | null }> };
let n = 0;

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
};

describe('views: counts off the event loop', () => {
  let t: TestApp;
  let short: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ VIEWS_COUNTS_MAX_AGE_MS: '0' });
    short = await buildTestApp({ VIEWS_COUNT_TIMEOUT_MS: '200' });
  });
  afterAll(async () => {
    await t?.close();
    await short?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const view = async (app: TestApp, key: string) => {
    const conditions = { all: [{ field: 'status', operator: 'is_not', value: 'closed' }] };
    const res = await app.request({ method: 'POST', url: '/v1/views', key, body: { name: `V${n++}`, shared: true, conditions } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>();
  };

  it("while one organization's slow count runs, another organization's get-by-id answers promptly", async () => {
    const counting = await t.newOrg('Counting');
    const slow = await view(t, counting.adminKey);
    const other = await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'B', customer_email: 'b@x.io', subject: 'Other', description: 'Other org' } });
    expect(other.statusCode, other.body).toBe(201);
    const otherId = other.json<{ id: string }>().id;

    slowCounts(1);
    let done = false;
    const counts = timed(() => t.request({ method: 'GET', url: '/v1/views/counts', key: counting.adminKey })).finally(() => (done = true));
    const byIds: number[] = [];
    while (!done) {
      const [res, ms] = await timed(() => t.request({ method: 'GET', url: `/v1/tickets/${otherId}` }));
      expect(res.statusCode).toBe(200);
      byIds.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [res, countsMs] = await counts;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Counts>().views.find((v) => v.id === slow.id)?.count).toBe(SLOW_ROWS);
    // The count was slow enough to show a frozen loop: on it, a get-by-id would have waited as long.
    expect(countsMs).toBeGreaterThan(600);
    expect(byIds.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...byIds), `get-by-id took ${byIds.map((ms) => Math.round(ms)).join(', ')} ms while the count took ${Math.round(countsMs)} ms`).toBeLessThan(300);
  });

  it('requests wanting the same counts at once share one recount, so none finds the counts busy', async () => {
    const org = await t.newOrg();
    const slow = await view(t, org.adminKey);
    const spy = slowCounts(1);
    const answers = await Promise.all([0, 1, 2].map(() => t.request({ method: 'GET', url: '/v1/views/counts', key: org.adminKey })));
    for (const res of answers) expect(res.json<Counts>().views.find((v) => v.id === slow.id)?.count).toBe(SLOW_ROWS);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  // On the main thread (an in-memory store) nothing can stop a count: there is no budget to test.
  it('a count past VIEWS_COUNT_TIMEOUT_MS is null, at once, and the other views are counted; it stays null while the counts are fresh', async () => {
    const org = await short.newOrg();
    const slow = await view(short, org.adminKey);
    const quick = await view(short, org.adminKey);
    const ticket = await short.request({ method: 'POST', url: '/v1/tickets', key: org.adminKey, body: { customer_name: 'A', customer_email: 'a@x.io', subject: 'S', description: 'D' } });
    expect(ticket.statusCode, ticket.body).toBe(201);

    const spy = slowCounts(1);
    const [res, ms] = await timed(() => short.request({ method: 'GET', url: '/v1/views/counts', key: org.adminKey }));
    expect(res.statusCode, res.body).toBe(200);
    const views = res.json<Counts>().views;
    expect(views.find((v) => v.id === slow.id)?.count).toBeNull();
    expect(views.find((v) => v.id === quick.id)?.count).toBe(1);
    expect(ms).toBeLessThan(900);
    expect(spy).toHaveBeenCalledTimes(2);

    const again = await short.request({ method: 'GET', url: '/v1/views/counts', key: org.adminKey });
    expect(again.json<Counts>().views.map((v) => v.count)).toEqual([null, 1]);
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
