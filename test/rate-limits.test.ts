import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/auth/key-format.js';
import { loadConfig } from '../src/config.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

const RATE_LIMITED = /^Rate limit exceeded\. Retry after (\d+) seconds\.$/;

function rateHeaders(res: LightMyRequestResponse) {
  return {
    limit: res.headers['ratelimit-limit'],
    remaining: res.headers['ratelimit-remaining'],
    reset: res.headers['ratelimit-reset'],
  };
}

/** Asserts a 429 with the detail and a Retry-After equal to the seconds the detail names. */
function expectRateLimited(res: LightMyRequestResponse): number {
  expect(res.statusCode).toBe(429);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json<{ detail: string }>();
  expect(Object.keys(body)).toEqual(['detail']);
  const match = RATE_LIMITED.exec(body.detail);
  expect(match, body.detail).not.toBeNull();
  const seconds = Number(match![1]);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(60);
  expect(res.headers['retry-after']).toBe(String(seconds));
  return seconds;
}

describe('defaults', () => {
  it('are 2000 per minute for admin keys and 200 for read-only keys', () => {
    const { rateLimit } = loadConfig({});
    expect(rateLimit.adminPerMinute).toBe(2000);
    expect(rateLimit.readonlyPerMinute).toBe(200);
    expect(rateLimit.windowMs).toBe(60_000);
  });

  it('are what an untuned app announces', async () => {
    const t = await buildTestApp();
    try {
      const admin = await t.request({ method: 'GET', url: '/v1/test' });
      expect(rateHeaders(admin)).toMatchObject({ limit: '2000', remaining: '1999' });
      const ro = await t.request({ method: 'GET', url: '/v1/test', key: await t.org.key({ role: 'readonly' }) });
      expect(rateHeaders(ro)).toMatchObject({ limit: '200', remaining: '199' });
    } finally {
      await t.close();
    }
  });
});

describe('per-key limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      RATE_LIMIT_ADMIN_PER_MINUTE: '5',
      RATE_LIMIT_READONLY_PER_MINUTE: '3',
      RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('every authenticated response carries RateLimit-Limit, -Remaining and -Reset: 200, 403, 404 and 422 too', async () => {
    const key = await t.org.key({ scopes: ['tickets:read'] });
    const ok = await t.request({ method: 'GET', url: '/v1/tickets', key });
    const forbidden = await t.request({ method: 'DELETE', url: `/v1/tickets/${randomUUID()}`, key });
    const missing = await t.request({ method: 'GET', url: `/v1/tickets/${randomUUID()}`, key });
    const invalid = await t.request({ method: 'GET', url: '/v1/tickets?limit=0', key });
    expect([ok.statusCode, forbidden.statusCode, missing.statusCode, invalid.statusCode]).toEqual([200, 403, 404, 422]);
    const seen = [ok, forbidden, missing, invalid].map(rateHeaders);
    seen.forEach((h, i) => {
      expect(h.limit).toBe('5');
      expect(h.remaining).toBe(String(4 - i));
      expect(Number(h.reset)).toBeGreaterThanOrEqual(1);
      expect(Number(h.reset)).toBeLessThanOrEqual(60);
    });
  });

  it('the request over the limit gets 429 with Retry-After; a key has one budget across all routes', async () => {
    const key = await t.org.key();
    const statuses: number[] = [];
    // Five requests on different routes share the admin budget of 5.
    for (const url of ['/v1/test', '/v1/tickets', '/v1/test', `/v1/tickets/${randomUUID()}`, '/v1/tickets']) {
      statuses.push((await t.request({ method: 'GET', url, key })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 404, 200]);
    const over = await t.request({ method: 'GET', url: '/v1/test', key });
    expectRateLimited(over);
    expect(rateHeaders(over)).toMatchObject({ limit: '5', remaining: '0' });
    // Every route, write routes included, refuses the key now.
    const post = await t.request({
      method: 'POST',
      url: '/v1/tickets',
      key,
      body: { customer_name: 'A', customer_email: 'a@example.com', subject: 's', description: 'd' },
    });
    expectRateLimited(post);
    const count = await t.store.db.selectFrom('tickets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('admin and read-only keys have different budgets', async () => {
    const admin = await t.org.key();
    const ro = await t.org.key({ role: 'readonly' });
    const adminStatuses: number[] = [];
    const roStatuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      adminStatuses.push((await t.request({ method: 'GET', url: '/v1/tickets', key: admin })).statusCode);
      roStatuses.push((await t.request({ method: 'GET', url: '/v1/tickets', key: ro })).statusCode);
    }
    expect(adminStatuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(roStatuses).toEqual([200, 200, 200, 429, 429, 429]);
    const roHeaders = rateHeaders(await t.request({ method: 'GET', url: '/v1/test', key: ro }));
    expect(roHeaders.limit).toBe('3');
  });

  it('two keys have separate budgets, even in the same organization', async () => {
    const first = await t.org.key({ role: 'readonly' });
    const second = await t.org.key({ role: 'readonly' });
    for (let i = 0; i < 3; i++) expect((await t.request({ method: 'GET', url: '/v1/test', key: first })).statusCode).toBe(200);
    expectRateLimited(await t.request({ method: 'GET', url: '/v1/test', key: first }));
    const other = await t.request({ method: 'GET', url: '/v1/test', key: second });
    expect(other.statusCode).toBe(200);
    expect(rateHeaders(other)).toMatchObject({ limit: '3', remaining: '2' });
  });

  it('a key of another organization is not affected by a limited key', async () => {
    const org = await t.newOrg('Other');
    const limited = await org.key({ role: 'readonly' });
    for (let i = 0; i < 4; i++) await t.request({ method: 'GET', url: '/v1/test', key: limited });
    expectRateLimited(await t.request({ method: 'GET', url: '/v1/test', key: limited }));
    const fresh = await t.request({ method: 'GET', url: '/v1/test', key: org.adminKey });
    expect(fresh.statusCode).toBe(200);
    expect(rateHeaders(fresh).remaining).toBe('4');
  });

  it('unauthenticated routes (unknown addresses) are not counted against anyone', async () => {
    const key = await t.org.key();
    for (let i = 0; i < 10; i++) {
      const res = await t.request({ method: 'GET', url: '/v1/nothing-here', key });
      expect(res.statusCode).toBe(404);
    }
    const res = await t.request({ method: 'GET', url: '/v1/test', key });
    expect(rateHeaders(res)).toMatchObject({ limit: '5', remaining: '4' });
  });
});

describe('failed authentication is limited per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '3', RATE_LIMIT_ADMIN_PER_MINUTE: '10' });
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (remoteAddress: string, authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/v1/tickets', remoteAddress, headers: authorization ? { authorization } : {} });

  it('after N bad-key requests the next one gets 429 instead of 401', async () => {
    const address = '203.0.113.7';
    const statuses: number[] = [];
    statuses.push((await inject(address, `Bearer ${generateApiKey('admin').key}`)).statusCode);
    statuses.push((await inject(address, 'Bearer garbage')).statusCode);
    statuses.push((await inject(address)).statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    const over = await inject(address, `Bearer ${generateApiKey('admin').key}`);
    expectRateLimited(over);
    // Even a guess that would have been a 401 for a missing header stays limited.
    expectRateLimited(await inject(address));
  });

  it('another address is not limited by the failing one', async () => {
    const res = await inject('198.51.100.9', 'Bearer garbage');
    expect(res.statusCode).toBe(401);
  });

  it('a failing address does not eat a valid key budget, and the valid key still works from it', async () => {
    const address = '203.0.113.8';
    for (let i = 0; i < 3; i++) expect((await inject(address, 'Bearer nope')).statusCode).toBe(401);
    expect((await inject(address, 'Bearer nope')).statusCode).toBe(429);

    const ok = await inject(address, `Bearer ${t.org.adminKey}`);
    expect(ok.statusCode).toBe(200);
    expect(rateHeaders(ok)).toMatchObject({ limit: '10', remaining: '9' });
    const again = await inject('192.0.2.1', `Bearer ${t.org.adminKey}`);
    expect(rateHeaders(again)).toMatchObject({ limit: '10', remaining: '8' });
  });
});

describe('behind a reverse proxy', () => {
  const inject = (t: TestApp, forwardedFor: string) =>
    t.app.inject({ method: 'GET', url: '/v1/test', remoteAddress: '10.0.0.2', headers: { authorization: 'Bearer nope', 'x-forwarded-for': forwardedFor } });

  it('with TRUST_PROXY the failed-auth limit is per client address from X-Forwarded-For', async () => {
    const t = await buildTestApp({ RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8' });
    try {
      const first = [];
      for (let i = 0; i < 3; i++) first.push((await inject(t, '198.51.100.1')).statusCode);
      expect(first).toEqual([401, 401, 429]);
      // Another client behind the same proxy is not limited by the first one.
      expect((await inject(t, '198.51.100.2')).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored, so it cannot be forged to dodge the limit', async () => {
    const t = await buildTestApp({ RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '2' });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await inject(t, `198.51.100.${i + 10}`)).statusCode);
      expect(statuses).toEqual([401, 401, 429]);
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY accepts true, false or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toBe('127.0.0.1,10.0.0.0/8');
  });
});

describe('Redis configuration', () => {
  it('REDIS_URL must be a redis:// or rediss:// address; keys are prefixed with REDIS_PREFIX (default "ticketing:")', () => {
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL/);
    expect(loadConfig({ REDIS_URL: 'rediss://cache.internal:6380/2' }).redisUrl).toBe('rediss://cache.internal:6380/2');
    expect(loadConfig({}).redisPrefix).toBe('ticketing:');
    expect(loadConfig({ REDIS_PREFIX: 'acme:' }).redisPrefix).toBe('acme:');
  });
});
