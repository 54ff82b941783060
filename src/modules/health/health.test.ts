import { sql } from 'kysely';
import { createServer } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openStore } from '../../db/store.js';
import { openBlobStore } from '../../storage/open-blob-store.js';
import { buildTestApp, TEST_STORE, type TestApp } from '../../../test/helpers/test-app.js';
import { WRITE_FAILURE_MEMORY_MS } from '../../db/store-health.js';

/** A local port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('health checks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_ADMIN_PER_MINUTE: '2', RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET /healthz answers 200 {"status":"ok"} without a key', async () => {
    const res = await t.request({ method: 'GET', url: '/healthz', key: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET /readyz answers 200 with the store check when Redis is not configured', async () => {
    const res = await t.request({ method: 'GET', url: '/readyz', key: null });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { store: 'ok' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('ignore keys (a bad one is not a 401) and are never rate limited or counted', async () => {
    for (let i = 0; i < 10; i++) {
      for (const url of ['/healthz', '/readyz']) {
        const res = await t.request({ method: 'GET', url, key: 'garbage' });
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
    }
    // Twenty bad-key health checks did not use up the address's failed-auth budget of 2...
    expect((await t.request({ method: 'GET', url: '/v1/test', key: 'garbage' })).statusCode).toBe(401);
    // ...and the admin key still has its whole budget of 2.
    const res = await t.request({ method: 'GET', url: '/v1/test' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('1');
  });

  it('HEAD works too, for load balancers that use it', async () => {
    const res = await t.request({ method: 'HEAD', url: '/healthz', key: null });
    expect(res.statusCode).toBe(200);
  });

  it('other methods are 405', async () => {
    const res = await t.request({ method: 'POST', url: '/readyz', key: null, body: {} });
    expect(res.statusCode).toBe(405);
  });
});

describe('readiness when a dependency is down', () => {
  it('a store that does not answer makes /readyz 503 naming it, while /healthz stays 200', async () => {
    const t = await buildTestApp();
    // A second app over its own connection to the same data, whose store is then closed.
    const config = t.config;
    const store = openStore({ dataDir: t.dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
    const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      await store.close();
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', detail: 'Not ready: store unavailable', checks: { store: 'unavailable' } });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('an unreachable Redis leaves the service ready but degraded, and the answer leaks nothing', async () => {
    const port = await closedPort();
    const t = await buildTestApp({ REDIS_URL: `redis://:s3cret-password@127.0.0.1:${port}` });
    try {
      const res = await t.request({ method: 'GET', url: '/readyz', key: null });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'degraded', checks: { store: 'ok', redis: 'unavailable' } });
      expect(res.body).not.toContain('s3cret');
      expect(res.body).not.toContain(String(port));
    } finally {
      await t.close();
    }
  });
});

describe('readiness when the store cannot write', () => {
  const newTicket = { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Full', description: 'x'.repeat(100_000) };
  // A 5xx body names the request, to quote when reporting it.
  const UNAVAILABLE = { detail: 'The data store is temporarily unavailable; retry shortly', request_id: expect.any(String) as string };

  async function readyWithin(t: TestApp, ms: number): Promise<number> {
    const started = Date.now();
    while ((await t.request({ method: 'GET', url: '/readyz', key: null })).statusCode !== 200) {
      if (Date.now() - started > ms) throw new Error(`not ready again within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return Date.now() - started;
  }

  it.runIf(TEST_STORE === 'sqlite')('SQLite full (SQLITE_FULL) or read-only: writes are 503, /readyz fails, and recovers by itself once writes work', async () => {
    const t = await buildTestApp();
    try {
      // SQLite's own limit on the file's size: the very error a full disk gives ("database or disk is full").
      const pages = (await sql<{ page_count: number }>`pragma page_count`.execute(t.store.db)).rows[0]!.page_count;
      await sql.raw(`pragma max_page_count = ${pages}`).execute(t.store.db);
      const full = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket });
      expect(full.statusCode).toBe(503);
      expect(full.headers['retry-after']).toBe('2');
      expect(full.json()).toEqual(UNAVAILABLE);
      // Reads still work, but the process is not ready: most of the API writes.
      expect((await t.request({ method: 'GET', url: '/v1/tickets' })).statusCode).toBe(200);
      const notReady = await t.request({ method: 'GET', url: '/readyz', key: null });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toEqual({ status: 'unavailable', detail: 'Not ready: store unavailable (failing writes)', checks: { store: 'unavailable' } });

      await sql.raw('pragma max_page_count = 1073741823').execute(t.store.db);
      const waited = await readyWithin(t, WRITE_FAILURE_MEMORY_MS + 5_000);
      expect(waited).toBeGreaterThan(0);
      expect((await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket })).statusCode).toBe(201);

      // Read-only (a file system remounted read-only after I/O errors looks the same to SQLite).
      await sql.raw('pragma query_only = on').execute(t.store.db);
      const readOnly = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket });
      expect(readOnly.statusCode).toBe(503);
      expect((await t.request({ method: 'GET', url: '/readyz', key: null })).statusCode).toBe(503);
      await sql.raw('pragma query_only = off').execute(t.store.db);
      await readyWithin(t, WRITE_FAILURE_MEMORY_MS + 5_000);
    } finally {
      await t.close();
    }
  }, 60_000);

  it.runIf(TEST_STORE === 'postgres')('a PostgreSQL that fails over to a read-only server: /readyz fails at once and recovers when writes work again', async () => {
    const t = await buildTestApp();
    const admin = new pg.Client({ connectionString: t.config.databaseUrl });
    await admin.connect();
    const dropConnections = () =>
      admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    try {
      const database = (await admin.query<{ db: string }>('select current_database() as db')).rows[0]!.db;
      // What the service sees after a failover onto a standby: its connections drop, new ones are read-only.
      await admin.query(`alter database "${database}" set default_transaction_read_only = on`);
      await dropConnections();
      const write = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket });
      expect(write.statusCode).toBe(503);
      expect(write.json()).toEqual(UNAVAILABLE);
      const notReady = await t.request({ method: 'GET', url: '/readyz', key: null });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({ detail: 'Not ready: store unavailable (read-only)' });
      expect((await t.request({ method: 'GET', url: '/healthz', key: null })).statusCode).toBe(200);

      // Back to a writable primary: no restart needed; the read-only connections were discarded.
      await admin.query(`alter database "${database}" reset default_transaction_read_only`);
      await readyWithin(t, WRITE_FAILURE_MEMORY_MS + 5_000);
      expect((await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket })).statusCode).toBe(201);
    } finally {
      await admin.end();
      await t.close();
    }
  }, 60_000);

  it('a data directory with less free space than DATA_DIR_MIN_FREE_MB is not ready (SQLite file, disk attachments)', async () => {
    const full = await buildTestApp({ STORAGE_BACKEND: 'disk', DATA_DIR_MIN_FREE_MB: String(1024 * 1024 * 1024) });
    const off = await buildTestApp({ STORAGE_BACKEND: 'disk', DATA_DIR_MIN_FREE_MB: '0' });
    try {
      const res = await full.request({ method: 'GET', url: '/readyz', key: null });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable', detail: 'Not ready: store unavailable (out of space)', checks: { store: 'unavailable' } });
      expect((await off.request({ method: 'GET', url: '/readyz', key: null })).statusCode).toBe(200);
    } finally {
      await full.close();
      await off.close();
    }
  });
});
