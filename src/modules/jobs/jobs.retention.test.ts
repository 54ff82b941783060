import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { pruneJobs } from './jobs.retention.js';
import { startBulkWorker } from './jobs.worker.js';

/** Retention of bulk jobs (JOBS_RETENTION_DAYS): finished jobs and their items go, a few at a time. */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ JOBS_POLL_INTERVAL_MS: '20' });
});
afterAll(async () => {
  await t.close();
});

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

let n = 0;
async function ticketIds(org: TestOrg, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', key: org.adminKey, body: { customer_name: 'Ada', customer_email: `ada${n++}@example.com`, subject: 'S', description: 'D' } });
    ids.push(res.json<{ id: string }>().id);
  }
  return ids;
}
async function bulk(org: TestOrg, ids: string[]): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/v1/tickets/bulk', key: org.adminKey, body: { ids, actions: [{ field: 'priority', value: 'high' }] } });
  expect(res.statusCode, res.body).toBe(202);
  return res.json<{ job_id: string }>().job_id;
}
const status = async (org: TestOrg, id: string) => (await t.request({ method: 'GET', url: `/v1/jobs/${id}`, key: org.adminKey })).statusCode;
const listed = async (org: TestOrg) => (await t.request({ method: 'GET', url: '/v1/jobs', key: org.adminKey })).json<Array<{ id: string }>>().map((j) => j.id);
const itemsOf = async (id: string) => (await t.store.db.selectFrom('job_items').select('id').where('job_id', '=', id).execute()).length;
/** As if the job was made, and ended, `days` ago. */
const age = async (id: string, days: number, finished = true) => {
  await t.store.db
    .updateTable('jobs')
    .set({ created_at: daysAgo(days + 0.01), ...(finished ? { finished_at: daysAgo(days) } : {}) })
    .where('id', '=', id)
    .execute();
};

describe('retention of bulk jobs', () => {
  it('deletes jobs that ended before the cutoff with their items, whole jobs a batch at a time; keeps newer and unfinished ones', async () => {
    const org = await t.newOrg();
    const tickets = await ticketIds(org, 2);
    const old = [await bulk(org, tickets), await bulk(org, tickets), await bulk(org, tickets)];
    const recent = await bulk(org, tickets);
    const worker = startBulkWorker({ store: t.store, config: t.config, log: t.app.log });
    try {
      for (const until = Date.now() + 15_000; ; ) {
        const ended = await t.store.db.selectFrom('jobs').select('id').where('organization_id', '=', org.id).where('finished_at', 'is not', null).execute();
        if (ended.length === 4) break;
        expect(Date.now()).toBeLessThan(until);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await worker.stop();
    }
    // Queued, never run, and as old: an unfinished job is never pruned.
    const unfinished = await bulk(org, tickets);
    for (const id of old) await age(id, 40);
    await age(recent, 10);
    await age(unfinished, 40, false);
    expect(await itemsOf(old[0]!)).toBe(2);

    // 2 items a job, at most 3 items a statement: one job per statement.
    expect(await pruneJobs(t.store.db, daysAgo(30), 3)).toEqual({ jobs: 3, batches: 3 });
    for (const id of old) {
      expect(await status(org, id)).toBe(404);
      expect(await itemsOf(id)).toBe(0);
    }
    expect(await status(org, recent)).toBe(200);
    expect(await status(org, unfinished)).toBe(200);
    expect(await listed(org)).toEqual([recent, unfinished]);
    expect(await pruneJobs(t.store.db, daysAgo(30), 3)).toEqual({ jobs: 0, batches: 0 });

    // Up to 4 items a statement: two of these jobs at a time.
    const more = [await bulk(org, tickets), await bulk(org, tickets), await bulk(org, tickets)];
    await t.store.db.updateTable('jobs').set({ status: 'completed', finished_at: daysAgo(50) }).where('id', 'in', more).execute();
    for (const id of more) await age(id, 50);
    expect(await pruneJobs(t.store.db, daysAgo(30), 4)).toEqual({ jobs: 3, batches: 2 });
    expect(await listed(org)).toEqual([recent, unfinished]);
  });

  it('is on by default for 30 days; JOBS_RETENTION_DAYS sets it', async () => {
    expect(t.config.jobs.retentionDays).toBe(30);
    const set = loadConfig({ JOBS_RETENTION_DAYS: '0', AUTOMATION_RUNS_RETENTION_DAYS: '7' });
    expect(set.jobs.retentionDays).toBe(0);
    expect(set.automationRunsRetentionDays).toBe(7);
    expect(() => loadConfig({ JOBS_RETENTION_DAYS: '-1' })).toThrow(/JOBS_RETENTION_DAYS/);
  });
});
