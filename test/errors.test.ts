import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const newTicket = (overrides: Record<string, unknown> = {}) => ({
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  subject: 'Printer on fire',
  description: 'It is literally on fire',
  ...overrides,
});

interface ErrorBody {
  detail: string;
  errors?: { field: string; message: string }[];
}

/** Every error is JSON with a string detail (docs/api-behaviour.md#requests-and-errors); returns it. */
function expectErrorBody(res: LightMyRequestResponse, status: number): ErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json<ErrorBody>();
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  return body;
}

/** A 422 naming exactly one field, with the documented shape. */
function expectFieldError(res: LightMyRequestResponse, field: string): ErrorBody {
  const body = expectErrorBody(res, 422);
  expect(Object.keys(body).sort()).toEqual(['detail', 'errors']);
  expect(body.errors).toEqual([{ field, message: expect.any(String) as string }]);
  expect(body.errors![0]!.message.length).toBeGreaterThan(0);
  expect(body.detail).toContain(field);
  return body;
}

describe('body errors', () => {
  it('malformed JSON is 400 with a detail', async () => {
    for (const payload of ['{"subject": ', '{subject: "x"}', 'not json at all']) {
      const body = expectErrorBody(await t.request({ method: 'POST', url: '/v1/tickets', body: payload }), 400);
      expect(body).toEqual({ detail: expect.stringMatching(/JSON/) as string });
    }
  });

  it('a JSON body larger than 1 MiB is 413', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ description: 'x'.repeat(1_048_577) }) });
    const body = expectErrorBody(res, 413);
    expect(body.detail).toMatch(/1048576/);
    const count = await t.store.db.selectFrom('tickets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('a JSON body just under 1 MiB is accepted by the parser (and judged by the schema)', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ description: 'x'.repeat(100_000) }) });
    expect(res.statusCode).toBe(201);
  });

  it.each([
    ['POST', '/v1/tickets'],
    ['PATCH', `/v1/tickets/${randomUUID()}`],
  ] as const)('%s with text/plain or no Content-Type is 415', async (method, url) => {
    const textPlain = await t.request({ method, url, body: JSON.stringify(newTicket()), headers: { 'content-type': 'text/plain' } });
    expect(expectErrorBody(textPlain, 415)).toEqual({ detail: 'Content-Type must be application/json' });

    const none = await t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${t.org.adminKey}` },
      payload: JSON.stringify(newTicket()),
    });
    // light-my-request adds no content-type for a string payload
    expect(none.statusCode).toBe(415);
    expect(none.json()).toEqual({ detail: 'Content-Type must be application/json' });

    const empty = await t.app.inject({ method, url, headers: { authorization: `Bearer ${t.org.adminKey}` } });
    expect(expectErrorBody(empty, 415)).toEqual({ detail: 'Content-Type must be application/json' });

    const form = await t.request({ method, url, body: 'subject=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(expectErrorBody(form, 415)).toEqual({ detail: 'Content-Type must be application/json' });
  });

  it('application/json with a charset is accepted', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/tickets',
      body: newTicket(),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('routes', () => {
  it('an unknown route is 404 with a detail', async () => {
    for (const url of ['/v1/nothing', '/v2/tickets', '/v1', '/v1/tickets/a/b/c']) {
      const body = expectErrorBody(await t.request({ method: 'GET', url }), 404);
      expect(Object.keys(body)).toEqual(['detail']);
    }
    // Without a key too: an unknown route is not a protected one.
    expectErrorBody(await t.request({ method: 'GET', url: '/v1/nothing', key: null }), 404);
  });

  it('a known path asked with another method is 405 with an Allow header', async () => {
    const res = await t.request({ method: 'PUT', url: '/v1/tickets', body: newTicket() });
    const body = expectErrorBody(res, 405);
    const allow = String(res.headers.allow).split(/,\s*/).sort();
    expect(allow).toEqual(['GET', 'HEAD', 'POST']);
    expect(body.detail).toContain('PUT');

    const one = await t.request({ method: 'PUT', url: `/v1/tickets/${randomUUID()}`, body: {} });
    expectErrorBody(one, 405);
    expect(String(one.headers.allow).split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);

    const test = await t.request({ method: 'POST', url: '/v1/test', body: {} });
    expectErrorBody(test, 405);
    expect(String(test.headers.allow).split(/,\s*/).sort()).toEqual(['GET', 'HEAD']);
  });

  it('a badly percent-encoded address is 400 with the usual error shape', async () => {
    for (const url of ['/v1/tickets/%ZZ', '/v1/nothing/%E0%A4%A']) {
      const res = await t.request({ method: 'GET', url });
      const body = expectErrorBody(res, 400);
      expect(Object.keys(body)).toEqual(['detail']);
    }
  });

  it('a known path with a query string or trailing slash and another method is still 405', async () => {
    const res = await t.request({ method: 'DELETE', url: '/v1/tickets?limit=5' });
    expectErrorBody(res, 405);
    expect(String(res.headers.allow)).toContain('POST');
    const slash = await t.request({ method: 'DELETE', url: '/v1/tickets/' });
    expectErrorBody(slash, 405);
  });
});

describe('422 validation errors', () => {
  it('an enum value outside its set names body.priority', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ priority: 'extreme' }) });
    const body = expectFieldError(res, 'body.priority');
    expect(body.errors![0]!.message).toContain('urgent');
  });

  it('a missing required field names body.subject', async () => {
    const rest: Record<string, unknown> = newTicket();
    delete rest.subject;
    expectFieldError(await t.request({ method: 'POST', url: '/v1/tickets', body: rest }), 'body.subject');
  });

  it('an unknown field names body.bogus', async () => {
    expectFieldError(await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ bogus: 1 }) }), 'body.bogus');
  });

  it('a wrong type names the field', async () => {
    expectFieldError(await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ subject: 42 }) }), 'body.subject');
    expectFieldError(
      await t.request({ method: 'PATCH', url: `/v1/tickets/${randomUUID()}`, body: { priority: ['high'] } }),
      'body.priority',
    );
  });

  it('a body that is not an object is 422', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: '[1,2]' });
    expectErrorBody(res, 422);
    expect(res.json<ErrorBody>().errors?.length).toBeGreaterThan(0);
  });

  it('several problems are all listed, the detail summarising them', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: { priority: 'extreme', bogus: true } });
    const body = expectErrorBody(res, 422);
    const fields = body.errors!.map((e) => e.field).sort();
    expect(fields).toEqual(['body.bogus', 'body.customer_email', 'body.customer_name', 'body.description', 'body.priority', 'body.subject']);
    expect(body.detail).toMatch(/more/);
  });

  it('a malformed UUID in the path names path.ticket_id', async () => {
    const body = expectFieldError(await t.request({ method: 'GET', url: '/v1/tickets/12345' }), 'path.ticket_id');
    expect(body.errors![0]!.message).toMatch(/UUID/);
  });

  it.each(['501', '0', '-1', 'ten'])('limit=%s names query.limit', async (limit) => {
    expectFieldError(await t.request({ method: 'GET', url: `/v1/tickets?limit=${limit}` }), 'query.limit');
  });

  it('limit=500 and limit=1 are fine', async () => {
    expect((await t.request({ method: 'GET', url: '/v1/tickets?limit=500' })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/tickets?limit=1' })).statusCode).toBe(200);
  });

  it('a bad enum in the query names query.status', async () => {
    expectFieldError(await t.request({ method: 'GET', url: '/v1/tickets?status=sleeping' }), 'query.status');
  });
});

describe('every error is JSON with a string detail', () => {
  it('holds for 400, 401, 403, 404, 405, 413, 415 and 422', async () => {
    const ro = await t.org.key({ role: 'readonly' });
    const cases: [LightMyRequestResponse, number][] = [
      [await t.request({ method: 'POST', url: '/v1/tickets', body: '{' }), 400],
      [await t.request({ method: 'GET', url: '/v1/tickets', key: null }), 401],
      [await t.request({ method: 'DELETE', url: `/v1/tickets/${randomUUID()}`, key: ro }), 403],
      [await t.request({ method: 'GET', url: `/v1/tickets/${randomUUID()}` }), 404],
      [await t.request({ method: 'GET', url: '/v1/nope' }), 404],
      [await t.request({ method: 'PUT', url: '/v1/tickets', body: {} }), 405],
      [await t.request({ method: 'POST', url: '/v1/tickets', body: 'x'.repeat(1_100_000) }), 413],
      [await t.request({ method: 'POST', url: '/v1/tickets', body: 'x', headers: { 'content-type': 'text/plain' } }), 415],
      [await t.request({ method: 'GET', url: '/v1/tickets?limit=0' }), 422],
    ];
    for (const [res, status] of cases) {
      const body = expectErrorBody(res, status);
      for (const key of Object.keys(body)) expect(['detail', 'errors']).toContain(key);
    }
  });
});

describe('500 and 503', () => {
  it('a store that is gone is a retryable 503 with Retry-After, and leaks nothing', async () => {
    const broken = await buildTestApp();
    try {
      const key = broken.org.adminKey;
      await broken.store.close();
      // The auth lookup is the first thing to touch the closed store.
      const res = await broken.request({ method: 'GET', url: '/v1/tickets', key });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      expect(res.json()).toStrictEqual({ detail: 'The data store is temporarily unavailable; retry shortly', request_id: res.headers['x-request-id'] });
      expect(res.body).not.toMatch(/SQL/i);
      expect(res.body).not.toMatch(/sqlite|postgres|pool/i);
      expect(res.body).not.toMatch(/\bat /);
      expect(res.body).not.toContain('destroy');
      expect(res.body).not.toContain(key);

      const post = await broken.request({ method: 'POST', url: '/v1/tickets', key, body: newTicket() });
      expect(post.statusCode).toBe(503);
      expect(post.json()).toStrictEqual({ detail: 'The data store is temporarily unavailable; retry shortly', request_id: post.headers['x-request-id'] });
    } finally {
      await broken.app.close();
      rmSync(broken.dataDir, { recursive: true, force: true });
    }
  });

  it('any other failure is a bare 500 that never leaks internals, still with rate-limit headers', async () => {
    const broken = await buildTestApp();
    try {
      await sql`ALTER TABLE tickets RENAME TO tickets_gone`.execute(broken.store.db);
      for (const res of [
        await broken.request({ method: 'GET', url: '/v1/tickets' }),
        await broken.request({ method: 'GET', url: `/v1/tickets/${randomUUID()}` }),
        await broken.request({ method: 'POST', url: '/v1/tickets', body: newTicket() }),
      ]) {
        expect(res.statusCode).toBe(500);
        expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
        expect(res.json()).toStrictEqual({ detail: 'Internal server error', request_id: res.headers['x-request-id'] });
        expect(res.body).not.toMatch(/SQL|sqlite|tickets|no such table|\bat /i);
        expect(res.headers['ratelimit-limit']).toBe('2000');
      }
    } finally {
      await broken.close();
    }
  });
});
