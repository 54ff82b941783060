import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { openStore } from '../../db/store.js';
import { openBlobStore } from '../../storage/open-blob-store.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

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
