import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app.js';

/** Idempotency-Key on POST (decisions §13, docs/api-behaviour.md#idempotency-key), through HTTP on both stores. */
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

const post = (key: string, idempotencyKey: string | undefined, body: unknown = ticketBody(), url = '/v1/tickets') =>
  t.request({ method: 'POST', url, key, body, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });

describe('Idempotency-Key', () => {
  it('the same key and body replays the first answer (status, body, headers) without creating again', async () => {
    const org = await t.newOrg('Replay');
    const first = await post(org.adminKey, 'retry-1');
    expect(first.statusCode).toBe(201);
    const second = await post(org.adminKey, 'retry-1');
    expect(second.statusCode).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(await ticketCount(org.adminKey)).toBe(1);
    // A quoted key (the draft's sf-string) is the same key.
    const quoted = await post(org.adminKey, '"retry-1"');
    expect(quoted.body).toBe(first.body);
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
    expect(retry.body).toBe(created[0]?.body);
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
    expect((await post(org.adminKey, 'after-500', ticketBody('Second'))).body).toBe(retried.body);
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
      expect(res.body).toBe(first.body);
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
      expect(new Set(created.map((r) => r.body)).size).toBe(1);
      const final = await inject(other);
      expect(final.statusCode).toBe(201);
      expect(final.body).toBe(created[0]?.body);
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
    expect(r2.json<{ tracking_token: string }>().tracking_token).toBe(r1.json<{ tracking_token: string }>().tracking_token);
    const fresh = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key: org.adminKey });
    expect(fresh.json<{ tracking_token: string }>().tracking_token).toBe(r1.json<{ tracking_token: string }>().tracking_token);
  });
});
