import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

// Changing keys, and what a key may do to other keys (its scopes, its expiry, its organization);
// creating, listing, reading and revoking keys is api-keys.test.ts.

interface KeyBody {
  id: string;
  name: string;
  key_prefix: string;
  role: 'admin' | 'readonly';
  scopes: string[];
  holder_user_id: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}
interface CreatedKey extends KeyBody {
  key: string;
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

async function createKey(body: Record<string, unknown>, key: string = t.org.adminKey): Promise<CreatedKey> {
  const res = await t.request({ method: 'POST', url: '/v1/api-keys', body: { name: 'test', ...body }, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedKey>();
}

async function getKey(id: string, key: string = t.org.adminKey): Promise<KeyBody> {
  const res = await t.request({ method: 'GET', url: `/v1/api-keys/${id}`, key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<KeyBody>();
}

async function list(query = '', key: string = t.org.adminKey): Promise<KeyBody[]> {
  const res = await t.request({ method: 'GET', url: `/v1/api-keys${query}`, key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<KeyBody[]>();
}

async function createUser(key: string = t.org.adminKey): Promise<string> {
  const email = `holder-${Math.random().toString(36).slice(2)}@example.com`;
  const res = await t.request({ method: 'POST', url: '/v1/users', body: { email, full_name: 'Holder' }, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

const withoutKey = (created: CreatedKey): KeyBody => {
  const record: Partial<CreatedKey> = { ...created };
  delete record.key;
  return record as KeyBody;
};

describe('api keys: update', () => {
  it('changes the name, scopes, expiry and holder of an admin key; only the fields sent', async () => {
    const created = await createKey({ name: 'before', role: 'admin', scopes: ['tickets:read'] });
    const holder = await createUser();
    const expiresAt = inHours(10);
    const res = await t.request({
      method: 'PATCH',
      url: `/v1/api-keys/${created.id}`,
      body: { name: 'after', scopes: ['tickets:read', 'customers:write'], expires_at: expiresAt, holder_user_id: holder },
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json<KeyBody>();
    expect(updated).toEqual({ ...withoutKey(created), name: 'after', scopes: ['tickets:read', 'customers:write'], expires_at: expiresAt, holder_user_id: holder });
    expect(await getKey(created.id)).toEqual(updated);

    const partial = await t.request({ method: 'PATCH', url: `/v1/api-keys/${created.id}`, body: { expires_at: null, holder_user_id: null } });
    expect(partial.json()).toEqual({ ...updated, expires_at: null, holder_user_id: null });
    const empty = await t.request({ method: 'PATCH', url: `/v1/api-keys/${created.id}`, body: {} });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ ...updated, expires_at: null, holder_user_id: null });
  });

  it('a scope change holds from the next request on', async () => {
    const created = await createKey({ role: 'admin', scopes: ['tickets:read'] });
    expect((await t.request({ method: 'GET', url: '/v1/customers', key: created.key })).statusCode).toBe(403);
    await t.request({ method: 'PATCH', url: `/v1/api-keys/${created.id}`, body: { scopes: ['customers:read'] } });
    expect((await t.request({ method: 'GET', url: '/v1/customers', key: created.key })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/tickets', key: created.key })).statusCode).toBe(403);
  });

  it('an expiry moved into the past is refused (422); a key can be set to expire soon', async () => {
    const created = await createKey({ role: 'admin' });
    const past = await t.request({ method: 'PATCH', url: `/v1/api-keys/${created.id}`, body: { expires_at: new Date(Date.now() - 1).toISOString() } });
    expect(past.statusCode).toBe(422);
    expect(past.json()).toMatchObject({ errors: [{ field: 'body.expires_at', message: 'must be in the future' }] });
    expect((await getKey(created.id)).expires_at).toBeNull();
  });

  it('of a read-only key only the name can change: scopes, expiry and holder are 422', async () => {
    const holder = await createUser();
    const ro = await createKey({ name: 'ro', role: 'readonly', scopes: ['tickets:read'] });
    for (const body of [{ scopes: ['customers:read'] }, { expires_at: inHours(1) }, { expires_at: null }, { holder_user_id: holder }, { name: 'x', scopes: ['tickets:read'] }]) {
      const res = await t.request({ method: 'PATCH', url: `/v1/api-keys/${ro.id}`, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      const field = `body.${Object.keys(body).filter((k) => k !== 'name')[0]}`;
      expect(res.json()).toMatchObject({ errors: [{ field, message: 'cannot be changed on a read-only key; only its name can' }] });
    }
    expect(await getKey(ro.id)).toEqual(withoutKey(ro));
    const renamed = await t.request({ method: 'PATCH', url: `/v1/api-keys/${ro.id}`, body: { name: 'dashboard' } });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...withoutKey(ro), name: 'dashboard' });
  });

  it('role is not a field that can change (422)', async () => {
    const created = await createKey({ role: 'admin' });
    const res = await t.request({ method: 'PATCH', url: `/v1/api-keys/${created.id}`, body: { role: 'readonly' } });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: 'body.role' }] });
  });

  it.each([
    ['unknown scope', { scopes: ['nope:read'] }, 'body.scopes.0'],
    ['unknown holder', { holder_user_id: MISSING }, 'body.holder_user_id'],
    ['empty name', { name: '' }, 'body.name'],
    ['key_prefix', { key_prefix: 'key_admin_aaaaaa' }, 'body.key_prefix'],
  ])('validation: %s', async (_name, body, field) => {
    const created = await createKey({ role: 'admin' });
    const res = await t.request({ method: 'PATCH', url: `/v1/api-keys/${created.id}`, body });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
    expect(await getKey(created.id)).toEqual(withoutKey(created));
  });

  it('a restricted admin key cannot give scopes it lacks, not even to itself (403)', async () => {
    const restricted = await createKey({ role: 'admin', scopes: ['tickets:read'] });
    const res = await t.request({ method: 'PATCH', url: `/v1/api-keys/${restricted.id}`, key: restricted.key, body: { scopes: ['tickets:read', 'users:delete'] } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Insufficient permissions: requires users:delete' });
    expect((await getKey(restricted.id)).scopes).toEqual(['tickets:read']);
    // Narrowing is allowed.
    const narrowed = await t.request({ method: 'PATCH', url: `/v1/api-keys/${restricted.id}`, key: restricted.key, body: { scopes: [] } });
    expect(narrowed.statusCode).toBe(200);
    expect(narrowed.json()).toMatchObject({ scopes: [] });
  });

  it('a revoked or expired key cannot be changed (409)', async () => {
    const revoked = await createKey({ role: 'admin' });
    await t.request({ method: 'DELETE', url: `/v1/api-keys/${revoked.id}` });
    const res = await t.request({ method: 'PATCH', url: `/v1/api-keys/${revoked.id}`, body: { expires_at: null } });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ detail: string }>().detail).toMatch(/revoked/);

    await t.org.key({ name: 'expired-for-patch', expiresAt: new Date(Date.now() - 1000).toISOString() });
    const expired = (await list('?status=expired&limit=100')).find((k) => k.name === 'expired-for-patch')!;
    const again = await t.request({ method: 'PATCH', url: `/v1/api-keys/${expired.id}`, body: { expires_at: inHours(1) } });
    expect(again.statusCode).toBe(409);
    expect(again.json<{ detail: string }>().detail).toMatch(/expired/);
    expect(await getKey(expired.id)).toEqual(expired);
  });
});

describe('api keys: key authority', () => {
  /** The record as the unrestricted admin key sees it, for "nothing changed" checks (use aside). */
  const snapshot = async (id: string) => ({ ...(await getKey(id)), last_used_at: null });
  const patch = (id: string, body: Record<string, unknown>, key: string) => t.request({ method: 'PATCH', url: `/v1/api-keys/${id}`, body, key });
  const revoke = (id: string, key: string) => t.request({ method: 'DELETE', url: `/v1/api-keys/${id}`, key });
  const adminRecord = async () => (await list('?limit=100')).find((k) => k.key_prefix === t.org.adminKey.slice(0, 16))!;
  const expectForbidden = (res: { statusCode: number; json: <T>() => T }, detail: RegExp) => {
    expect(res.statusCode).toBe(403);
    expect(res.json<{ detail: string }>().detail).toMatch(detail);
  };

  it('a 1-hour admin key holding only tickets:read cannot outlive itself, mint a stronger key or touch the admin key', async () => {
    const short = await createKey({ role: 'admin', scopes: ['tickets:read'], expires_at: inHours(1) });
    const own = await snapshot(short.id);
    // Never extend its own expiry: neither remove it nor move it later.
    expectForbidden(await patch(short.id, { expires_at: null }, short.key), /^Insufficient permissions: requires a key that never expires \(this key expires at /);
    expectForbidden(await patch(short.id, { expires_at: inHours(2) }, short.key), /requires a key that expires no earlier than/);
    expect(await snapshot(short.id)).toEqual(own);
    // No key that never expires, outlives it, or holds more scopes.
    for (const body of [
      { role: 'admin', scopes: ['tickets:read'] },
      { role: 'admin', scopes: ['tickets:read'], expires_at: inHours(2) },
      { role: 'readonly', scopes: ['tickets:read'] },
    ]) {
      const res = await t.request({ method: 'POST', url: '/v1/api-keys', key: short.key, body: { name: 'stronger', ...body } });
      expectForbidden(res, /requires a key that (never expires|expires no earlier than)/);
    }
    expectForbidden(
      await t.request({ method: 'POST', url: '/v1/api-keys', key: short.key, body: { name: 'x', role: 'admin', scopes: ['tickets:read', 'tickets:write'], expires_at: inHours(0.5) } }),
      /^Insufficient permissions: requires tickets:write$/,
    );
    expect((await list('?limit=100')).filter((k) => k.name === 'stronger')).toEqual([]);
    // The unrestricted admin key is out of its reach: not its scopes, not its name, not revoking it.
    const admin = await adminRecord();
    expectForbidden(await patch(admin.id, { scopes: [] }, short.key), /^Insufficient permissions: requires /);
    expectForbidden(await patch(admin.id, { name: 'mine now' }, short.key), /^Insufficient permissions: requires /);
    expectForbidden(await revoke(admin.id, short.key), /^Insufficient permissions: requires /);
    expect(await adminRecord()).toMatchObject({ scopes: admin.scopes, name: admin.name, revoked_at: null });
    expect((await t.request({ method: 'GET', url: '/v1/test' })).statusCode).toBe(200);

    // Within its authority it works: a narrower, shorter-lived key; shortening or narrowing itself.
    const child = await createKey({ role: 'admin', scopes: ['tickets:read'], expires_at: inHours(0.5) }, short.key);
    expect(child.scopes).toEqual(['tickets:read']);
    expect((await patch(child.id, { name: 'child' }, short.key)).statusCode).toBe(200);
    const shorter = await patch(short.id, { expires_at: inHours(0.75) }, short.key);
    expect(shorter.statusCode, shorter.body).toBe(200);
    expect((await patch(short.id, { scopes: [] }, short.key)).statusCode).toBe(200);
    // And it may always revoke itself, whatever it has become.
    expect((await revoke(short.id, short.key)).statusCode).toBe(204);
  });

  it('a tickets:read,tickets:write key cannot revoke the all-scope admin key, only keys within its scopes', async () => {
    const writer = await createKey({ role: 'admin', scopes: ['tickets:read', 'tickets:write'] });
    const admin = await adminRecord();
    expectForbidden(await revoke(admin.id, writer.key), /^Insufficient permissions: requires (?!tickets:(read|write))\w+:\w+$/);
    expect((await adminRecord()).revoked_at).toBeNull();
    expect((await t.request({ method: 'GET', url: '/v1/tickets' })).statusCode).toBe(200);

    const stronger = await createKey({ role: 'admin', scopes: ['tickets:read', 'tickets:delete'] });
    expectForbidden(await revoke(stronger.id, writer.key), /^Insufficient permissions: requires tickets:delete$/);
    expect((await snapshot(stronger.id)).revoked_at).toBeNull();

    const narrower = await createKey({ role: 'admin', scopes: ['tickets:read'], expires_at: inHours(5) });
    expect((await revoke(narrower.id, writer.key)).statusCode).toBe(204);
    const readonly = await createKey({ role: 'readonly', scopes: ['tickets:read'] });
    expect((await revoke(readonly.id, writer.key)).statusCode).toBe(204);
  });

  it('checks the key as it would become: a narrow key cannot raise a narrower one', async () => {
    const writer = await createKey({ role: 'admin', scopes: ['tickets:read', 'tickets:write'] });
    const narrower = await createKey({ role: 'admin', scopes: ['tickets:read'], expires_at: inHours(5) });
    expectForbidden(await patch(narrower.id, { scopes: ['tickets:read', 'users:read'] }, writer.key), /^Insufficient permissions: requires users:read$/);
    expect((await snapshot(narrower.id)).scopes).toEqual(['tickets:read']);
    // A caller that never expires may lift the expiry of a key within its scopes.
    const lifted = await patch(narrower.id, { expires_at: null, scopes: ['tickets:read', 'tickets:write'] }, writer.key);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json()).toMatchObject({ expires_at: null, scopes: ['tickets:read', 'tickets:write'] });
  });

  it('the CLI is the operator and is not bound (keys made through it are the way back in)', async () => {
    // Keys made by the operator (the test helper calls the same createApiKey as `ticketing keys create`).
    const operatorKey = await t.org.key({ name: 'made by the operator', scopes: ['users:read'] });
    const res = await t.request({ method: 'GET', url: '/v1/users', key: operatorKey });
    expect(res.statusCode).toBe(200);
  });
});

describe('api keys: access and tenancy', () => {
  it.each([
    ['GET', '/v1/api-keys', undefined],
    ['GET', `/v1/api-keys/${MISSING}`, undefined],
    ['POST', '/v1/api-keys', { name: 'x', role: 'admin' }],
    ['PATCH', `/v1/api-keys/${MISSING}`, { name: 'x' }],
    ['DELETE', `/v1/api-keys/${MISSING}`, undefined],
  ] as const)('%s %s without a key is 401', async (method, url, body) => {
    const res = await t.request({ method, url, body, key: null });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it.each(['GET', 'PATCH', 'DELETE'] as const)("%s of another organization's key, or an unknown one, is 404 and changes nothing", async (method) => {
    const other = await t.newOrg('Keys tenancy org');
    const theirs = await createKey({ name: 'theirs', role: 'admin' }, other.adminKey);
    for (const id of [theirs.id, MISSING]) {
      const res = await t.request({ method, url: `/v1/api-keys/${id}`, body: method === 'PATCH' ? { name: 'hijacked' } : undefined });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'API key not found' });
    }
    expect(await getKey(theirs.id, other.adminKey)).toEqual(withoutKey(theirs));
    expect((await t.request({ method: 'GET', url: '/v1/test', key: theirs.key })).statusCode).toBe(200);
  });

  it.each(['GET', 'PATCH', 'DELETE'] as const)('a malformed id in the path of %s is 422', async (method) => {
    const res = await t.request({ method, url: '/v1/api-keys/not-a-uuid', body: method === 'PATCH' ? {} : undefined });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: 'path.key_id' }] });
  });

  it('POST and PATCH bodies must be JSON (415)', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/api-keys', body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.statusCode).toBe(415);
  });

  it('an admin key needs no particular scope to manage keys', async () => {
    const bare = await createKey({ role: 'admin', scopes: [] });
    const made = await createKey({ name: 'made by bare', role: 'readonly', scopes: [] }, bare.key);
    expect(made.scopes).toEqual([]);
    expect((await list('?limit=100', bare.key)).map((k) => k.id)).toContain(made.id);
  });
});
