import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../src/auth/key-format.js';
import { openStore } from '../src/db/store.js';
import { UNAUTHORIZED_DETAILS } from '../src/errors.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/**
 * The hot path reads keys without a store round trip where it can (the key cache on SQLite) and
 * reads the ticket in the key's own statement where it cannot (PostgreSQL). Neither may let a
 * key through once it is revoked or expired: every test here uses a key first, so that it is
 * cached (or the statement is warm), then changes it and expects the very next request refused.
 */
let t: TestApp;
let ticketId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Hot path', description: 'Read me' } });
  expect(res.statusCode).toBe(201);
  ticketId = res.json<{ id: string }>().id;
});
afterAll(async () => {
  await t.close();
});

const get = (key: string, id = ticketId) => t.request({ method: 'GET', url: `/v1/tickets/${id}`, key });
const revokedAt = () => new Date().toISOString();

function expectRefused(res: { statusCode: number; json: () => unknown }): void {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ detail: UNAUTHORIZED_DETAILS.invalid });
}

describe('a key in use is refused on the very next request once it is no longer valid', () => {
  it('revoked through the same connection (the API, a user deactivated, a cascade)', async () => {
    const key = await t.org.key({});
    for (let i = 0; i < 3; i++) expect((await get(key)).statusCode).toBe(200);
    await t.store.db.updateTable('api_keys').set({ revoked_at: revokedAt() }).where('key_hash', '=', hashApiKey(key)).execute();
    expectRefused(await get(key));
    expectRefused(await t.request({ method: 'GET', url: '/v1/tickets', key }));
  });

  it('revoked through another connection to the store, as `ticketing keys revoke` or another process does', async () => {
    const key = await t.org.key({});
    for (let i = 0; i < 3; i++) expect((await get(key)).statusCode).toBe(200);
    const other = openStore({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
    try {
      await other.db.updateTable('api_keys').set({ revoked_at: revokedAt() }).where('key_hash', '=', hashApiKey(key)).execute();
    } finally {
      await other.close();
    }
    expectRefused(await get(key));
    expectRefused(await t.request({ method: 'GET', url: '/v1/test', key }));
  });

  // SQLite only (a second connection to the file, synchronous).
  it.skipIf(process.env.TEST_STORE === 'postgres')('revoked through another connection between two requests of the same turn of the event loop', async () => {
    // No I/O between the two requests (injected, a synchronous revoke): a check of the store's
    // version shared by the requests of one turn would let the second one through.
    const key = await t.org.key({});
    for (let i = 0; i < 3; i++) expect((await t.request({ method: 'GET', url: '/v1/test', key })).statusCode).toBe(200);
    const other = new BetterSqlite3(t.store.file!);
    try {
      other.prepare('update api_keys set revoked_at = ? where key_hash = ?').run(revokedAt(), hashApiKey(key));
    } finally {
      other.close();
    }
    expectRefused(await get(key));
  });

  it('deleted (its organization deleted) through another connection', async () => {
    const org = await t.newOrg();
    const key = org.adminKey;
    expect((await t.request({ method: 'GET', url: '/v1/test', key })).statusCode).toBe(200);
    const other = openStore({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
    try {
      await other.db.deleteFrom('api_keys').where('key_hash', '=', hashApiKey(key)).execute();
    } finally {
      await other.close();
    }
    expectRefused(await t.request({ method: 'GET', url: '/v1/test', key }));
  });

  it('expired while in use: its expiry is checked on every request', async () => {
    const key = await t.org.key({ expiresAt: new Date(Date.now() + 1_500).toISOString() });
    expect((await get(key)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    expectRefused(await get(key));
  });

  it('a key that was refused and is valid again is taken again (nothing negative is kept)', async () => {
    const key = await t.org.key({});
    const hash = hashApiKey(key);
    expect((await get(key)).statusCode).toBe(200);
    await t.store.db.updateTable('api_keys').set({ revoked_at: revokedAt() }).where('key_hash', '=', hash).execute();
    expectRefused(await get(key));
    await t.store.db.updateTable('api_keys').set({ revoked_at: null }).where('key_hash', '=', hash).execute();
    expect((await get(key)).statusCode).toBe(200);
  });
});

describe('GET by id with the ticket read in the key statement', () => {
  it('answers the same ticket as the list, and 404 for an unknown id or another organization\'s ticket', async () => {
    const key = await t.org.key({});
    const one = await get(key);
    expect(one.statusCode).toBe(200);
    const list = (await t.request({ method: 'GET', url: '/v1/tickets', key })).json<Array<{ id: string }>>();
    expect(one.json()).toEqual(list.find((ticket) => ticket.id === ticketId));
    // Upper case: validated and lower-cased first, then read.
    expect((await get(key, ticketId.toUpperCase())).json()).toEqual(one.json());
    expect((await get(key, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const other = await t.newOrg();
    const foreign = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}`, key: other.adminKey });
    expect(foreign.statusCode).toBe(404);
    expect((await get(key, 'not-a-uuid')).statusCode).toBe(422);
  });

  it('keeps the check order: a key without the scope is 403, a revoked one 401 even for an unknown ticket', async () => {
    const noScope = await t.org.key({ role: 'readonly', scopes: ['customers:read'] });
    expect((await get(noScope)).statusCode).toBe(403);
    const key = await t.org.key({});
    expect((await get(key)).statusCode).toBe(200);
    await t.store.db.updateTable('api_keys').set({ revoked_at: revokedAt() }).where('key_hash', '=', hashApiKey(key)).execute();
    expectRefused(await get(key, '00000000-0000-4000-8000-000000000000'));
    expectRefused(await get(key));
  });
});
