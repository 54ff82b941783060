import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAUTHORIZED_DETAILS } from '../src/errors.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

// The check order (docs/api-behaviour.md#requests-and-errors): 401, then 429, then 403, then
// validation (400/413/415/422) and existence (404).

const MALFORMED_JSON = '{"customer_name": "Ada", ';

let t: TestApp;
let readonlyKey: string;
beforeAll(async () => {
  t = await buildTestApp();
  readonlyKey = await t.org.key({ role: 'readonly' });
});
afterAll(async () => {
  await t.close();
});

describe('401 comes first', () => {
  it('no key with a malformed JSON body is 401, not 400', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', key: null, body: MALFORMED_JSON });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ detail: UNAUTHORIZED_DETAILS.missing });
  });

  it('no key on a malformed UUID or an unknown record is 401, not 422 or 404', async () => {
    const bad = await t.request({ method: 'GET', url: '/v1/tickets/not-a-uuid', key: null });
    expect(bad.statusCode).toBe(401);
    const unknown = await t.request({ method: 'DELETE', url: `/v1/tickets/${randomUUID()}`, key: null });
    expect(unknown.statusCode).toBe(401);
  });

  it('no key with a wrong Content-Type is 401, not 415', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/tickets',
      key: null,
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('403 comes before validation and existence', () => {
  it('a read-only key deleting a ticket that does not exist gets 403, not 404', async () => {
    const res = await t.request({ method: 'DELETE', url: `/v1/tickets/${randomUUID()}`, key: readonlyKey });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Insufficient permissions: requires tickets:delete' });
  });

  it('a read-only key deleting with a malformed UUID gets 403, not 422', async () => {
    const res = await t.request({ method: 'DELETE', url: '/v1/tickets/not-a-uuid', key: readonlyKey });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Insufficient permissions: requires tickets:delete' });
  });

  it('a key without tickets:write posting malformed JSON gets 403: the scope is checked before the body is parsed', async () => {
    for (const key of [readonlyKey, await t.org.key({ scopes: ['tickets:read', 'tickets:delete'] })]) {
      const res = await t.request({ method: 'POST', url: '/v1/tickets', key, body: MALFORMED_JSON });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Insufficient permissions: requires tickets:write' });
    }
  });

  it('a key without tickets:write posting an invalid or non-JSON body gets 403, not 422 or 415', async () => {
    const invalid = await t.request({ method: 'POST', url: '/v1/tickets', key: readonlyKey, body: { priority: 'extreme' } });
    expect(invalid.statusCode).toBe(403);
    const textPlain = await t.request({
      method: 'POST',
      url: '/v1/tickets',
      key: readonlyKey,
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(textPlain.statusCode).toBe(403);
    expect(textPlain.json()).toEqual({ detail: 'Insufficient permissions: requires tickets:write' });
  });

  it('a key without tickets:write posting a body over 1 MiB gets 403, not 413', async () => {
    const big = JSON.stringify({ description: 'x'.repeat(1_100_000) });
    const res = await t.request({ method: 'POST', url: '/v1/tickets', key: readonlyKey, body: big });
    expect(res.statusCode).toBe(403);
  });

  it('a key without attachments:write uploading a non-multipart body to an unknown ticket gets 403', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/v1/tickets/${randomUUID()}/attachments`,
      key: readonlyKey,
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Insufficient permissions: requires attachments:write' });
  });

  it('a key with the scope but a malformed JSON body gets 400', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: MALFORMED_JSON });
    expect(res.statusCode).toBe(400);
  });
});

describe('validation comes before existence', () => {
  it('an admin key with a malformed UUID in the path gets 422', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.request({
        method,
        url: '/v1/tickets/not-a-uuid',
        ...(method === 'PATCH' ? { body: { subject: 'x' } } : {}),
      });
      expect(res.statusCode, method).toBe(422);
      expect(res.json()).toMatchObject({ errors: [{ field: 'path.ticket_id' }] });
    }
  });

  it('an admin key with a valid but unknown UUID gets 404', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.request({
        method,
        url: `/v1/tickets/${randomUUID()}`,
        ...(method === 'PATCH' ? { body: { subject: 'x' } } : {}),
      });
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ detail: 'Ticket not found' });
    }
  });
});

describe('429 comes after 401 and before 403', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ RATE_LIMIT_READONLY_PER_MINUTE: '2', RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '100' });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('a read-only key over its limit gets 429 on a route it lacks the scope for', async () => {
    const key = await limited.org.key({ role: 'readonly' });
    const url = `/v1/tickets/${randomUUID()}`;
    const first = await limited.request({ method: 'DELETE', url, key });
    const second = await limited.request({ method: 'DELETE', url, key });
    expect([first.statusCode, second.statusCode]).toEqual([403, 403]);
    const third = await limited.request({ method: 'DELETE', url, key });
    expect(third.statusCode).toBe(429);
    expect(third.json<{ detail: string }>().detail).toMatch(/^Rate limit exceeded\. Retry after \d+ seconds\.$/);
    // Malformed JSON from the limited key is 429 too, neither 403 nor 400.
    const post = await limited.request({ method: 'POST', url: '/v1/tickets', key, body: MALFORMED_JSON });
    expect(post.statusCode).toBe(429);
  });

  it('a missing or bad key is still 401 while a key of the organization is limited', async () => {
    const res = await limited.request({ method: 'DELETE', url: `/v1/tickets/${randomUUID()}`, key: null });
    expect(res.statusCode).toBe(401);
  });
});
