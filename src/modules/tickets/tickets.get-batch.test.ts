import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../auth/key-format.js';
import { buildTestApp, TEST_STORE, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { ticketWithKeyReadStats } from './tickets.get.fast-path.js';

/**
 * GET /v1/tickets/{id} of many requests at once. On PostgreSQL the key-and-ticket reads that arrive
 * in the same turn share one statement (tickets.get.fast-path.ts); on SQLite the ticket reads of cached keys
 * that arrive in the same turn share one read transaction (with the key cache's version); each
 * request must still be answered by its own key: its organization, its scopes, its validity at
 * that moment.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

async function newTicket(key: string, subject: string): Promise<{ id: string; subject: string }> {
  const res = await t.request({
    method: 'POST',
    url: '/v1/tickets',
    key,
    body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject, description: 'Read many times at once' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

interface Case {
  name: string;
  key: string;
  id: string;
  status: number;
  subject?: string;
}

describe('concurrent get-by-ids with different keys', () => {
  let a: TestOrg;
  let b: TestOrg;
  let cases: Case[];

  beforeAll(async () => {
    a = t.org;
    b = await t.newOrg('Other organization');
    const ticketA = await newTicket(a.adminKey, 'Ticket of A');
    const ticketB = await newTicket(b.adminKey, 'Ticket of B');
    const readOnlyA = await a.key({ role: 'readonly' });
    const noTicketScope = await a.key({ role: 'readonly', scopes: ['customers:read'] });
    const expired = await a.key({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    const revoked = await a.key({});
    // Used once, so nothing anywhere could have remembered it as valid, then revoked through the API.
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${ticketA.id}`, key: revoked })).statusCode).toBe(200);
    const revokedId = (await t.store.db.selectFrom('api_keys').select('id').where('key_hash', '=', hashApiKey(revoked)).executeTakeFirstOrThrow()).id;
    expect((await t.request({ method: 'DELETE', url: `/v1/api-keys/${revokedId}` })).statusCode).toBe(204);
    cases = [
      { name: 'A reads its ticket', key: a.adminKey, id: ticketA.id, status: 200, subject: 'Ticket of A' },
      { name: 'B reads its ticket', key: b.adminKey, id: ticketB.id, status: 200, subject: 'Ticket of B' },
      { name: "B reads A's ticket", key: b.adminKey, id: ticketA.id, status: 404 },
      { name: "A reads B's ticket", key: a.adminKey, id: ticketB.id, status: 404 },
      { name: 'a read-only key of A reads its ticket', key: readOnlyA, id: ticketA.id, status: 200, subject: 'Ticket of A' },
      { name: 'A reads a ticket that does not exist', key: a.adminKey, id: randomUUID(), status: 404 },
      { name: 'a revoked key of A', key: revoked, id: ticketA.id, status: 401 },
      { name: 'an expired key of A', key: expired, id: ticketA.id, status: 401 },
      { name: 'a key of A without tickets:read', key: noTicketScope, id: ticketA.id, status: 403 },
      { name: 'an unknown key', key: generateApiKey('admin').key, id: ticketA.id, status: 401 },
    ];
  });

  it('each get its own answer, and they share statements (PostgreSQL) or read transactions (SQLite)', async () => {
    // Every case several times, interleaved, all at once.
    const requests = Array.from({ length: 4 }, () => cases).flat();
    // On SQLite, every key once alone first, so the valid ones are cached (the versioned reads are
    // the cached keys' path).
    if (TEST_STORE === 'sqlite') {
      for (const c of cases) await t.request({ method: 'GET', url: `/v1/tickets/${c.id}`, key: c.key });
    }
    const before = { ...(ticketWithKeyReadStats(t.store.db) ?? { statements: 0, reads: 0, largest: 0 }) };
    const sqliteBefore = t.store.versionedReads ? { ...t.store.versionedReads.stats } : undefined;
    const responses = await Promise.all(requests.map((c) => t.request({ method: 'GET', url: `/v1/tickets/${c.id}`, key: c.key })));
    const answers = responses.map((res, i) => ({ name: requests[i]!.name, status: res.statusCode, subject: res.statusCode === 200 ? res.json<{ subject: string }>().subject : undefined }));
    expect(answers).toEqual(requests.map((c) => ({ name: c.name, status: c.status, subject: c.subject })));
    for (const [i, res] of responses.entries()) {
      if (res.statusCode === 200) expect(res.json<{ id: string }>().id).toBe(requests[i]!.id);
    }

    if (TEST_STORE === 'postgres') {
      const stats = ticketWithKeyReadStats(t.store.db)!;
      // Every request read its key (and the ticket) through the batch...
      expect(stats.reads - before.reads).toBe(requests.length);
      // ...in far fewer statements than requests.
      expect(stats.statements - before.statements).toBeLessThan(requests.length / 4);
      expect(stats.largest).toBeGreaterThan(4);
    } else {
      const stats = t.store.versionedReads!.stats;
      const reads = stats.reads - sqliteBefore!.reads;
      // The valid cached keys' requests (A and B admin, A read-only, the key without the scope:
      // 7 of the 10 cases) read their ticket with the cache's version...
      expect(reads).toBe(4 * 7);
      // ...in far fewer read transactions than reads.
      expect(stats.transactions - sqliteBefore!.transactions).toBeLessThan(reads / 4);
      expect(stats.largest).toBeGreaterThan(4);
    }
  });

  it('a key revoked between two bursts is refused in the second, the others still answered', async () => {
    const key = await a.key({});
    const ticket = await newTicket(a.adminKey, 'Read before and after a revocation');
    const burst = () =>
      Promise.all([
        t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key }),
        t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}` }),
        t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key }),
        t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key: b.adminKey }),
      ]);
    expect((await burst()).map((r) => r.statusCode)).toEqual([200, 200, 200, 404]);
    await t.store.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('key_hash', '=', hashApiKey(key)).execute();
    expect((await burst()).map((r) => r.statusCode)).toEqual([401, 200, 401, 404]);
  });
});

describe('a batch that fails', () => {
  it('a store that is gone: every request of the burst is its own 503 with Retry-After', async () => {
    const broken = await buildTestApp();
    try {
      const ids = Array.from({ length: 6 }, () => randomUUID());
      // Used once first, so on SQLite the key is cached and the burst's reads go as one group.
      expect((await broken.request({ method: 'GET', url: `/v1/tickets/${ids[0]}` })).statusCode).toBe(404);
      await broken.store.close();
      const responses = await Promise.all(ids.map((id) => broken.request({ method: 'GET', url: `/v1/tickets/${id}` })));
      for (const res of responses) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('2');
        expect(res.json()).toStrictEqual({ detail: 'The data store is temporarily unavailable; retry shortly', request_id: res.headers['x-request-id'] });
      }
    } finally {
      await broken.app.close();
    }
  });

  it.runIf(TEST_STORE === 'postgres')('the statement timeout still bounds the shared statement: a locked table is a 503 per request, then served again', async () => {
    const slow = await buildTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '300' });
    try {
      const ticket = await (async () => {
        const res = await slow.request({
          method: 'POST',
          url: '/v1/tickets',
          body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Locked', description: 'Behind a lock' },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json<{ id: string }>();
      })();
      const burst = () => Promise.all(Array.from({ length: 6 }, () => slow.request({ method: 'GET', url: `/v1/tickets/${ticket.id}` })));
      const started = Date.now();
      const locked = await slow.store.db.transaction().execute(async (trx) => {
        await sql`lock table tickets in access exclusive mode`.execute(trx);
        return burst();
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      for (const res of locked) {
        expect(res.statusCode).toBe(503);
        expect(res.headers['retry-after']).toBe('2');
      }
      expect((await burst()).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    } finally {
      await slow.close();
    }
  });
});
