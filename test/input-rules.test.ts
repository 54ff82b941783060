import { readFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_OFFSET } from '../src/shared/schemas.js';
import { multipartBody } from './helpers/attachments.js';
import { fillPath, pathValue, seedRecords, type Seeded } from './helpers/seed.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Rules every route follows alike, checked on every operation of the committed OpenAPI document
 * (so a new route is covered without being listed here): unknown query parameters, integer
 * maximums, UUIDs in either case, date-times, text a store cannot hold, empty JSON bodies, the
 * headers of JSON answers, and errors raised before any route runs.
 */

interface Parameter {
  in: string;
  name: string;
  schema: { type?: string; format?: string; maximum?: number };
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  hasBody: boolean;
}

const document = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: unknown }>>;
};
const operations: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, parameters: op.parameters ?? [], hasBody: op.requestBody !== undefined })),
);
const label = (op: Operation) => `${op.method} ${op.path}`;
const apiOperations = operations.filter((op) => op.path.startsWith('/v1/'));

let t: TestApp;
let seeded: Seeded;
beforeAll(async () => {
  t = await buildTestApp();
  seeded = await seedRecords(t);
});
afterAll(async () => {
  await t.close();
});

/** A body each operation accepts, so that what is checked is the query, not the body. */
function validBody(op: Operation): { payload?: string | Buffer; contentType?: string } {
  const json = (body: unknown) => ({ payload: JSON.stringify(body), contentType: 'application/json' });
  const unique = Math.random().toString(36).slice(2);
  const bodies: Record<string, unknown> = {
    'POST /v1/tickets': { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'S', description: 'D' },
    'PATCH /v1/tickets/{ticket_id}': { subject: 'S' },
    'PUT /v1/tickets/{ticket_id}/presence': { state: 'viewing' },
    'POST /v1/customers': { name: 'C', email: `c-${unique}@example.com` },
    'PATCH /v1/customers/{customer_id}': { name: 'C' },
    'POST /v1/users': { email: `u-${unique}@example.com`, full_name: 'U' },
    'PATCH /v1/users/{user_id}': { full_name: 'U' },
    'POST /v1/teams': { name: 'T' },
    'PATCH /v1/teams/{team_id}': { name: 'T' },
    'POST /v1/teams/{team_id}/members': { user_id: seeded.userId },
    'POST /v1/tickets/{ticket_id}/comments': { body: 'B' },
    'PATCH /v1/tickets/{ticket_id}/comments/{comment_id}': { body: 'B' },
    'POST /v1/api-keys': { name: 'K', role: 'readonly' },
    'PATCH /v1/api-keys/{key_id}': { name: 'K' },
    'POST /v1/portal/tickets/{tracking_token}/comments': { body: 'B' },
    'POST /v1/webhooks': { url: 'https://hooks.example.com/rules', events: ['*'] },
    'PATCH /v1/webhooks/{webhook_id}': { description: 'D' },
    'POST /v1/ticket-fields': { key: 'rules', label: 'Rules', type: 'text' },
    'PATCH /v1/ticket-fields/{field_id}': { label: 'Rules' },
    'POST /v1/sessions': { email: 'agent@example.com', password: 'not the password' },
    'POST /v1/mailboxes': { address: `m-${unique}@example.com`, name: 'M' },
    'PATCH /v1/mailboxes/{mailbox_id}': { name: 'M' },
    'POST /v1/views': { name: 'V', shared: true, conditions: {} },
    'PATCH /v1/views/{view_id}': { name: 'V' },
    'POST /v1/macros': { name: 'M', actions: [{ field: 'priority', value: 'low' }] },
    'PATCH /v1/macros/{macro_id}': { name: 'M' },
    'POST /v1/tickets/bulk': { ids: [seeded.ticketId], actions: [{ field: 'priority', value: 'low' }] },

    'POST /v1/triggers': { name: 'T', on: ['ticket.created'], conditions: {}, actions: [{ field: 'priority', value: 'low' }] },
    'PATCH /v1/triggers/{trigger_id}': { name: 'T' },
    'POST /v1/automations': { name: 'A', conditions: {}, actions: [{ field: 'priority', value: 'low' }] },
    'PATCH /v1/automations/{automation_id}': { name: 'A' },

    'POST /v1/business-hours': { name: 'H', time_zone: 'UTC', weekly: [{ day: 'mon', start: '09:00', end: '17:00' }] },
    'PATCH /v1/business-hours/{business_hours_id}': { name: 'H' },
    'POST /v1/sla-policies': { name: 'P', conditions: {}, targets: [{ priority: 'high', resolution_minutes: 60 }] },
    'PATCH /v1/sla-policies/{sla_policy_id}': { name: 'P' },
  };
  if (label(op) === 'POST /v1/tickets/{ticket_id}/attachments') {
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'a.txt', type: 'text/plain', data: 'x' }]);
    return { payload, contentType };
  }
  if (label(op) === 'POST /v1/mailboxes/{mailbox_id}/messages') {
    return { payload: `From: a@example.com\r\nSubject: Rules ${unique}\r\n\r\nText\r\n`, contentType: 'message/rfc822' };
  }
  if (label(op) === 'POST /portal/{tracking_token}/reply') return { payload: 'body=hi', contentType: 'application/x-www-form-urlencoded' };
  const body = bodies[label(op)];
  return body === undefined ? {} : json(body);
}

function call(op: Operation, query = '', value: (name: string) => string = (name) => pathValue(seeded, name)): Promise<LightMyRequestResponse> {
  const { payload, contentType } = validBody(op);
  const headers: Record<string, string> = { authorization: `Bearer ${t.org.adminKey}` };
  if (contentType) headers['content-type'] = contentType;
  const url = op.path === '/storage/{attachment_id}' ? seeded.signedPath : fillPath(op.path, value);
  const separator = url.includes('?') ? '&' : '?';
  return t.app.inject({ method: op.method as 'GET', url: query ? `${url}${separator}${query}` : url, headers, ...(payload === undefined ? {} : { payload }) });
}

const fields = (res: LightMyRequestResponse) => res.json<{ errors?: { field: string }[] }>().errors?.map((e) => e.field) ?? [];

describe('unknown query parameters', () => {
  it.each(apiOperations.map((op) => [label(op), op] as const))('%s: 422 naming the parameter', async (_label, op) => {
    const res = await call(op, 'bogus=1');
    expect(res.statusCode, res.body).toBe(422);
    expect(fields(res)).toEqual(['query.bogus']);
  });

  const publicOperations = operations.filter((op) => !op.path.startsWith('/v1/') && op.method === 'GET');
  it.each(publicOperations.map((op) => [label(op), op] as const))('%s (not the JSON API): ignored', async (_label, op) => {
    const res = await call(op, 'utm_source=newsletter');
    expect(res.statusCode, res.body).toBeLessThan(400);
  });
});

describe('integer parameters', () => {
  const integers = operations.flatMap((op) => op.parameters.filter((p) => p.schema.type === 'integer').map((p) => [op, p] as const));

  it('every integer parameter has a documented maximum', () => {
    expect(integers.length).toBeGreaterThan(0);
    for (const [op, p] of integers) expect(p.schema.maximum, `${label(op)} ${p.name}`).toBeTypeOf('number');
  });

  const offsets = integers.filter(([, p]) => p.name === 'offset' || p.name === 'skip');
  it.each(offsets.map(([op, p]) => [label(op), p.name, op] as const))('%s ?%s beyond its maximum is 422, never 500', async (_label, name, op) => {
    for (const value of ['9223372036854775808', '1e308', String(MAX_OFFSET + 1), '18446744073709551616']) {
      const res = await call(op, `${name}=${value}`);
      expect(res.statusCode, `${value}: ${res.body}`).toBe(422);
      expect(fields(res)).toEqual([`query.${name}`]);
    }
    const deepest = await call(op, `${name}=${MAX_OFFSET}`);
    expect(deepest.statusCode, deepest.body).toBe(200);
    expect(deepest.json()).toEqual([]);
  });
});

describe('UUIDs in either case', () => {
  const withIds = operations.filter((op) => op.parameters.some((p) => p.in === 'path') && op.method === 'GET');
  it.each(withIds.map((op) => [label(op), op] as const))('%s answers the same for upper-case ids', async (_label, op) => {
    const lower = await call(op);
    const upper = await call(op, '', (name) => pathValue(seeded, name).toUpperCase());
    expect(lower.statusCode, lower.body).toBeLessThan(400);
    expect(upper.statusCode, upper.body).toBe(lower.statusCode);
  });

  it('changes and deletes records named in upper case, and filters by upper-case ids', async () => {
    const up = (id: string) => id.toUpperCase();
    const patched = await t.request({ method: 'PATCH', url: `/v1/tickets/${up(seeded.ticketId)}`, body: { assigned_team_id: up(seeded.teamId) } });
    expect(patched.statusCode, patched.body).toBe(200);
    // Stored lower-case: the id is the same id whatever case it was sent in.
    expect(patched.json()).toMatchObject({ id: seeded.ticketId, assigned_team_id: seeded.teamId });
    const filtered = await t.request({ method: 'GET', url: `/v1/tickets?assigned_team_id=${up(seeded.teamId)}&customer_id=${up(seeded.customerId)}` });
    expect(filtered.json<{ id: string }[]>().map((x) => x.id)).toEqual([seeded.ticketId]);
    const removed = await t.request({ method: 'DELETE', url: `/v1/teams/${up(seeded.teamId)}/members/${up(seeded.memberId)}` });
    expect(removed.statusCode, removed.body).toBe(204);
    const added = await t.request({ method: 'POST', url: `/v1/teams/${seeded.teamId}/members`, body: { user_id: up(seeded.memberId) } });
    expect(added.statusCode, added.body).toBe(201);
    const team = await t.request({ method: 'GET', url: `/v1/teams/${seeded.teamId}` });
    expect(team.json<{ members: { id: string }[] }>().members.map((m) => m.id)).toEqual([seeded.memberId]);
  });

  it('still refuses what is not a UUID, such as a urn:uuid: prefix', async () => {
    for (const id of [`urn:uuid:${seeded.ticketId}`, `${seeded.ticketId}0`, `{${seeded.ticketId}}`]) {
      const res = await t.request({ method: 'GET', url: `/v1/tickets/${encodeURIComponent(id)}` });
      expect(res.statusCode, id).toBe(422);
    }
  });
});

describe('date-times', () => {
  // What RFC 3339 allows but Date cannot hold: a leap second, and years outside 0000-9999 once in UTC.
  const unstorable = ['2026-12-31T23:59:60Z', '2016-12-31T23:59:60.5Z', '0000-01-01T00:30:00+01:00', '9999-12-31T23:30:00-01:00'];
  const inputs: ['POST' | 'PATCH', string, string, (v: string) => unknown][] = [
    ['POST', '/v1/tickets', 'body.due_date', (v) => ({ customer_name: 'A', customer_email: 'a@example.com', subject: 'S', description: 'D', due_date: v })],
    ['PATCH', '/v1/tickets/{ticket_id}', 'body.due_date', (v) => ({ due_date: v })],
    ['POST', '/v1/api-keys', 'body.expires_at', (v) => ({ name: 'k', role: 'admin', expires_at: v })],
    ['PATCH', '/v1/api-keys/{key_id}', 'body.expires_at', (v) => ({ expires_at: v })],
  ];
  it.each(inputs)('%s %s: a date-time Date cannot hold is 422 naming %s', async (method, path, field, body) => {
    const key = await t.request({ method: 'POST', url: '/v1/api-keys', body: { name: 'admin target', role: 'admin' } });
    const url = fillPath(path, (name) => (name === 'key_id' ? key.json<{ id: string }>().id : pathValue(seeded, name)));
    for (const value of unstorable) {
      const res = await t.request({ method, url, body: body(value) });
      expect(res.statusCode, `${value}: ${res.body}`).toBe(422);
      expect(fields(res)).toEqual([field]);
    }
    // The same instant without the leap second is fine.
    const ok = await t.request({ method, url, body: body('2099-12-31T23:59:59.999+00:00') });
    expect(ok.statusCode, ok.body).toBeLessThan(300);
  });
});

describe('text a store cannot hold', () => {
  const LONE = ['a\ud800b', 'a\udc00b', 'end\ud83d'];
  const bodies: ['POST', string, string, (s: string) => unknown][] = [
    ['POST', '/v1/tickets', 'body.subject', (s) => ({ customer_name: 'A', customer_email: 'a@example.com', subject: s, description: 'D' })],
    ['POST', '/v1/customers', 'body.name', (s) => ({ name: s, email: 'lone@example.com' })],
    ['POST', '/v1/teams', 'body.description', (s) => ({ name: 'T', description: s })],
    ['POST', '/v1/tickets/{ticket_id}/comments', 'body.body', (s) => ({ body: s })],
    ['POST', '/v1/portal/tickets/{tracking_token}/comments', 'body.body', (s) => ({ body: s })],
  ];
  it.each(bodies)('%s %s: a lone surrogate is 422 on every store, naming %s', async (method, path, field, body) => {
    const url = fillPath(path, (name) => pathValue(seeded, name));
    for (const text of LONE) {
      // JSON.stringify writes a lone surrogate as a \u escape, which JSON.parse turns back into one.
      const res = await t.request({ method, url, body: body(text) });
      expect(res.statusCode, `${JSON.stringify(text)}: ${res.body}`).toBe(422);
      expect(res.json()).toMatchObject({ errors: [{ field, message: expect.stringMatching(/surrogate/) as string }] });
    }
  });

  it('a JSON \\u escape of a lone surrogate is refused too, and a proper pair is stored exactly', async () => {
    const escaped = await t.request({ method: 'POST', url: `/v1/tickets/${seeded.ticketId}/comments`, body: '{"body":"x\\ud800y"}' });
    expect(escaped.statusCode, escaped.body).toBe(422);
    const pair = await t.request({ method: 'POST', url: `/v1/tickets/${seeded.ticketId}/comments`, body: '{"body":"smile \\ud83d\\ude00 ✓"}' });
    expect(pair.statusCode, pair.body).toBe(201);
    const { id } = pair.json<{ id: string }>();
    const read = await t.request({ method: 'GET', url: `/v1/tickets/${seeded.ticketId}/comments/${id}` });
    expect(read.json()).toMatchObject({ body: 'smile 😀 ✓' });
  });

  it('U+0000 is refused in every text, as before', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/teams', body: { name: 'a\u0000b' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: 'body.name', message: 'must not contain the NUL character (U+0000)' }] });
  });
});

describe('an empty body labelled application/json', () => {
  const json = { 'content-type': 'application/json' };

  it('is accepted where the route takes no body: DELETE, and the token rotation POST', async () => {
    const team = await t.request({ method: 'POST', url: '/v1/teams', body: { name: 'to delete' } });
    const deleted = await t.request({ method: 'DELETE', url: `/v1/teams/${team.json<{ id: string }>().id}`, headers: json });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const rotated = await t.request({ method: 'POST', url: `/v1/tickets/${seeded.ticketId}/tracking-token`, headers: json });
    expect(rotated.statusCode, rotated.body).toBe(200);
    seeded.trackingToken = rotated.json<{ tracking_token: string }>().tracking_token;
    const charset = await t.request({ method: 'DELETE', url: `/v1/tickets/${seeded.ticketId}/comments/${seeded.commentId}`, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(charset.statusCode, charset.body).toBe(204);
    seeded.commentId = (await t.request({ method: 'POST', url: `/v1/tickets/${seeded.ticketId}/comments`, body: { body: 'again' } })).json<{ id: string }>().id;
  });

  it('is still a 400 where the route takes a body', async () => {
    for (const [method, url] of [['POST', '/v1/tickets'], ['PATCH', `/v1/tickets/${seeded.ticketId}`]] as const) {
      const res = await t.request({ method, url, headers: json });
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(res.json()).toEqual({ detail: 'Request body is empty; send a JSON object' });
    }
  });
});

describe('headers of JSON answers', () => {
  it('every JSON answer, success or error, carries nosniff and no-store', async () => {
    const responses = [
      await t.request({ method: 'GET', url: '/v1/tickets' }),
      await t.request({ method: 'GET', url: `/v1/tickets/${seeded.ticketId}` }),
      await t.request({ method: 'GET', url: '/v1/tickets', key: null }),
      await t.request({ method: 'GET', url: '/v1/nothing' }),
      await t.request({ method: 'PUT', url: '/v1/tickets' }),
      await t.request({ method: 'GET', url: '/v1/tickets?limit=0' }),
      await t.request({ method: 'GET', url: '/v1/tickets/%ZZ' }),
      await t.request({ method: 'GET', url: `/v1/portal/tickets/${seeded.trackingToken}` }),
      await t.request({ method: 'GET', url: '/storage/nothing' }),
      await t.request({ method: 'GET', url: '/healthz', key: null }),
    ];
    for (const res of responses) {
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options'], res.body).toBe('nosniff');
      expect(res.headers['cache-control'], res.body).toBe('no-store');
    }
  });

  it('files and pages keep their own headers', async () => {
    const file = await t.request({ method: 'GET', url: seeded.signedPath, key: null });
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('private');
    expect(file.headers['content-security-policy']).toBe('sandbox');
    const page = await t.request({ method: 'GET', url: `/portal/${seeded.trackingToken}`, key: null });
    expect(page.statusCode).toBe(200);
    expect(String(page.headers['content-security-policy'])).toMatch(/default-src 'none'/);
  });
});

describe('errors raised before routing, over a real connection', () => {
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  /** Writes raw bytes and resolves with the status line and the body the server answered. */
  function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer (so far: ${JSON.stringify(text)})`));
      }, 5_000);
      socket.on('data', (data: Buffer) => (text += data.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        const [head = '', body = ''] = text.split('\r\n\r\n', 2);
        resolve({ status: Number(head.slice(9, 12)), headers: head.toLowerCase(), body });
      });
      socket.write(request);
    });
  }

  it.each([
    ['headers too large', `GET /v1/test HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['an address too long for the headers', `GET /v1/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ['a malformed request line', 'GARBAGE\r\n\r\n', 400],
    ['an invalid method', 'G@T /v1/test HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['an unknown HTTP version', 'GET /v1/test HTTP/9.9\r\nHost: x\r\n\r\n', 400],
    ['a space in the address', 'GET /v1/te st HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a control character in a header', 'GET /v1/test HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n', 400],
    ['both Content-Length and chunked', 'POST /v1/tickets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n', 400],
    ['a broken chunk', 'POST /v1/tickets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ\r\n', 400],
    ['a path parameter over 100 characters', `GET /v1/portal/tickets/${'t'.repeat(101)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 414],
    ['a bad percent-encoding', 'GET /v1/tickets/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
  ])('%s: %#', async (_name, request, status) => {
    const answer = await raw(request);
    expect(answer.status, answer.headers).toBe(status);
    expect(answer.headers).toMatch(/content-type: application\/json/);
    expect(answer.headers).toMatch(/x-content-type-options: nosniff/);
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['detail']);
    expect(typeof body.detail).toBe('string');
    // The detail never echoes the address (which may hold a tracking token).
    expect(String(body.detail)).not.toMatch(/tttt|aaaa/);
  });
});
