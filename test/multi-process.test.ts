import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from './helpers/attachments.js';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, runCli, spawnServe, type Child } from './helpers/processes.js';
import { requireRedis, TEST_REDIS_URL } from './helpers/redis.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * Production mode end to end (docs/operations.md#running-several-processes): three `ticketing
 * serve` processes of the built CLI on one PostgreSQL database and one Redis, each with its own
 * data directory, as behind a load balancer. Runs in the postgres project (TEST_DATABASE_URL);
 * under CI=true a missing Redis fails it.
 */
const postgres = TEST_STORE === 'postgres';
const redis = postgres && (await requireRedis('multi-process'));

const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;
/** Where a load balancer would be; signed addresses name it, and the test sends them to a process. */
const PUBLIC_URL = 'http://helpdesk.invalid';

describe.runIf(postgres && redis)('three ticketing serve processes on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const dirs: string[] = [];
  const children: Child[] = [];
  let addresses: string[];
  let adminKey: string;

  /** Sends a request to process `i` (mod 3). */
  const call = (i: number, path: string, key: string | null, init: RequestInit = {}): Promise<Response> =>
    fetch(`${addresses[i % addresses.length]}${path}`, {
      ...init,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.headers as Record<string, string> | undefined) },
    });
  const postJson = (i: number, path: string, key: string, body: unknown) =>
    call(i, path, key, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const newTicket = (i: number, n: number) =>
    postJson(i, '/v1/tickets', adminKey, {
      customer_name: `Customer ${n}`,
      customer_email: `customer${n % 50}@example.com`,
      subject: `Ticket ${n}`,
      description: 'Created through one of three processes',
    });

  beforeAll(async () => {
    buildCli();
    database = await testPostgresDatabase();
    env = {
      DATABASE_URL: database.url,
      SIGNING_SECRET: randomBytes(36).toString('base64'),
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `ticketing-test:${randomUUID()}:`,
      PUBLIC_URL,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      // These tests check numbering and sharing, not time limits: 600 creates of one organization
      // queue on its counter row, which on a loaded machine can outlast the 10 s statement timeout
      // (answered 503, retryable, as documented). The timeouts have suites of their own.
      DATABASE_STATEMENT_TIMEOUT_MS: '120000',
      REDIS_COMMAND_TIMEOUT_MS: '10000',
    };
    // Once per release, before the processes start; a second run finds nothing to do.
    const migrated = await runCli(['migrate'], { ...env, DATA_DIR: tempDir() });
    expect(migrated.stderr).toMatch(/schema is up to date|migration\(s\) applied/);

    // All three start at once on the empty store: exactly one of them bootstraps the organization.
    children.push(...[0, 1, 2].map(() => spawnServe({ ...env, DATA_DIR: tempDir() })));
    addresses = await Promise.all(children.map(listening));
    const keys = children.map((c) => ADMIN_KEY.exec(c.out.text)?.[1]).filter((k) => k !== undefined);
    expect(keys, children.map((c) => c.out.text + c.err.text).join('\n')).toHaveLength(1);
    adminKey = keys[0]!;
  }, 240_000);

  afterAll(async () => {
    for (const child of children) child.proc.kill('SIGTERM');
    await Promise.all(children.map((c) => c.exited));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    database?.drop();
  });

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'ticketing-multi-'));
    dirs.push(dir);
    return dir;
  }

  it('numbers 600 tickets created at once across the three 1..600, each exactly once', async () => {
    const responses = await Promise.all(Array.from({ length: 600 }, (_, n) => newTicket(n, n)));
    const bodies = await Promise.all(responses.map(async (r) => ({ status: r.status, body: (await r.json()) as { ticket_number: number } })));
    const failed = bodies.filter((b) => b.status !== 201);
    expect(failed.slice(0, 3)).toEqual([]);
    const numbers = bodies.map((b) => b.body.ticket_number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
    // And every process sees all of them.
    for (const i of [0, 1, 2]) {
      const page = await call(i, `/v1/tickets?search=TKT-${600 - i}`, adminKey);
      expect(((await page.json()) as Array<{ ticket_number: number }>).map((t) => t.ticket_number)).toEqual([600 - i]);
    }
  }, 120_000);

  it('gives a read-only key 200 requests per minute in total across the three, not 200 each', async () => {
    const { stdout } = await runCli(['keys', 'create', '--role', 'readonly', '--name', 'reporting'], { ...env, DATA_DIR: tempDir() });
    const readonly = stdout.trim();
    expect(readonly).toMatch(/^key_ro_/);
    const statuses: Array<{ process: number; status: number }> = [];
    // 270 requests, round robin, 30 at a time: 90 per process, so per-process budgets would allow all.
    for (let batch = 0; batch < 9; batch++) {
      const results = await Promise.all(
        Array.from({ length: 30 }, async (_, j) => {
          const i = batch * 30 + j;
          const res = await call(i, '/v1/tickets?limit=1', readonly);
          await res.arrayBuffer();
          return { process: i % 3, status: res.status };
        }),
      );
      statuses.push(...results);
    }
    expect(statuses.filter((s) => s.status === 200)).toHaveLength(200);
    expect(statuses.filter((s) => s.status === 429)).toHaveLength(70);
    // The budget is one: each process refuses once it is spent, whichever process spent it.
    for (const i of [0, 1, 2]) expect(statuses.some((s) => s.process === i && s.status === 429)).toBe(true);
  });

  it('serves a file uploaded through one process from the others, and a deleted ticket is gone for all at once', async () => {
    const created = await newTicket(0, 1000);
    const ticket = (await created.json()) as { id: string };
    // Larger than one 256 KiB chunk of the database storage, and a PDF by its first bytes.
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(700_000)]);
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'report.pdf', type: 'application/pdf', data: bytes }]);
    const uploaded = await call(0, `/v1/tickets/${ticket.id}/attachments`, adminKey, {
      method: 'POST',
      body: payload,
      headers: { 'content-type': contentType },
    });
    expect(uploaded.status).toBe(201);
    const attachment = (await uploaded.json()) as { id: string };

    const link = await call(1, `/v1/tickets/${ticket.id}/attachments/${attachment.id}/download`, adminKey);
    expect(link.status).toBe(200);
    const signed = new URL(((await link.json()) as { signed_url: string }).signed_url);
    expect(signed.origin).toBe(PUBLIC_URL);
    const signedPath = `${signed.pathname}${signed.search}`;
    for (const i of [1, 2]) {
      const download = await call(i, signedPath, null);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    }

    const deleted = await call(2, `/v1/tickets/${ticket.id}`, adminKey, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    for (const i of [0, 1]) {
      expect((await call(i, `/v1/tickets/${ticket.id}`, adminKey)).status).toBe(404);
      // The file went with the ticket: its signed address is now unknown, which is 403
    // (docs/api-behaviour.md#attachments-and-downloads).
      const download = await call(i, signedPath, null);
      expect(download.status).toBe(403);
    }
  });

  it('refuses a key revoked through one process on the others from the next request', async () => {
    const created = await postJson(1, '/v1/api-keys', adminKey, { name: 'integration', role: 'admin' });
    expect(created.status).toBe(201);
    const { key, id } = (await created.json()) as { key: string; id: string };
    const ticket = (await (await newTicket(0, 9_000)).json()) as { id: string };
    // Get-by-id too: its key read is shared with the reads of the same turn (tickets.repository.ts).
    const burst = (i: number) => Promise.all([key, adminKey, key, adminKey].map(async (k) => (await call(i, `/v1/tickets/${ticket.id}`, k)).status));
    for (const i of [0, 1, 2]) expect((await call(i, '/v1/test', key)).status).toBe(200);
    for (const i of [0, 1, 2]) expect(await burst(i)).toEqual([200, 200, 200, 200]);

    expect((await call(2, `/v1/api-keys/${id}`, adminKey, { method: 'DELETE' })).status).toBe(204);
    for (const i of [0, 1, 2]) {
      // The very next requests of the key in each process: a burst of get-by-ids, then another route.
      expect(await burst(i)).toEqual([401, 200, 401, 200]);
      const res = await call(i, '/v1/test', key);
      expect(res.status).toBe(401);
    }
  });

  it('a create sent with one Idempotency-Key to all three at once makes one ticket; every retry replays it', async () => {
    const retried = async () => ((await (await call(0, '/v1/tickets?search=Retried', adminKey)).json()) as Array<{ ticket_number: number }>).map((t) => t.ticket_number);
    expect(await retried()).toEqual([]);
    const body = JSON.stringify({ customer_name: 'Retry', customer_email: 'retry@example.com', subject: 'Retried', description: 'Sent 30 times' });
    const send = (i: number) =>
      call(i, '/v1/tickets', adminKey, { method: 'POST', body, headers: { 'content-type': 'application/json', 'idempotency-key': 'multi-process-retry' } });
    const answers = await Promise.all(Array.from({ length: 30 }, async (_, i) => {
      const res = await send(i);
      return { status: res.status, body: await res.text(), replayed: res.headers.get('idempotent-replayed') === 'true' };
    }));
    expect(answers.every((a) => a.status === 201 || a.status === 409), answers.map((a) => a.status).join()).toBe(true);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // At most one answer did the work; every other 201 is a replay of it, which holds no tracking
    // token (docs/api-behaviour.md#safe-retries-idempotency-key): the same record otherwise.
    expect(created.filter((a) => !a.replayed).length).toBeLessThanOrEqual(1);
    const replay = (b: string) => JSON.stringify({ ...(JSON.parse(b) as object), tracking_token: null });
    expect(new Set(created.map((a) => replay(a.body))).size).toBe(1);
    for (const a of created.filter((x) => x.replayed)) expect(a.body).toBe(replay(created[0]!.body));
    const ticket = JSON.parse(created[0]!.body) as { ticket_number: number };
    for (const i of [0, 1, 2]) {
      const retry = await send(i);
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await retry.text()).toBe(replay(created[0]!.body));
    }
    // One ticket, whichever process did the work.
    expect(await retried()).toEqual([ticket.ticket_number]);
  });
});
