import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

const APP = 'https://app.example.com';

describe('CORS off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('sends no CORS header, and a preflight is not answered as one', async () => {
    const res = await t.request({ method: 'GET', url: '/v1/tickets', headers: { origin: APP } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/v1/tickets',
      key: null,
      headers: { origin: APP, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(405);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS=a list of origins', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ CORS_ORIGINS: `${APP}, http://localhost:3000` });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a preflight with 204, the methods, the request headers a client sends, and a max age', async () => {
    const res = await t.request({
      method: 'OPTIONS',
      url: '/v1/tickets/5f0c6a43-3b1e-4c36-9c1e-4a4a0e3c2b11',
      key: null,
      headers: { origin: APP, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization,content-type,if-match' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'if-match', 'if-none-match']));
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers['ratelimit-limit']).toBeUndefined();
  });

  it('lets the browser read the answer and the headers it needs, on a success and on errors', async () => {
    const ok = await t.request({ method: 'GET', url: '/v1/tickets', headers: { origin: APP } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(String(ok.headers.vary)).toMatch(/origin/i);
    const exposed = String(ok.headers['access-control-expose-headers']).toLowerCase().split(/,\s*/);
    for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'link', 'etag', 'location']) {
      expect(exposed, header).toContain(header);
    }
    // A 401 is readable too: the CORS hook runs before authentication.
    const unauthorized = await t.request({ method: 'GET', url: '/v1/tickets', key: null, headers: { origin: 'http://localhost:3000' } });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const notFound = await t.request({ method: 'GET', url: '/v1/nothing-here', headers: { origin: APP } });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers['access-control-allow-origin']).toBe(APP);
  });

  it('an origin not in the list gets no CORS header, so the browser blocks it', async () => {
    const res = await t.request({ method: 'GET', url: '/v1/tickets', headers: { origin: 'https://evil.example.net' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/v1/tickets',
      key: null,
      headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a preflight from an origin not in the list gets no CORS header at all, not even the methods or headers', async () => {
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/v1/tickets/5f0c6a43-3b1e-4c36-9c1e-4a4a0e3c2b11',
      key: null,
      headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization' },
    });
    const cors = Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'));
    expect(cors).toEqual([]);
    expect(preflight.statusCode).toBe(405);
    // Without an Origin at all, nothing either.
    const bare = await t.request({ method: 'OPTIONS', url: '/v1/tickets', key: null, headers: { 'access-control-request-method': 'POST' } });
    expect(Object.keys(bare.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('keeps 404 for unknown addresses and 405 for a wrong method (the preflight route matches only OPTIONS)', async () => {
    expect((await t.request({ method: 'GET', url: '/nowhere' })).statusCode).toBe(404);
    const wrong = await t.request({ method: 'PUT', url: '/v1/tickets' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD, POST');
  });
});

describe('CORS_ORIGINS=*', () => {
  it('allows any origin', async () => {
    const t = await buildTestApp({ CORS_ORIGINS: '*' });
    try {
      const res = await t.request({ method: 'GET', url: '/v1/test', headers: { origin: 'https://anything.example.org' } });
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const preflight = await t.request({
        method: 'OPTIONS',
        url: '/v1/tickets',
        key: null,
        headers: { origin: 'https://anything.example.org', 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode).toBe(204);
    } finally {
      await t.close();
    }
  });
});

describe('CORS_ORIGINS is validated at start', () => {
  it.each(['app.example.com', 'https://app.example.com/path', 'ftp://files.example.com', 'https://a.example.com,nonsense'])(
    '%s is refused, naming the variable and the allowed form',
    (value) => {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS must be \* or a comma-separated list of origins such as https:\/\/app\.example\.com/);
    },
  );

  it('unset, *, or a list', () => {
    expect(loadConfig({}).corsOrigins).toBeNull();
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: 'https://A.example.com/, http://localhost:3000' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:3000',
    ]);
  });
});
