import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { createTicket, multipartBody } from '../../test/helpers/attachments.js';

/** Idempotency-Key on POST, through HTTP on both stores (docs/api-behaviour.md#safe-retries-idempotency-key). */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const ticketBody = (subject = 'Printer on fire') => ({
  customer_name: 'Ada',
  customer_email: 'ada@example.com',
  subject,
  description: 'It smokes',
});

async function ticketCount(key: string): Promise<number> {
  const res = await t.request({ method: 'GET', url: '/v1/tickets?limit=500', key });
  return res.json<unknown[]>().length;
}

/** An answer as its replay shows it: a secret shown once (the tracking token) is null. */
function asReplayed(body: string | undefined): string {
  const record = JSON.parse(body ?? 'null') as Record<string, unknown>;
  return 'tracking_token' in record ? JSON.stringify({ ...record, tracking_token: null }) : JSON.stringify(record);
}

const post = (key: string, idempotencyKey: string | undefined, body: unknown = ticketBody(), url = '/v1/tickets') =>
  t.request({ method: 'POST', url, key, body, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });

describe('Idempotency-Key', () => {
  it('the same key and body replays the first answer (status, body, headers) without creating again', async () => {
    const org = await t.newOrg('Replay');
    const first = await post(org.adminKey, 'retry-1');
    expect(first.statusCode).toBe(201);
    const second = await post(org.adminKey, 'retry-1');
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(asReplayed(first.body));
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(await ticketCount(org.adminKey)).toBe(1);
    // A quoted key (the draft's sf-string) is the same key.
    const quoted = await post(org.adminKey, '"retry-1"');
    expect(quoted.body).toBe(asReplayed(first.body));
    // Without a key, or with another key, the work is done again.
    expect((await post(org.adminKey, undefined)).statusCode).toBe(201);
    expect((await post(org.adminKey, 'retry-2')).statusCode).toBe(201);
    expect(await ticketCount(org.adminKey)).toBe(3);
  });

  it('the same key with another body, or on another path, is 422 and does nothing', async () => {
    const org = await t.newOrg('Mismatch');
    expect((await post(org.adminKey, 'k')).statusCode).toBe(201);
    const other = await post(org.adminKey, 'k', ticketBody('Something else'));
    expect(other.statusCode).toBe(422);
    const problem = other.json<{ detail: string; errors: { field: string }[] }>();
    expect(problem.detail).toContain('already used for a different request');
    expect(problem.errors.map((e) => e.field)).toEqual(['header.idempotency-key']);
    const customer = await post(org.adminKey, 'k', { name: 'Bob', email: 'bob@example.com' }, '/v1/customers');
    expect(customer.statusCode).toBe(422);
    expect(await ticketCount(org.adminKey)).toBe(1);
    const customers = await t.request({ method: 'GET', url: '/v1/customers', key: org.adminKey });
    expect(customers.json<{ email: string }[]>().map((c) => c.email)).toEqual(['ada@example.com']);
  });

  it('keys are per API key: another key of the organization may use the same value', async () => {
    const org = await t.newOrg('Scoped');
    const otherKey = await org.key();
    expect((await post(org.adminKey, 'shared')).statusCode).toBe(201);
    expect((await post(otherKey, 'shared', ticketBody('Other'))).statusCode).toBe(201);
    expect(await ticketCount(org.adminKey)).toBe(2);
  });

  it('a malformed key (empty, too long, control characters) is 422 naming the header', async () => {
    const org = await t.newOrg('Malformed');
    for (const bad of ['', 'x'.repeat(256), 'tab\tinside']) {
      const res = await post(org.adminKey, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('header.idempotency-key');
    }
    expect((await post(org.adminKey, 'x'.repeat(255))).statusCode).toBe(201);
    expect(await ticketCount(org.adminKey)).toBe(1);
  });

  it('N parallel creates with one key: exactly one ticket, one number; every answer the same ticket or 409', async () => {
    const org = await t.newOrg('Parallel');
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(org.adminKey, 'parallel')));
    const created = answers.filter((r) => r.statusCode === 201);
    const busy = answers.filter((r) => r.statusCode === 409);
    expect(created.length + busy.length, answers.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body)).size).toBe(1);
    for (const r of busy) {
      expect(r.headers['retry-after']).toBe('1');
      expect(r.json<{ detail: string }>().detail).toMatch(/still being processed/);
    }
    expect(await ticketCount(org.adminKey)).toBe(1);
    expect(created[0]?.json<{ ticket_number: number }>().ticket_number).toBe(1);
    // Once done, a retry replays it.
    const retry = await post(org.adminKey, 'parallel');
    expect(retry.statusCode).toBe(201);
    expect(retry.body).toBe(asReplayed(created[0]?.body));
  });

  it('a request still in flight with the key is 409 with Retry-After', async () => {
    const org = await t.newOrg('In flight');
    const auth = await t.request({ method: 'GET', url: '/v1/test', key: org.adminKey });
    const keyPrefix = auth.json<{ key_prefix: string }>().key_prefix;
    const keyRow = await t.store.db.selectFrom('api_keys').select('id').where('key_prefix', '=', keyPrefix).executeTakeFirstOrThrow();
    // As a request of another process would leave it while it runs.
    const fingerprintOwner = await post(org.adminKey, 'probe');
    expect(fingerprintOwner.statusCode).toBe(201);
    const probe = await t.store.db.selectFrom('idempotency_keys').select('fingerprint').where('idempotency_key', '=', 'probe').executeTakeFirstOrThrow();
    const now = Date.now();
    await t.store.db
      .insertInto('idempotency_keys')
      .values({
        organization_id: org.id, api_key_id: keyRow.id, idempotency_key: 'running', fingerprint: probe.fingerprint.replace(/^./, 'x'),
        state: 'in_flight', created_at: new Date(now).toISOString(), locked_until: new Date(now + 60_000).toISOString(),
        expires_at: new Date(now + 86_400_000).toISOString(),
      })
      .execute();
    // Another fingerprint first: the body decides before the state.
    expect((await post(org.adminKey, 'running')).statusCode).toBe(422);
    // The fingerprint covers method, path and body, not the key: the one of 'probe' fits this request.
    await t.store.db.updateTable('idempotency_keys').set({ fingerprint: probe.fingerprint }).where('idempotency_key', '=', 'running').execute();
    const busy = await post(org.adminKey, 'running');
    expect(busy.statusCode).toBe(409);
    expect(busy.headers['retry-after']).toBe('1');
    // A key whose request died (its lock ran out) is taken over: the work is done.
    await t.store.db.updateTable('idempotency_keys').set({ locked_until: new Date(now - 1).toISOString() }).where('idempotency_key', '=', 'running').execute();
    expect((await post(org.adminKey, 'running')).statusCode).toBe(201);
    expect(await ticketCount(org.adminKey)).toBe(2);
  });

  it('keys expire after 24 hours: an expired key does the work again, and expired keys are purged', async () => {
    const org = await t.newOrg('Expiry');
    const first = await post(org.adminKey, 'old');
    const row = await t.store.db.selectFrom('idempotency_keys').selectAll().where('organization_id', '=', org.id).executeTakeFirstOrThrow();
    const ttl = Date.parse(String(row.expires_at)) - Date.parse(String(row.created_at));
    expect(ttl).toBe(24 * 60 * 60 * 1000);
    await t.store.db.updateTable('idempotency_keys').set({ expires_at: new Date(Date.now() - 1).toISOString() }).where('organization_id', '=', org.id).execute();
    const again = await post(org.adminKey, 'old');
    expect(again.statusCode).toBe(201);
    expect(again.body).not.toBe(first.body);
    expect(await ticketCount(org.adminKey)).toBe(2);
  });

  it('4xx answers are stored and replayed; 5xx are not', async () => {
    const org = await t.newOrg('Errors');
    const missingTicket = '00000000-0000-4000-8000-000000000000';
    const url = `/v1/tickets/${missingTicket}/comments`;
    const first = await post(org.adminKey, 'c', { body: 'hi' }, url);
    expect(first.statusCode).toBe(404);
    const row = await t.store.db.selectFrom('idempotency_keys').select(['state', 'status_code']).where('organization_id', '=', org.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: 'complete', status_code: 404 });
    expect((await post(org.adminKey, 'c', { body: 'hi' }, url)).body).toBe(first.body);
  });

  it('a 5xx is not stored: the key is released and a retry does the work', async () => {
    const org = await t.newOrg('Server error');
    expect((await post(org.adminKey, undefined)).statusCode).toBe(201);
    // The next number is one that is taken: the create fails on the unique index (a 500).
    await t.store.db.updateTable('organizations').set({ ticket_counter: 0 }).where('id', '=', org.id).execute();
    const failed = await post(org.adminKey, 'after-500', ticketBody('Second'));
    expect(failed.statusCode).toBe(500);
    expect(await t.store.db.selectFrom('idempotency_keys').select('state').where('organization_id', '=', org.id).execute()).toEqual([]);
    await t.store.db.updateTable('organizations').set({ ticket_counter: 1 }).where('id', '=', org.id).execute();
    const retried = await post(org.adminKey, 'after-500', ticketBody('Second'));
    expect(retried.statusCode).toBe(201);
    expect(retried.json<{ ticket_number: number }>().ticket_number).toBe(2);
    expect((await post(org.adminKey, 'after-500', ticketBody('Second'))).body).toBe(asReplayed(retried.body));
  });

  it('the stored answer is replayed by another app instance on the same store (as by another process)', async () => {
    const org = await t.newOrg('Two apps');
    const first = await post(org.adminKey, 'cross');
    const other = await buildApp({ config: t.config, store: t.store, blobs: t.blobs });
    try {
      const res = await other.inject({
        method: 'POST', url: '/v1/tickets', payload: JSON.stringify(ticketBody()),
        headers: { authorization: `Bearer ${org.adminKey}`, 'content-type': 'application/json', 'idempotency-key': 'cross' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.body).toBe(asReplayed(first.body));
    } finally {
      await other.close();
    }
    expect(await ticketCount(org.adminKey)).toBe(1);
  });

  it('parallel duplicates split over two app instances on one store: one ticket, every answer it or 409', async () => {
    const org = await t.newOrg('Two apps at once');
    const other = await buildApp({ config: t.config, store: t.store, blobs: t.blobs });
    try {
      const inject = (app: typeof other) =>
        app.inject({
          method: 'POST', url: '/v1/tickets', payload: JSON.stringify(ticketBody()),
          headers: { authorization: `Bearer ${org.adminKey}`, 'content-type': 'application/json', 'idempotency-key': 'split' },
        });
      const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => inject(i % 2 ? other : t.app)));
      const created = answers.filter((r) => r.statusCode === 201);
      expect(answers.every((r) => r.statusCode === 201 || r.statusCode === 409), answers.map((r) => r.statusCode).join()).toBe(true);
      expect(new Set(created.map((r) => asReplayed(r.body))).size).toBe(1);
      const final = await inject(other);
      expect(final.statusCode).toBe(201);
      expect(final.body).toBe(asReplayed(created[0]?.body));
    } finally {
      await other.close();
    }
    expect(await ticketCount(org.adminKey)).toBe(1);
  });

  it('applies to every POST: a customer create and a token rotation replay too', async () => {
    const org = await t.newOrg('Every POST');
    const c1 = await post(org.adminKey, 'cust', { name: 'Bob', email: 'bob@example.com' }, '/v1/customers');
    const c2 = await post(org.adminKey, 'cust', { name: 'Bob', email: 'bob@example.com' }, '/v1/customers');
    expect(c1.statusCode).toBe(201);
    expect(c2.body).toBe(c1.body);
    const ticket = (await post(org.adminKey, undefined)).json<{ id: string }>();
    const rotate = (k: string) => t.request({ method: 'POST', url: `/v1/tickets/${ticket.id}/tracking-token`, key: org.adminKey, headers: { 'idempotency-key': k } });
    const r1 = await rotate('rot');
    const r2 = await rotate('rot');
    expect(r1.json<{ tracking_token: string | null }>().tracking_token).toMatch(/^[0-9a-f-]{36}$/);
    expect(r2.body).toBe(asReplayed(r1.body));
    const fresh = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key: org.adminKey });
    expect(fresh.json<{ tracking_token: string }>().tracking_token).toBe(r1.json<{ tracking_token: string }>().tracking_token);
  });

  it('a secret shown once is never stored: a replayed POST /v1/api-keys has key null, and the store holds no plain key', async () => {
    const org = await t.newOrg('Secrets');
    const body = { name: 'Reporting', role: 'readonly' };
    const first = await post(org.adminKey, 'new-key', body, '/v1/api-keys');
    expect(first.statusCode).toBe(201);
    const plain = first.json<{ key: string }>().key;
    expect(plain).toMatch(/^key_ro_/);
    const again = await post(org.adminKey, 'new-key', body, '/v1/api-keys');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual({ ...first.json<Record<string, unknown>>(), key: null });
    const rows = await t.store.db.selectFrom('idempotency_keys').selectAll().where('organization_id', '=', org.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(plain);
    expect(JSON.stringify(rows)).not.toContain(plain.slice('key_ro_'.length, 30));
    // The key made the first time works; the replay made none.
    expect((await t.request({ method: 'GET', url: '/v1/api-keys', key: plain })).statusCode).toBe(200);
    const keys = await t.request({ method: 'GET', url: '/v1/api-keys', key: org.adminKey });
    expect(keys.json<unknown[]>()).toHaveLength(2);
  });

  it('a webhook secret and a tracking token are not stored either', async () => {
    const org = await t.newOrg('More secrets');
    const hook = { url: 'https://hooks.example.com/x', events: ['ticket.created'] };
    const w1 = await post(org.adminKey, 'hook', hook, '/v1/webhooks');
    expect(w1.statusCode).toBe(201);
    const secret = w1.json<{ secret: string }>().secret;
    expect(secret).toMatch(/^whsec_/);
    const w2 = await post(org.adminKey, 'hook', hook, '/v1/webhooks');
    expect(w2.json()).toEqual({ ...w1.json<Record<string, unknown>>(), secret: null });
    const t1 = await post(org.adminKey, 'ticket');
    const token = t1.json<{ tracking_token: string }>().tracking_token;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    const rows = await t.store.db.selectFrom('idempotency_keys').select('response_body').where('organization_id', '=', org.id).execute();
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it("an upload's fingerprint covers its file: another file under the same key is 422, the same file replays", async () => {
    const org = await t.newOrg('Uploads');
    const ticketId = await createTicket(t, org.adminKey);
    const send = (data: string, filename = 'notes.txt') => {
      // A fresh boundary each time, as a client's retry would have.
      const { payload, contentType } = multipartBody([{ name: 'file', filename, type: 'text/plain', data }]);
      return t.app.inject({
        method: 'POST',
        url: `/v1/tickets/${ticketId}/attachments`,
        payload,
        headers: { authorization: `Bearer ${org.adminKey}`, 'content-type': contentType, 'idempotency-key': 'upload-1' },
      });
    };
    const first = await send('first file');
    expect(first.statusCode, first.body).toBe(201);
    const other = await send('a second, different file');
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('header.idempotency-key');
    const renamed = await send('first file', 'other-name.txt');
    expect(renamed.statusCode).toBe(422);
    const same = await send('first file');
    expect(same.statusCode).toBe(201);
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect(same.body).toBe(first.body);
    const list = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments`, key: org.adminKey });
    expect(list.json<unknown[]>()).toHaveLength(1);
  });

  it('an upload refused before its file was read is not remembered: the retry with the file does the work', async () => {
    const org = await t.newOrg('Uploads refused');
    const missing = '00000000-0000-4000-8000-000000000000';
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'a.txt', type: 'text/plain', data: 'abc' }]);
    const headers = { authorization: `Bearer ${org.adminKey}`, 'content-type': contentType, 'idempotency-key': 'u' };
    const res = await t.app.inject({ method: 'POST', url: `/v1/tickets/${missing}/attachments`, payload, headers });
    expect(res.statusCode).toBe(404);
    expect(await t.store.db.selectFrom('idempotency_keys').select('state').where('organization_id', '=', org.id).execute()).toEqual([]);
  });

  it('the documentation pre-fills no Idempotency-Key: the header has no example', async () => {
    const doc = (await t.request({ method: 'GET', url: '/openapi.json', key: null })).json<{
      paths: Record<string, Record<string, { parameters?: Array<Record<string, unknown>> }>>;
    }>();
    const params = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .flatMap((op) => op.parameters ?? [])
      .filter((p) => p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key');
    expect(params.length).toBeGreaterThan(5);
    for (const p of params) {
      expect(p.example).toBeUndefined();
      expect(p.examples).toBeUndefined();
      expect((p.schema as Record<string, unknown>).example).toBeUndefined();
      expect((p.schema as Record<string, unknown>).examples).toBeUndefined();
    }
  });
});
