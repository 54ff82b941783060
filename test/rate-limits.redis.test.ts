import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { generateApiKey } from '../src/auth/key-format.js';
import type { Config } from '../src/config.js';
import { openSharedRedis } from '../src/limits/redis.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { multipartBody } from './helpers/attachments.js';
import { requireRedis, TEST_REDIS_URL } from './helpers/redis.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Rate limits shared through a real Redis (REDIS_URL, default redis://127.0.0.1:6379). Under
 * CI=true this suite must run: an unreachable Redis fails it. Elsewhere it is skipped, saying so.
 */
const REDIS_URL = TEST_REDIS_URL;
const redisTarget = new URL(REDIS_URL);
const reachable = await requireRedis('rate-limits.redis');

/** A TCP proxy in front of Redis that the test can cut and restore: an outage on demand. */
class RedisProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get connections(): number {
    return [...this.sockets].filter((s) => !s.destroyed).length / 2;
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(redisTarget.port || 6379), redisTarget.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Refuses new connections and drops the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const prefix = () => `ticketing-test:${randomUUID()}:`;

/** A second app instance over the first one's store: another process of the same installation. */
/**
 * The sharing tests check counts, not timeouts: a Redis slowed by a loaded machine (a CI runner
 * under other work) must not open the breaker and let them fail open. The fail-open tests below
 * keep the default timeout.
 */
const SHARED = { REDIS_URL, REDIS_COMMAND_TIMEOUT_MS: '10000' };

async function secondInstance(t: TestApp, overrides: Partial<Config> = {}): Promise<FastifyInstance> {
  const config: Config = { ...t.config, ...overrides };
  const app = await buildApp({ config, store: t.store, blobs: openBlobStore(config, t.store) });
  await app.ready();
  return app;
}

const get = (app: FastifyInstance, key: string, remoteAddress = '127.0.0.1'): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url: '/v1/test', remoteAddress, headers: { authorization: `Bearer ${key}` } });

describe.skipIf(!reachable)('rate limits shared through Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await redis.quit();
  });

  describe('two instances with one Redis and one prefix', () => {
    let t: TestApp;
    let other: FastifyInstance;
    let env: Record<string, string>;
    beforeAll(async () => {
      env = {
        ...SHARED,
        REDIS_PREFIX: prefix(),
        RATE_LIMIT_ADMIN_PER_MINUTE: '5',
        RATE_LIMIT_READONLY_PER_MINUTE: '3',
        RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '3',
      };
      t = await buildTestApp(env);
      other = await secondInstance(t);
    });
    afterAll(async () => {
      await other.close();
      await t.close();
    });

    it('share one budget per key: 3 requests on one and 3 on the other, the 6th is 429', async () => {
      const key = await t.org.key();
      const seen: Array<[number, unknown]> = [];
      for (const app of [t.app, t.app, t.app, other, other, other]) {
        const res = await get(app, key);
        seen.push([res.statusCode, res.headers['ratelimit-remaining']]);
      }
      expect(seen).toEqual([
        [200, '4'],
        [200, '3'],
        [200, '2'],
        [200, '1'],
        [200, '0'],
        [429, '0'],
      ]);
      const over = await get(t.app, key);
      expect(over.statusCode).toBe(429);
      expect(over.json<{ detail: string }>().detail).toMatch(/^Rate limit exceeded\. Retry after \d+ seconds\.$/);
      const retryAfter = Number(over.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    });

    it('read-only keys share their smaller budget the same way', async () => {
      const key = await t.org.key({ role: 'readonly' });
      const statuses = [];
      for (const app of [other, t.app, other, t.app]) statuses.push((await get(app, key)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
    });

    it('the counter is one Redis key under the prefix, expiring with the one-minute window', async () => {
      const key = await t.org.key();
      await get(t.app, key);
      await get(other, key);
      const [row] = await t.store.db.selectFrom('api_keys').select('id').orderBy('created_at', 'desc').orderBy('id').limit(1).execute();
      const counter = `${env.REDIS_PREFIX}ratelimit:key:${row!.id}`;
      expect(await redis.get(counter)).toBe('2');
      const ttl = await redis.pttl(counter);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });

    it('concurrent requests through both instances never exceed the budget (the increment is atomic)', async () => {
      const key = await t.org.key();
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => get(i % 2 === 0 ? t.app : other, key)));
      const statuses = results.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    });

    it('failed authentications of one address are counted across instances', async () => {
      const address = '203.0.113.50';
      const bad = generateApiKey('admin').key;
      expect((await get(t.app, bad, address)).statusCode).toBe(401);
      expect((await get(other, bad, address)).statusCode).toBe(401);
      expect((await get(t.app, bad, address)).statusCode).toBe(401);
      expect((await get(other, bad, address)).statusCode).toBe(429);
      expect((await get(t.app, bad, '203.0.113.51')).statusCode).toBe(401);
    });

    it('/readyz reports Redis as ok', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'ok' } });
    });
  });

  it('the upload rate of a key is one budget across instances', async () => {
    const t = await buildTestApp({ ...SHARED, REDIS_PREFIX: prefix(), RATE_LIMIT_UPLOADS_PER_MINUTE: '3' });
    const other = await secondInstance(t);
    try {
      const ticket = await t.request({
        method: 'POST',
        url: '/v1/tickets',
        body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Files', description: 'Uploads' },
      });
      const ticketId = ticket.json<{ id: string }>().id;
      const { payload, contentType } = multipartBody([{ name: 'file', filename: 'a.txt', type: 'text/plain', data: 'a' }]);
      const statuses = [];
      for (const app of [t.app, other, t.app, other]) {
        const res = await app.inject({
          method: 'POST',
          url: `/v1/tickets/${ticketId}/attachments`,
          headers: { authorization: `Bearer ${t.org.adminKey}`, 'content-type': contentType },
          payload,
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await other.close();
      await t.close();
    }
  });

  it('another prefix is another keyspace: installations sharing one Redis do not share budgets', async () => {
    const base = { ...SHARED, RATE_LIMIT_ADMIN_PER_MINUTE: '2' };
    const t = await buildTestApp({ ...base, REDIS_PREFIX: prefix() });
    const other = await secondInstance(t, { redisPrefix: prefix() });
    try {
      expect((await get(t.app, t.org.adminKey)).statusCode).toBe(200);
      expect((await get(t.app, t.org.adminKey)).statusCode).toBe(200);
      expect((await get(t.app, t.org.adminKey)).statusCode).toBe(429);
      const res = await get(other, t.org.adminKey);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe('1');
    } finally {
      await other.close();
      await t.close();
    }
  });

  it('an unreachable Redis keeps every request served (fail open): no 500, no waiting', async () => {
    const t = await buildTestApp({
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      REDIS_PREFIX: prefix(),
      RATE_LIMIT_ADMIN_PER_MINUTE: '2',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1',
    });
    try {
      const started = Date.now();
      const statuses = [];
      for (let i = 0; i < 10; i++) statuses.push((await t.request({ method: 'GET', url: '/v1/tickets' })).statusCode);
      const created = await t.request({
        method: 'POST',
        url: '/v1/tickets',
        body: { customer_name: 'A', customer_email: 'a@example.com', subject: 's', description: 'd' },
      });
      statuses.push(created.statusCode);
      // Failed authentication still answers 401 (not 429, not 500).
      for (let i = 0; i < 3; i++) statuses.push((await t.request({ method: 'GET', url: '/v1/test', key: 'bad' })).statusCode);
      expect(statuses).toEqual([...Array<number>(10).fill(200), 201, 401, 401, 401]);
      // Uncounted requests say so: the whole budget remains, no window is running.
      const headers = (await t.request({ method: 'GET', url: '/v1/test' })).headers;
      expect([headers['ratelimit-limit'], headers['ratelimit-remaining'], headers['ratelimit-reset']]).toEqual(['2', '2', '0']);
      expect(Date.now() - started).toBeLessThan(5_000);
      const ready = await t.request({ method: 'GET', url: '/readyz', key: null });
      expect(ready.json()).toEqual({ status: 'degraded', checks: { store: 'ok', redis: 'unavailable' } });
    } finally {
      await t.close();
    }
  });

  it('Redis going away mid-traffic fails open; when it comes back the shared limits apply again', async () => {
    const proxy = new RedisProxy();
    await proxy.start();
    const t = await buildTestApp({ REDIS_URL: proxy.url, REDIS_PREFIX: prefix(), RATE_LIMIT_ADMIN_PER_MINUTE: '3' });
    try {
      const key = await t.org.key();
      expect((await get(t.app, key)).headers['ratelimit-remaining']).toBe('2');

      await proxy.cut();
      const during = [];
      for (let i = 0; i < 6; i++) during.push((await get(t.app, key)).statusCode);
      expect(during).toEqual([200, 200, 200, 200, 200, 200]);

      await proxy.start();
      await waitFor(async () => (await t.app.inject({ method: 'GET', url: '/readyz' })).json<{ status: string }>().status === 'ready');
      // The count made before the outage is still there: 1 + 2 more reach the limit.
      const after = [];
      for (let i = 0; i < 3; i++) after.push((await get(t.app, key)).statusCode);
      expect(after).toEqual([200, 200, 429]);
    } finally {
      await t.close();
      await proxy.cut();
    }
  }, 30_000);

  it('a Redis that is down at start does not stop the service; limits are shared once it comes up', async () => {
    const proxy = new RedisProxy();
    proxy.port = await closedPort();
    const t = await buildTestApp({ REDIS_URL: proxy.url, REDIS_PREFIX: prefix(), RATE_LIMIT_ADMIN_PER_MINUTE: '2' });
    try {
      const key = await t.org.key();
      for (let i = 0; i < 4; i++) expect((await get(t.app, key)).statusCode).toBe(200);
      await proxy.start();
      await waitFor(async () => (await t.app.inject({ method: 'GET', url: '/readyz' })).json<{ status: string }>().status === 'ready');
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(t.app, key)).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await t.close();
      await proxy.cut();
    }
  }, 30_000);

  it('closing the app closes its Redis connection', async () => {
    const proxy = new RedisProxy();
    await proxy.start();
    const t = await buildTestApp({ REDIS_URL: proxy.url, REDIS_PREFIX: prefix() });
    try {
      expect((await t.request({ method: 'GET', url: '/v1/test' })).statusCode).toBe(200);
      // The shared limits' connection, and the live presence's publisher and subscriber once they start.
      expect(proxy.connections).toBeGreaterThanOrEqual(1);
      await t.app.close();
      await waitFor(async () => proxy.connections === 0, 5_000);
    } finally {
      await t.close();
      await proxy.cut();
    }
  });

  it('an outage is logged once when it starts and once when it ends, without the credentials', async () => {
    const lines: Array<{ obj: unknown; msg: string }> = [];
    const log = {
      warn: (obj: unknown, msg?: string) => lines.push(typeof obj === 'string' ? { obj: null, msg: obj } : { obj, msg: msg ?? '' }),
    } as unknown as FastifyBaseLogger;
    const proxy = new RedisProxy();
    await proxy.start();
    try {
      const healthy = openSharedRedis(proxy.url, prefix(), log);
      expect(await healthy.hit('k', 60_000)).toMatchObject({ current: 1 });
      await proxy.cut();
      const failures = await Promise.allSettled(Array.from({ length: 20 }, () => healthy.hit('k', 60_000)));
      expect(failures.every((f) => f.status === 'rejected')).toBe(true);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.msg).toMatch(/Redis .*rate limits are not enforced/);
      await proxy.start();
      await waitFor(async () => healthy.ping());
      expect(lines.at(-1)!.msg).toMatch(/reachable again/);
      await healthy.close();

      // Credentials in the address never reach a log line.
      const port = await closedPort();
      const secretLines: typeof lines = [];
      const secretLog = { warn: (obj: unknown, msg?: string) => secretLines.push({ obj, msg: msg ?? '' }) } as unknown as FastifyBaseLogger;
      const withSecret = openSharedRedis(`redis://user:hunter2-secret@127.0.0.1:${port}`, prefix(), secretLog);
      await expect(withSecret.hit('k', 60_000)).rejects.toThrow();
      await withSecret.close();
      expect(secretLines.length).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(secretLines)).not.toContain('hunter2');
    } finally {
      await proxy.cut();
    }
  }, 30_000);
});
