import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiKey, hashApiKey } from '../src/auth/key-format.js';
import { READONLY_KEY_LIFETIME_MS, resolveScopes } from '../src/auth/keys.service.js';
import { ALL_SCOPES, READ_SCOPES } from '../src/auth/scopes.js';
import { AppError, UNAUTHORIZED_DETAILS, type UnauthorizedReason } from '../src/errors.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

interface KeyTest {
  status: string;
  message: string;
  key_prefix: string;
  scopes: string[];
  expires_at: string | null;
}

/** Asserts a 401 answer with the detail for its reason. */
function expectUnauthorized(
  res: { statusCode: number; headers: Record<string, unknown>; json: () => unknown },
  reason: UnauthorizedReason = 'invalid',
): void {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ detail: UNAUTHORIZED_DETAILS[reason] });
  expect(res.headers['www-authenticate']).toBe('Bearer');
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
}

/** Changes one character of the secret part, keeping the key's shape. */
function flipOneChar(key: string, index: number): string {
  const c = key[index]!;
  const replacement = c === 'A' ? 'B' : 'A';
  return key.slice(0, index) + replacement + key.slice(index + 1);
}

describe('authentication: every bad credential is 401', () => {
  it('a missing Authorization header is 401 with WWW-Authenticate: Bearer', async () => {
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/tickets', key: null }), 'missing');
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/test', key: null }), 'missing');
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/test', key: null, headers: { authorization: '  ' } }), 'missing');
  });

  it.each([
    ['Basic scheme', (): string => `Basic ${Buffer.from(`user:${t.org.adminKey}`).toString('base64')}`, 'scheme'],
    ['Basic scheme carrying the key itself', (): string => `Basic ${t.org.adminKey}`, 'scheme'],
    ['Token scheme', (): string => `Token ${t.org.adminKey}`, 'scheme'],
    ['the key without any scheme', (): string => t.org.adminKey, 'scheme'],
    ['a scheme glued to the key', (): string => `Bearer:${t.org.adminKey}`, 'scheme'],
    ['an empty bearer', (): string => 'Bearer ', 'malformed'],
    ['the bare word Bearer', (): string => 'Bearer', 'malformed'],
    ['garbage', (): string => 'Bearer !!not-a-key!!', 'malformed'],
    ['a key with trailing junk', (): string => `Bearer ${t.org.adminKey}x`, 'malformed'],
    ['two tokens', (): string => `Bearer ${t.org.adminKey} ${t.org.adminKey}`, 'malformed'],
  ] as const)('%s is 401 saying what is wrong', async (_name, header, reason) => {
    const res = await t.request({ method: 'GET', url: '/v1/test', key: null, headers: { authorization: header() } });
    expectUnauthorized(res, reason);
  });

  it('unknown, revoked and expired keys get the very same answer, so no answer tells which keys exist', async () => {
    const expired = await t.org.key({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    const revoked = await t.org.key({});
    await t.store.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('key_hash', '=', hashApiKey(revoked)).execute();
    const answers = [];
    for (const key of [generateApiKey('admin').key, expired, revoked]) {
      const res = await t.request({ method: 'GET', url: '/v1/tickets', key });
      answers.push({ status: res.statusCode, body: res.body, authenticate: res.headers['www-authenticate'] });
    }
    expect(answers[0]).toEqual({ status: 401, body: JSON.stringify({ detail: UNAUTHORIZED_DETAILS.invalid }), authenticate: 'Bearer' });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('a well-formed key with a wrong checksum is 401', async () => {
    const key = t.org.adminKey;
    // The last character is part of the checksum, one in the middle is part of the secret.
    for (const index of [key.length - 1, 'key_admin_'.length + 10]) {
      const tampered = flipOneChar(key, index);
      expect(tampered).not.toBe(key);
      expect(tampered).toHaveLength(key.length);
      expectUnauthorized(await t.request({ method: 'GET', url: '/v1/test', key: tampered }), 'malformed');
    }
  });

  it('an unknown key with a valid checksum is 401', async () => {
    const unknownAdmin = generateApiKey('admin').key;
    const unknownRo = generateApiKey('readonly').key;
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/test', key: unknownAdmin }));
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/tickets', key: unknownRo }));
  });

  it('an expired key is 401', async () => {
    const expired = await t.org.key({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/test', key: expired }));
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/tickets', key: expired }));
  });

  it('a key that expires in the future works, then a revoked key is 401', async () => {
    const key = await t.org.key({ expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await t.request({ method: 'GET', url: '/v1/test', key })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/tickets', key })).statusCode).toBe(200);

    const updated = await t.store.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('key_hash', '=', hashApiKey(key))
      .executeTakeFirst();
    expect(Number(updated.numUpdatedRows)).toBe(1);

    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/test', key }));
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/tickets', key }));
  });

  it('the bearer scheme name is case-insensitive', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const res = await t.request({
        method: 'GET',
        url: '/v1/test',
        key: null,
        headers: { authorization: `${scheme} ${t.org.adminKey}` },
      });
      expect(res.statusCode, scheme).toBe(200);
      expect(res.json<KeyTest>().status).toBe('ok');
    }
  });
});

describe('GET /v1/test', () => {
  it('describes a default admin key: every scope, no expiry', async () => {
    const res = await t.request({ method: 'GET', url: '/v1/test' });
    expect(res.statusCode).toBe(200);
    const body = res.json<KeyTest>();
    const secret = t.org.adminKey.slice('key_admin_'.length);
    expect(body).toEqual({
      status: 'ok',
      message: 'API key is valid',
      key_prefix: `key_admin_${secret.slice(0, 6)}`,
      scopes: [...ALL_SCOPES],
      expires_at: null,
    });
    expect(body.key_prefix).toHaveLength(16);
    // Every scope: the 19 of the resources and the dashboard, events:read, webhooks:read|write|delete,
    // fields:read|write|delete, mailboxes:read|write|delete, views:read|write|delete, macros:read|write|delete,
    // automations:read|write|delete, sla:read|write|delete.
    expect(body.scopes).toHaveLength(41);
    expect(t.org.adminKey.startsWith(body.key_prefix)).toBe(true);
  });

  it('describes a read-only key: only read scopes, expiring 72 hours after creation', async () => {
    const before = Date.now();
    const key = await t.org.key({ role: 'readonly' });
    const after = Date.now();
    expect(key.startsWith('key_ro_')).toBe(true);

    const res = await t.request({ method: 'GET', url: '/v1/test', key });
    expect(res.statusCode).toBe(200);
    const body = res.json<KeyTest>();
    expect(body.status).toBe('ok');
    expect(body.message).toBe('API key is valid');
    expect(body.key_prefix).toBe(key.slice(0, 'key_ro_'.length + 6));
    expect(body.scopes).toEqual([...READ_SCOPES]);
    expect(body.scopes.every((s) => s.endsWith(':read'))).toBe(true);
    expect(body.scopes).toHaveLength(15);
    expect(body.scopes).toContain('automations:read');
    expect(body.scopes).toContain('sla:read');
    expect(body.scopes).toContain('fields:read');
    expect(body.scopes).toContain('views:read');
    expect(body.scopes).toContain('macros:read');
    expect(body.scopes).toContain('mailboxes:read');

    expect(body.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const expiresAt = Date.parse(body.expires_at!);
    const lifetime = 72 * 60 * 60 * 1000;
    expect(READONLY_KEY_LIFETIME_MS).toBe(lifetime);
    expect(expiresAt).toBeGreaterThanOrEqual(before + lifetime - 60_000);
    expect(expiresAt).toBeLessThanOrEqual(after + lifetime + 60_000);
  });

  it('reports the scopes a key was given, and an admin key expiry', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const key = await t.org.key({ scopes: ['tickets:read', 'teams:write'], expiresAt });
    const res = await t.request({ method: 'GET', url: '/v1/test', key });
    expect(res.statusCode).toBe(200);
    expect(res.json<KeyTest>()).toMatchObject({ scopes: ['tickets:read', 'teams:write'], expires_at: expiresAt });
  });

  it('needs a valid key but no particular scope', async () => {
    const key = await t.org.key({ scopes: [] });
    const res = await t.request({ method: 'GET', url: '/v1/test', key });
    expect(res.statusCode).toBe(200);
    expect(res.json<KeyTest>()).toMatchObject({ status: 'ok', scopes: [] });
    // ...while the same key is refused by a route that needs a scope.
    const tickets = await t.request({ method: 'GET', url: '/v1/tickets', key });
    expect(tickets.statusCode).toBe(403);
    expect(tickets.json()).toEqual({ detail: 'Insufficient permissions: requires tickets:read' });
  });

  it('never echoes the plain key', async () => {
    const res = await t.request({ method: 'GET', url: '/v1/test' });
    expect(res.body).not.toContain(t.org.adminKey);
    expect(res.body).not.toContain(t.org.adminKey.slice('key_admin_'.length));
  });
});

describe('keys at rest', () => {
  it('stores only a SHA-256 hash: the plain key is nowhere in the api_keys table', async () => {
    const key = await t.org.key({ role: 'readonly' });
    const rows = await t.store.db.selectFrom('api_keys').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const dump = JSON.stringify(rows);
    for (const plain of [t.org.adminKey, key]) {
      expect(dump).not.toContain(plain);
      // Not even the secret without its type prefix, nor secret + checksum.
      expect(dump).not.toContain(plain.slice(plain.indexOf('_', 4) + 1));
    }
    const hashes = rows.map((r) => r.key_hash);
    expect(hashes).toContain(hashApiKey(key));
    expect(hashes).toContain(hashApiKey(t.org.adminKey));
    for (const h of hashes) expect(h).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('scopes a key may carry', () => {
  it('a read-only key asking for a write or delete scope is rejected with a 422', () => {
    for (const scope of ['tickets:write', 'customers:delete']) {
      let thrown: unknown;
      try {
        resolveScopes('readonly', ['tickets:read', scope]);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AppError);
      const appError = thrown as AppError;
      expect(appError.statusCode).toBe(422);
      expect(appError.errors?.[0]?.field).toBe('body.scopes');
      expect(appError.detail).toContain(scope);
    }
  });

  it('creating such a read-only key fails and stores nothing', async () => {
    const before = await t.store.db.selectFrom('api_keys').select('id').execute();
    await expect(t.org.key({ role: 'readonly', scopes: ['tickets:write'] })).rejects.toMatchObject({ statusCode: 422 });
    const after = await t.store.db.selectFrom('api_keys').select('id').execute();
    expect(after).toHaveLength(before.length);
  });

  it('unknown scopes are rejected; defaults are all scopes for admin and all read scopes for read-only', () => {
    expect(() => resolveScopes('admin', ['tickets:fly'])).toThrow(AppError);
    expect(resolveScopes('admin', undefined)).toEqual([...ALL_SCOPES]);
    expect(resolveScopes('readonly', undefined)).toEqual([...READ_SCOPES]);
    expect(resolveScopes('readonly', ['tickets:read', 'dashboard:read'])).toEqual(['tickets:read', 'dashboard:read']);
  });
});

describe('key lifetime through the key-management API', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function createKeyViaApi(body: Record<string, unknown>): Promise<{ id: string; key: string; created_at: string; expires_at: string | null }> {
    const res = await t.request({ method: 'POST', url: '/v1/api-keys', body: { name: 'lifetime', ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  it('a read-only key works until 72 hours after its creation, then is 401', async () => {
    const created = await createKeyViaApi({ role: 'readonly' });
    const expiresAt = Date.parse(created.expires_at!);
    expect(expiresAt - Date.parse(created.created_at)).toBe(READONLY_KEY_LIFETIME_MS);
    // Only Date is faked: the clock the authentication hook reads.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiresAt - 1000);
    expect((await t.request({ method: 'GET', url: '/v1/tickets', key: created.key })).statusCode).toBe(200);
    vi.setSystemTime(expiresAt);
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/tickets', key: created.key }));
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/test', key: created.key }));
  });

  it('an admin key with an expiry is 401 from that instant on', async () => {
    const created = await createKeyViaApi({ role: 'admin', expires_at: new Date(Date.now() + 60_000).toISOString() });
    expect((await t.request({ method: 'GET', url: '/v1/test', key: created.key })).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(created.expires_at!));
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/test', key: created.key }));
  });

  it('a key revoked through the API is refused on its very next request: nothing is cached', async () => {
    const created = await createKeyViaApi({ role: 'admin' });
    // Warm every path a cache could sit on: several successful requests in a row.
    for (let i = 0; i < 3; i++) expect((await t.request({ method: 'GET', url: '/v1/tickets', key: created.key })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/v1/api-keys/${created.id}` })).statusCode).toBe(204);
    expectUnauthorized(await t.request({ method: 'GET', url: '/v1/tickets', key: created.key }));
    expectUnauthorized(await t.request({ method: 'DELETE', url: `/v1/api-keys/${created.id}`, key: created.key }));
  });

  it('a read-only key asking to manage keys gets 403 before its body is read', async () => {
    const ro = await t.org.key({ role: 'readonly' });
    const res = await t.request({ method: 'POST', url: '/v1/api-keys', key: ro, body: '{"broken' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Insufficient permissions: requires an admin key' });
  });
});
