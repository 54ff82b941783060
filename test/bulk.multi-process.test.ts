import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor as waitForText, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * Bulk jobs with real `ticketing serve` processes (docs/api-behaviour.md#bulk-changes-and-jobs):
 * a process killed (SIGKILL) mid-job leaves its items to the restarted one, which finishes the
 * job; on PostgreSQL three processes share one job's items. Either way each ticket's change is
 * applied exactly once: one `ticket.updated` and one `comment.created` event per ticket.
 */
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;
const postgres = TEST_STORE === 'postgres';

type Job = { status: string; total: number; done: number; failed: number };

describe(`bulk jobs across processes (${TEST_STORE})`, () => {
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let dataDir: string;
  let key = '';
  const children: Child[] = [];

  beforeAll(async () => {
    buildCli();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bulk-'));
    database = postgres ? await testPostgresDatabase() : undefined;
    env = {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'error',
      // A dead process's items wait this long for another.
      JOBS_LEASE_MS: '1000',
      JOBS_POLL_INTERVAL_MS: '20',
      ...(database ? { DATABASE_URL: database.url, SIGNING_SECRET: randomBytes(36).toString('base64') } : {}),
    };
  }, 240_000);

  afterAll(async () => {
    for (const child of children) if (child.proc.exitCode === null) child.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    rmSync(dataDir, { recursive: true, force: true });
    database?.drop();
  });

  async function start(): Promise<Child & { address: string }> {
    const child = spawnServe(env);
    children.push(child);
    if (!key) key = (await waitForText(child.proc.stdout!, ADMIN_KEY, child.out))[1]!;
    return { ...child, address: await listening(child) };
  }

  const call = async <T>(address: string, method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${address}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, path).toBeLessThan(300);
    return res.json() as Promise<T>;
  };

  const actions = [
    { field: 'priority', value: 'urgent' },
    { field: 'comment', value: { body: 'Changed in bulk', is_internal: true } },
  ];

  async function newJob(address: string, count: number): Promise<{ jobId: string; ids: string[] }> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 10) {
      const made = await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, (_, j) =>
          call<{ id: string }>(address, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${i + j}@example.com`, subject: 'S', description: 'D' }),
        ),
      );
      ids.push(...made.map((t) => t.id));
    }
    const { job_id } = await call<{ job_id: string }>(address, 'POST', '/v1/tickets/bulk', { ids, actions });
    return { jobId: job_id, ids };
  }

  async function ended(address: string, jobId: string): Promise<Job> {
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      const job = await call<Job>(address, 'GET', `/v1/jobs/${jobId}`);
      if (job.status === 'completed' || job.status === 'failed') return job;
    }
    throw new Error(`job ${jobId} did not end`);
  }

  /** Each ticket changed once: one ticket.updated and one comment.created event each. */
  async function appliedOnce(address: string, ids: string[]): Promise<void> {
    const all = await Promise.all(ids.map((id) => call<Array<{ type: string }>>(address, 'GET', `/v1/tickets/${id}/events?limit=100`)));
    all.forEach((events, i) => {
      expect(events.filter((e) => e.type === 'ticket.updated').length, ids[i]).toBe(1);
      expect(events.filter((e) => e.type === 'comment.created').length, ids[i]).toBe(1);
    });
  }

  it('a job survives kill -9 mid-job: the restarted process finishes it, each ticket changed once', async () => {
    let server = await start();
    const { jobId, ids } = await newJob(server.address, 80);
    // Kill as soon as some, not all, are done.
    let job: Job;
    do job = await call<Job>(server.address, 'GET', `/v1/jobs/${jobId}`);
    while (job.done === 0);
    server.proc.kill('SIGKILL');
    await server.exited;
    expect(job.done).toBeLessThan(job.total);
    server = await start();
    try {
      expect(await ended(server.address, jobId)).toMatchObject({ status: 'completed', total: 80, done: 80, failed: 0 });
      await appliedOnce(server.address, ids);
    } finally {
      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 120_000);

  it.skipIf(!postgres)('three processes share one job: each ticket changed once, by more than one process', async () => {
    const fleet = await Promise.all([start(), start(), start()]);
    try {
      const { jobId, ids } = await newJob(fleet[0].address, 90);
      expect(await ended(fleet[1].address, jobId)).toMatchObject({ status: 'completed', total: 90, done: 90, failed: 0 });
      await appliedOnce(fleet[2].address, ids);
      const client = new pg.Client({ connectionString: database!.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>('select count(distinct lease_owner) as n from job_items where job_id = $1', [jobId]);
        expect(Number(rows[0]!.n)).toBeGreaterThan(1);
      } finally {
        await client.end();
      }
    } finally {
      for (const server of fleet) server.proc.kill('SIGTERM');
      await Promise.all(fleet.map((s) => s.exited));
    }
  }, 120_000);
});
