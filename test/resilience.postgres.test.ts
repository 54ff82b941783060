import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TcpProxy } from './helpers/faults.js';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * PostgreSQL misbehaving under a running `ticketing serve` (the built CLI, a real process, so a
 * crash shows as an exit): connections reset under load, terminated by the server, a network that
 * goes silent and heals, and one whose old connections never answer again
 * (bench/RESULTS.md#resilience has what they did to an unprepared process). No process exits, an
 * unavailable store is a 503 with Retry-After (never a 500), nothing waits longer than the
 * configured timeouts, and requests succeed again within seconds of the network's return, without a
 * restart. Runs in the postgres project.
 */
const postgres = TEST_STORE === 'postgres';

const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

/** Short timeouts, so the outages below stay short; production defaults are in docs/operations.md. */
const TIMEOUTS = {
  DATABASE_CONNECT_TIMEOUT_MS: '1000',
  DATABASE_POOL_TIMEOUT_MS: '2000',
  DATABASE_STATEMENT_TIMEOUT_MS: '1500',
  DATABASE_QUERY_TIMEOUT_MS: '2500',
};
/** The longest a request may take while PostgreSQL does not answer: a wait for the pool, then a query wait, and slack. */
const WORST_CASE_MS = 2_000 + 2_500 + 2_000;

interface Outcome {
  status: number;
  ms: number;
  at: number;
  body: string;
  retryAfter: string | null;
}

describe.runIf(postgres)('PostgreSQL faults under a running server', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let admin: pg.Client;
  let server: Child & { key: string; address: string };
  const dirs: string[] = [];

  beforeAll(async () => {
    buildCli();
    database = await testPostgresDatabase();
    const direct = new URL(database.url);
    proxy = new TcpProxy(direct.hostname, Number(direct.port || 5432));
    await proxy.start();
    const proxied = new URL(database.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-pg-faults-'));
    dirs.push(dataDir);
    const child = spawnServe({
      ...TIMEOUTS,
      DATABASE_URL: proxied.toString(),
      DATABASE_POOL_SIZE: '4',
      SIGNING_SECRET: randomBytes(36).toString('base64'),
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      RATE_LIMIT_ADMIN_PER_MINUTE: '1000000',
    });
    const key = (await waitFor(child.proc.stdout!, ADMIN_KEY, child.out))[1]!;
    server = { ...child, key, address: await listening(child) };
  }, 240_000);

  afterAll(async () => {
    server?.proc.kill('SIGKILL');
    await proxy?.stop();
    await admin?.end();
    database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  afterEach(() => {
    // Whatever a test did, the next one starts with a working network.
    proxy.heal('resume');
    expect(server.proc.exitCode, server.err.text).toBeNull();
  });

  let n = 0;
  /** One request: a create or a list, in turn. Never throws: a failed connection to the service is status 0. */
  async function call(i: number): Promise<Outcome> {
    const started = Date.now();
    const create = i % 2 === 0;
    try {
      const res = await fetch(`${server.address}/v1/tickets${create ? '' : '?limit=5'}`, {
        method: create ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${server.key}`, ...(create ? { 'content-type': 'application/json' } : {}) },
        body: create
          ? JSON.stringify({ customer_name: 'Load', customer_email: `load${++n % 20}@example.com`, subject: `Load ${n}`, description: 'under faults' })
          : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, ms: Date.now() - started, at: started, body: await res.text(), retryAfter: res.headers.get('retry-after') };
    } catch (error) {
      return { status: 0, ms: Date.now() - started, at: started, body: String(error), retryAfter: null };
    }
  }

  /** `clients` clients calling in a loop until `stop()` resolves; resolves to every outcome. */
  async function load(clients: number, until: Promise<unknown>): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    let done = false;
    void until.then(() => (done = true));
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = c; !done; i += clients) outcomes.push(await call(i));
      }),
    );
    return outcomes;
  }

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const statuses = (outcomes: Outcome[]) => [...new Set(outcomes.map((o) => o.status))].sort();

  /** A 503 of an unavailable store is the documented, retryable one. */
  function expectHonest(outcomes: Outcome[]): void {
    for (const o of outcomes) {
      expect([200, 201, 503], o.body).toContain(o.status);
      if (o.status === 503) {
        const body = JSON.parse(o.body) as Record<string, unknown>;
        expect(Object.keys(body).sort()).toEqual(['detail', 'request_id']);
        expect(body.detail).toBe('The data store is temporarily unavailable; retry shortly');
        expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
        expect(o.retryAfter).toBe('2');
      }
    }
  }

  async function readyz(): Promise<{ status: number; ms: number; body: unknown }> {
    const started = Date.now();
    const res = await fetch(`${server.address}/readyz`);
    return { status: res.status, ms: Date.now() - started, body: await res.json() };
  }

  it('answers 503 at once while PostgreSQL refuses connections (it used to be 500s), and recovers when it is back', async () => {
    await proxy.stop();
    const during = await load(4, sleep(1_500));
    await proxy.start();
    const after = await load(4, sleep(1_500));
    expectHonest([...during, ...after]);
    expect(statuses(during)).toEqual([503]);
    expect(Math.max(...during.map((o) => o.ms))).toBeLessThan(1_500);
    expect(after.filter((o) => o.at > after[0]!.at + 500 && o.status >= 300).map((o) => o.body)).toEqual([]);
  }, 30_000);

  it('a portal page during an outage is a 503 page, logged as the expected warning, never as an error', async () => {
    await proxy.stop();
    try {
      const logged = server.out.text.length + server.err.text.length;
      const page = await fetch(`${server.address}/portal/${randomUUID()}`);
      expect(page.status).toBe(503);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('retry-after')).toBe('2');
      await sleep(200);
      // The server logs at LOG_LEVEL=error: an expected outage writes nothing there.
      expect((server.out.text + server.err.text).length - logged, server.out.text.slice(-2000)).toBe(0);
    } finally {
      await proxy.start();
    }
  }, 30_000);

  it('survives connections reset under load and backends terminated by the server; failed requests are 503', async () => {
    const faults = (async () => {
      for (let round = 0; round < 3; round++) {
        await sleep(600);
        proxy.resetAll();
        await sleep(600);
        // pg_terminate_backend(): what an operator, a failover tool or a crashing backend does.
        await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = 'ticketing' and pid <> pg_backend_pid()`);
      }
      await sleep(300);
    })();
    const during = await load(8, faults);
    expect(server.proc.exitCode, server.err.text).toBeNull();
    expectHonest(during);
    console.info(`[resilience.postgres] resets under load: ${during.length} requests, statuses ${statuses(during).join(', ')}`);
    // Each broken connection was replaced: everything succeeds afterwards.
    const after = await load(4, sleep(1_000));
    expect(after.filter((o) => o.status >= 300).map((o) => o.body)).toEqual([]);
    // And numbering went on without duplicates through all of it.
    const { rows } = await admin.query<{ n: string; d: string }>('select count(*) as n, count(distinct ticket_number) as d from tickets');
    expect(rows[0]!.n).toBe(rows[0]!.d);
  }, 60_000);

  it('during a silent outage answers 503 within the timeouts (readiness too), and serves again once the network heals', async () => {
    await load(4, sleep(500)); // the pool is warm: its connections will be the ones that go silent
    proxy.goSilent();
    const outage = sleep(5_000);
    const duringPromise = load(6, outage);
    await sleep(3_500);
    const ready = await readyz();
    const live = await fetch(`${server.address}/healthz`);
    const during = await duringPromise;
    proxy.heal('resume');
    const healedAt = Date.now();
    const after = await load(4, sleep(8_000));

    expectHonest([...during, ...after]);
    expect(during.some((o) => o.status === 503)).toBe(true);
    expect(Math.max(...during.map((o) => o.ms))).toBeLessThanOrEqual(WORST_CASE_MS);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', checks: { store: 'unavailable' } });
    expect(ready.ms).toBeLessThan(3_000);
    expect(live.status).toBe(200);
    expectRecovered(after, healedAt);
    expect((await readyz()).status).toBe(200);
  }, 60_000);

  it('after an outage whose old connections never answer again, requests succeed within seconds of the network’s return', async () => {
    await load(4, sleep(500));
    proxy.goSilent();
    // A quiet outage (night traffic): the pool's idle connections are not used meanwhile, so they
    // are all still there, dead, when traffic comes back.
    const during = await load(1, sleep(3_000));
    // The network is back, but every connection opened before is dead for good (a host crash or
    // a failover): only new connections work.
    proxy.heal('never');
    const healedAt = Date.now();
    const after = await load(4, sleep(8_000));
    expectHonest([...during, ...after]);
    expect(Math.max(...during.map((o) => o.ms))).toBeLessThanOrEqual(WORST_CASE_MS);
    expectRecovered(after, healedAt);
    expect((await readyz()).status).toBe(200);
  }, 60_000);

  /**
   * Requests succeed again within seconds of `healedAt` (at most the query timeout spent on each
   * dead connection the pool still held, plus slack), and every request started after that succeeds.
   */
  function expectRecovered(after: Outcome[], healedAt: number): void {
    const firstSuccess = Math.min(...after.filter((o) => o.status < 300).map((o) => o.at + o.ms));
    const recoveredWithin = firstSuccess - healedAt;
    const settled = healedAt + WORST_CASE_MS;
    const late = after.filter((o) => o.at >= settled);
    console.info(
      `[resilience.postgres] first success ${recoveredWithin} ms after the network returned; ` +
        `${after.filter((o) => o.status === 503).length} of ${after.length} requests after it were 503`,
    );
    expect(recoveredWithin).toBeLessThanOrEqual(WORST_CASE_MS);
    expect(late.length).toBeGreaterThan(0);
    expect(late.filter((o) => o.status >= 300).map((o) => o.body)).toEqual([]);
  }
});
