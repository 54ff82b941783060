import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { startBulkWorker } from './jobs.worker.js';

/** Bulk changes and their jobs (docs/api-behaviour.md, Bulk changes and jobs), through HTTP. */

type Job = {
  id: string;
  status: string;
  total: number;
  done: number;
  failed: number;
  started_at: string | null;
  finished_at: string | null;
  results: Array<{ ticket_id: string; status: string; detail?: string }>;
};
type Ticket = { id: string; priority: string; status: string; tags: string[] };
type Event = { type: string };
type FieldError = { field: string; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ JOBS_POLL_INTERVAL_MS: '20' });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST';
const send = (key: string, method: Method, url: string, body?: unknown) => t.request({ method, url, key, body });
async function ok<T>(key: string, method: Method, url: string, body?: unknown): Promise<T> {
  const res = await send(key, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json<T>();
}
function fieldsOf(res: { statusCode: number; body: string; json: <T>() => T }): string[] {
  expect(res.statusCode, res.body).toBe(422);
  return res.json<{ errors: FieldError[] }>().errors.map((e) => e.field);
}

let n = 0;
const ticket = (org: TestOrg, extra: Record<string, unknown> = {}) =>
  ok<Ticket>(org.adminKey, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${n++}@example.com`, subject: 'S', description: 'D', ...extra });
const tickets = (org: TestOrg, count: number) => Promise.all(Array.from({ length: count }, () => ticket(org)));
const urgent = [{ field: 'priority', value: 'urgent' }];

async function bulk(org: TestOrg, body: unknown): Promise<string> {
  const res = await send(org.adminKey, 'POST', '/v1/tickets/bulk', body);
  expect(res.statusCode, res.body).toBe(202);
  const { job_id } = res.json<{ job_id: string }>();
  expect(res.headers.location).toBe(`/v1/jobs/${job_id}`);
  return job_id;
}

/** Runs a worker until the job has ended, then stops it. */
async function finish(org: TestOrg, jobId: string): Promise<Job> {
  const worker = startBulkWorker({ store: t.store, config: t.config, log: t.app.log });
  try {
    for (const until = Date.now() + 15_000; Date.now() < until; ) {
      const job = await ok<Job>(org.adminKey, 'GET', `/v1/jobs/${jobId}`);
      if (job.status === 'completed' || job.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`job ${jobId} did not end`);
  } finally {
    await worker.stop();
  }
}

const eventsOf = async (org: TestOrg, id: string, type = 'ticket.updated') =>
  (await ok<Event[]>(org.adminKey, 'GET', `/v1/tickets/${id}/events?limit=100`)).filter((e) => e.type === type).length;
const updates = (org: TestOrg, id: string) => eventsOf(org, id);

describe('bulk changes', () => {
  it('change each ticket once, each with its own event, and the job says so', async () => {
    const org = await t.newOrg();
    const three = await tickets(org, 3);
    const actions = [...urgent, { field: 'add_tags', value: ['Bulk'] }, { field: 'comment', value: { body: 'Looked at in bulk', is_internal: true } }];
    const jobId = await bulk(org, { ids: three.map((x) => x.id), actions });
    const job = await finish(org, jobId);
    expect(job).toMatchObject({ id: jobId, status: 'completed', total: 3, done: 3, failed: 0 });
    expect(job.started_at).not.toBeNull();
    expect(job.finished_at).not.toBeNull();
    expect(job.results).toEqual(three.map((x) => ({ ticket_id: x.id, status: 'applied' })));
    for (const x of three) {
      expect(await ok<Ticket>(org.adminKey, 'GET', `/v1/tickets/${x.id}`)).toMatchObject({ priority: 'urgent', tags: ['bulk'] });
      expect(await updates(org, x.id)).toBe(1);
      expect(await eventsOf(org, x.id, 'comment.created')).toBe(1);
    }
  });

  it('a ticket that fails stops no other: unknown and foreign ids fail as "Ticket not found"', async () => {
    const org = await t.newOrg();
    const other = await t.newOrg();
    const [a, b] = await tickets(org, 2);
    const foreign = await ticket(other);
    const missing = randomUUID();
    const jobId = await bulk(org, { ids: [a!.id, missing, foreign.id, b!.id], actions: urgent });
    const job = await finish(org, jobId);
    expect(job).toMatchObject({ status: 'completed', total: 4, done: 4, failed: 2 });
    expect(job.results).toEqual([
      { ticket_id: a!.id, status: 'applied' },
      { ticket_id: missing, status: 'failed', detail: 'Ticket not found' },
      { ticket_id: foreign.id, status: 'failed', detail: 'Ticket not found' },
      { ticket_id: b!.id, status: 'applied' },
    ]);
    expect((await ok<Ticket>(other.adminKey, 'GET', `/v1/tickets/${foreign.id}`)).priority).toBe('medium');
    expect(await updates(other, foreign.id)).toBe(0);
    // Every ticket failed: the job failed.
    expect(await finish(org, await bulk(org, { ids: [missing], actions: urgent }))).toMatchObject({ status: 'failed', total: 1, done: 1, failed: 1 });
  });

  it('take the tickets a view matches when the job is created', async () => {
    const org = await t.newOrg();
    const [low1, , low2] = [await ticket(org, { priority: 'low' }), await ticket(org), await ticket(org, { priority: 'low' })];
    const view = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/views', { name: 'Low', shared: true, conditions: { all: [{ field: 'priority', operator: 'is', value: 'low' }] } });
    const job = await finish(org, await bulk(org, { view_id: view.id, actions: [{ field: 'status', value: 'open' }] }));
    expect(job).toMatchObject({ status: 'completed', total: 2, done: 2, failed: 0 });
    expect(new Set(job.results.map((r) => r.ticket_id))).toEqual(new Set([low1.id, low2.id]));
    // A view that matches nothing makes a job that is done at once.
    const none = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/views', { name: 'None', shared: true, conditions: { all: [{ field: 'category', operator: 'is', value: 'nothing' }] } });
    expect(await ok<Job>(org.adminKey, 'GET', `/v1/jobs/${await bulk(org, { view_id: none.id, actions: urgent })}`)).toMatchObject({ status: 'completed', total: 0, done: 0, results: [] });
  });

  it('are refused up front: over 1,000 ids, both or neither of ids and view_id, a view not the caller\'s, bad actions', async () => {
    const org = await t.newOrg();
    const other = await t.newOrg();
    const ids = Array.from({ length: 1_001 }, () => randomUUID());
    expect(fieldsOf(await send(org.adminKey, 'POST', '/v1/tickets/bulk', { ids, actions: urgent }))).toEqual(['body.ids']);
    // 1,000 is allowed; a repeated id counts once.
    const one = await ticket(org);
    const repeated = await finish(org, await bulk(org, { ids: Array.from({ length: 1_000 }, () => one.id), actions: urgent }));
    expect(repeated).toMatchObject({ status: 'completed', total: 1, done: 1, results: [{ ticket_id: one.id, status: 'applied' }] });
    const view = await ok<{ id: string }>(other.adminKey, 'POST', '/v1/views', { name: 'V', shared: true, conditions: {} });
    expect(fieldsOf(await send(org.adminKey, 'POST', '/v1/tickets/bulk', { view_id: view.id, actions: urgent }))).toEqual(['body.view_id']);
    expect(fieldsOf(await send(org.adminKey, 'POST', '/v1/tickets/bulk', { ids: [randomUUID()], view_id: view.id, actions: urgent }))).toEqual(['body.view_id']);
    expect(fieldsOf(await send(org.adminKey, 'POST', '/v1/tickets/bulk', { actions: urgent }))).toEqual(['body.ids']);
    expect(fieldsOf(await send(org.adminKey, 'POST', '/v1/tickets/bulk', { ids: [randomUUID()], actions: [] }))).toEqual(['body.actions']);
    const badValue = [...urgent, { field: 'assigned_team_id', value: randomUUID() }];
    expect(fieldsOf(await send(org.adminKey, 'POST', '/v1/tickets/bulk', { ids: [randomUUID()], actions: badValue }))).toEqual(['body.actions[1].value']);
    // "me" needs a user behind the request (this key has none); a comment needs comments:write.
    expect(fieldsOf(await send(org.adminKey, 'POST', '/v1/tickets/bulk', { ids: [randomUUID()], actions: [{ field: 'assigned_user_id', value: 'me' }] }))).toEqual(['body.actions[0].value']);
    const writer = await org.key({ role: 'admin', name: 'w', scopes: ['tickets:write'] });
    const comment = [{ field: 'comment', value: { body: 'Hi' } }];
    expect((await send(writer, 'POST', '/v1/tickets/bulk', { ids: [randomUUID()], actions: comment })).statusCode).toBe(403);
    expect(await updates(org, one.id)).toBe(1);
  });
});

describe('jobs', () => {
  it('show progress: queued, then running with some done, then completed', async () => {
    const org = await t.newOrg();
    const forty = await tickets(org, 40);
    const jobId = await bulk(org, { ids: forty.map((x) => x.id), actions: urgent });
    expect(await ok<Job>(org.adminKey, 'GET', `/v1/jobs/${jobId}`)).toMatchObject({ status: 'queued', total: 40, done: 0, failed: 0, started_at: null });
    // One batch (32 items) and stop.
    await startBulkWorker({ store: t.store, config: t.config, log: t.app.log }).stop();
    const partway = await ok<Job>(org.adminKey, 'GET', `/v1/jobs/${jobId}`);
    expect(partway).toMatchObject({ status: 'running', total: 40, done: 32, failed: 0 });
    expect(partway.results.filter((r) => r.status === 'pending')).toHaveLength(8);
    expect(await finish(org, jobId)).toMatchObject({ status: 'completed', done: 40 });
  });

  it("are another organization's 404; read with tickets:read, started with tickets:write", async () => {
    const org = await t.newOrg();
    const other = await t.newOrg();
    const jobId = await bulk(org, { ids: [(await ticket(org)).id], actions: urgent });
    expect((await send(other.adminKey, 'GET', `/v1/jobs/${jobId}`)).statusCode).toBe(404);
    expect((await send(org.adminKey, 'GET', `/v1/jobs/${randomUUID()}`)).statusCode).toBe(404);
    const reader = await org.key({ role: 'readonly', name: 'r' });
    expect((await send(reader, 'GET', `/v1/jobs/${jobId}`)).statusCode).toBe(200);
    expect((await send(reader, 'POST', '/v1/tickets/bulk', { ids: [randomUUID()], actions: urgent })).statusCode).toBe(403);
    await finish(org, jobId);
  });
});

describe('GET /v1/jobs', () => {
  type Summary = Omit<Job, 'results'> & { results?: unknown };
  const nextOf = (link: unknown) => (typeof link === 'string' ? /<([^>]+)>;\s*rel="next"/.exec(link)?.[1] : undefined);

  it("lists the organization's jobs newest first with their progress, a page at a time by cursor", async () => {
    const org = await t.newOrg();
    const other = await t.newOrg();
    const [a, b] = await tickets(org, 2);
    const first = await bulk(org, { ids: [a!.id, b!.id, randomUUID()], actions: urgent });
    await finish(org, first);
    const ids = [first];
    for (let i = 0; i < 4; i++) {
      // Apart in time, so their order is the order made (a tie would go by id).
      await new Promise((resolve) => setTimeout(resolve, 3));
      ids.push(await bulk(org, { ids: [a!.id], actions: urgent }));
    }
    await bulk(other, { ids: [(await ticket(other)).id], actions: urgent });

    const all = await ok<Summary[]>(org.adminKey, 'GET', '/v1/jobs');
    expect(all.map((j) => j.id)).toEqual(ids.slice().reverse());
    expect(all.at(-1)).toEqual({ id: first, kind: 'ticket_bulk', status: 'completed', total: 3, done: 3, failed: 1, created_at: expect.any(String) as string, started_at: expect.any(String) as string, finished_at: expect.any(String) as string });
    expect(all[0]).toMatchObject({ status: 'queued', total: 1, done: 0, failed: 0, started_at: null, finished_at: null });
    expect(all[0]!.results).toBeUndefined();

    // Two at a time, by the Link header's cursor: every job once, newest first.
    const walked: string[] = [];
    for (let url: string | undefined = '/v1/jobs?limit=2', pages = 0; url !== undefined; pages++) {
      expect(pages).toBeLessThan(5);
      const res = await send(org.adminKey, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      walked.push(...res.json<Summary[]>().map((j) => j.id));
      url = nextOf(res.headers.link);
      if (url !== undefined) expect(url).toMatch(/^\/v1\/jobs\?limit=2&cursor=[A-Za-z0-9_-]+$/);
    }
    expect(walked).toEqual(ids.slice().reverse());
    expect((await send(org.adminKey, 'GET', '/v1/jobs?cursor=bm90LWEtY3Vyc29y')).statusCode).toBe(422);
    expect((await send(org.adminKey, 'GET', '/v1/jobs?status=queued')).statusCode).toBe(422);
    await finish(org, ids.at(-1)!);
  });

  it('is read with tickets:read, like a job; a key without it gets 403', async () => {
    const org = await t.newOrg();
    const jobId = await bulk(org, { ids: [(await ticket(org)).id], actions: urgent });
    const reader = await org.key({ role: 'readonly', name: 'r' });
    expect((await ok<Summary[]>(reader, 'GET', '/v1/jobs')).map((j) => j.id)).toEqual([jobId]);
    const noTickets = await org.key({ scopes: ['customers:read'], name: 'c' });
    const refused = await send(noTickets, 'GET', '/v1/jobs');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Insufficient permissions: requires tickets:read' });
    expect(await ok<Summary[]>((await t.newOrg()).adminKey, 'GET', '/v1/jobs')).toEqual([]);
    await finish(org, jobId);
  });
});
