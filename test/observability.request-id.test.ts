import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedPeer } from '../src/observability/request-id.js';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor, type Child } from './helpers/processes.js';
import { buildTestApp, TEST_STORE, testPostgresDatabase, type TestApp } from './helpers/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('X-Request-Id', () => {
  let direct: TestApp;
  let proxied: TestApp;

  beforeAll(async () => {
    direct = await buildTestApp({ CORS_ORIGINS: 'https://app.example.com' });
    proxied = await buildTestApp({ TRUST_PROXY: 'true' });
  });

  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  it('every answer carries a new id, different for each request: successes, errors, unknown addresses', async () => {
    const seen = new Set<string>();
    for (const res of [
      await direct.request({ method: 'GET', url: '/v1/tickets' }),
      await direct.request({ method: 'GET', url: '/v1/tickets', key: null }),
      await direct.request({ method: 'GET', url: '/no/such/address' }),
      await direct.request({ method: 'DELETE', url: '/healthz' }),
      // A bad percent-encoding fails before routing (frameworkErrors).
      await direct.request({ method: 'GET', url: '/v1/tickets/%E0%A4%A' }),
      await direct.request({ method: 'GET', url: '/healthz' }),
    ]) {
      const id = String(res.headers['x-request-id']);
      expect(id, `${res.statusCode} ${res.body}`).toMatch(UUID);
      seen.add(id);
    }
    expect(seen.size).toBe(6);
  });

  it('without TRUST_PROXY a client cannot choose the id', async () => {
    const res = await direct.request({ method: 'GET', url: '/v1/tickets', headers: { 'x-request-id': 'chosen-by-client' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it("behind a trusted proxy the proxy's id is kept, when it is safe", async () => {
    const given = await proxied.request({ method: 'GET', url: '/v1/tickets', headers: { 'x-request-id': 'lb-7f3a.42:edge/1' } });
    expect(given.headers['x-request-id']).toBe('lb-7f3a.42:edge/1');
    for (const unsafe of ['has space', 'x'.repeat(129), 'quote"d', 'new\u00e9line', '']) {
      const res = await proxied.request({ method: 'GET', url: '/v1/tickets', headers: { 'x-request-id': unsafe } });
      expect(res.headers['x-request-id'], unsafe).toMatch(UUID);
    }
    expect((await proxied.request({ method: 'GET', url: '/v1/tickets' })).headers['x-request-id']).toMatch(UUID);
  });

  it('with a list of proxies, only requests from one of them choose the id', async () => {
    // app.inject's peer is 127.0.0.1.
    for (const [trustProxy, kept] of [
      ['10.0.0.0/8', false],
      ['192.168.1.10, 10.1.2.3', false],
      ['127.0.0.1', true],
      ['10.0.0.0/8,127.0.0.0/8', true],
      ['loopback', true],
    ] as const) {
      const app = await buildTestApp({ TRUST_PROXY: trustProxy });
      try {
        const res = await app.request({ method: 'GET', url: '/v1/tickets', headers: { 'x-request-id': 'proxy-id-1' } });
        if (kept) expect(res.headers['x-request-id'], trustProxy).toBe('proxy-id-1');
        else expect(res.headers['x-request-id'], trustProxy).toMatch(UUID);
      } finally {
        await app.close();
      }
    }
    expect(trustedPeer('::1')('::1')).toBe(true);
    expect(trustedPeer('10.0.0.0/8')('::ffff:10.9.8.7')).toBe(true);
    expect(trustedPeer('10.0.0.0/8')('11.0.0.1')).toBe(false);
    expect(trustedPeer('uniquelocal')('192.168.0.2')).toBe(true);
    expect(trustedPeer(false)('127.0.0.1')).toBe(false);
  });

  it('a 5xx body names the request id, beside its detail; other errors do not', async () => {
    const broken = await buildTestApp({ TRUST_PROXY: 'true' });
    try {
      await sql`ALTER TABLE tickets RENAME TO tickets_gone`.execute(broken.store.db);
      const res = await broken.request({ method: 'GET', url: '/v1/tickets', headers: { 'x-request-id': 'req-500-check' } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toStrictEqual({ detail: 'Internal server error', request_id: 'req-500-check' });
      expect(res.headers['x-request-id']).toBe('req-500-check');
      const missing = await broken.request({ method: 'GET', url: '/no/such/address' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).not.toHaveProperty('request_id');
    } finally {
      await broken.close();
    }
  });

  it('browsers on allowed origins may read it (CORS exposed headers)', async () => {
    const res = await direct.request({ method: 'GET', url: '/v1/tickets', headers: { origin: 'https://app.example.com' } });
    const exposed = String(res.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/);
    expect(exposed).toContain('x-request-id');
  });
});

/** The request log of a real `ticketing serve` at LOG_LEVEL=info: JSON lines on standard output. */
describe('request ids and health checks in the request log', () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let child: Child;
  let base: string;
  let key: string;

  beforeAll(async () => {
    buildCli();
    database = TEST_STORE === 'postgres' ? await testPostgresDatabase() : undefined;
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-reqid-'));
    const storeEnv: Record<string, string> = database ? { DATABASE_URL: database.url, SIGNING_SECRET: randomBytes(36).toString('base64url') } : {};
    child = spawnServe({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', TRUST_PROXY: 'true', ...storeEnv });
    key = (await waitFor(child.proc.stdout!, /Admin API key \(shown once\): (key_admin_\w+)/, child.out))[1]!;
    base = await listening(child);
  }, 200_000);

  afterAll(async () => {
    child?.proc.kill('SIGTERM');
    await child?.exited;
    rmSync(dataDir, { recursive: true, force: true });
    database?.drop();
  });

  const lines = () =>
    child.out.text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { reqId?: string; msg?: string; req?: { url?: string }; level: number });

  it('every line of a request carries its id; /healthz and /readyz leave no line at info', async () => {
    for (const path of ['/healthz', '/readyz', '/healthz?probe=1', '/readyz/']) {
      expect((await fetch(`${base}${path}`)).status, path).toBeLessThan(500);
    }
    const res = await fetch(`${base}/v1/tickets?limit=1`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'from-proxy-1234' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('from-proxy-1234');
    const generated = await fetch(`${base}/v1/tickets?limit=2`, { headers: { authorization: `Bearer ${key}` } });
    const generatedId = generated.headers.get('x-request-id')!;
    expect(generatedId).toMatch(UUID);

    await waitFor(child.proc.stdout!, new RegExp(`"reqId":"${generatedId}".*request completed`), child.out);
    const ofRequest = lines().filter((l) => l.reqId === 'from-proxy-1234');
    expect(ofRequest.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(ofRequest[0]?.req?.url).toBe('/v1/tickets?limit=1');
    expect(lines().filter((l) => l.reqId === generatedId)).toHaveLength(2);
    // The health checks came first: had they been logged, their lines would be here by now.
    const health = lines().filter((l) => /^\/(healthz|readyz)/.test(l.req?.url ?? ''));
    expect(health).toEqual([]);
    expect(lines().filter((l) => l.msg === 'incoming request')).toHaveLength(2);
  });
});
