import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { ALL_SCOPES, READ_SCOPES } from '../../auth/scopes.js';
import { UNAUTHORIZED_DETAILS } from '../../errors.js';

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
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
const RECORD_FIELDS = ['created_at', 'expires_at', 'holder_user_id', 'id', 'key_prefix', 'last_used_at', 'name', 'revoked_at', 'role', 'scopes'];

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

describe('api keys: create', () => {
  it('creates an admin key: 201 with the plain key once and the record; the key works at once', async () => {
    const created = await createKey({ name: 'CI pipeline', role: 'admin' });
    expect(Object.keys(created).sort()).toEqual([...RECORD_FIELDS, 'key'].sort());
    expect(created.key).toMatch(/^key_admin_[0-9A-Za-z]{38}$/);
    expect(created).toMatchObject({
      name: 'CI pipeline',
      role: 'admin',
      scopes: [...ALL_SCOPES],
      holder_user_id: null,
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
    });
    expect(created.key_prefix).toBe(created.key.slice(0, 'key_admin_'.length + 6));
    expect(created.created_at).toMatch(ISO);

    const test = await t.request({ method: 'GET', url: '/v1/test', key: created.key });
    expect(test.statusCode).toBe(200);
    expect(test.json()).toMatchObject({ key_prefix: created.key_prefix, scopes: [...ALL_SCOPES], expires_at: null });
  });

  it('never shows the plain key again, nor its hash', async () => {
    const created = await createKey({ role: 'admin' });
    const secret = created.key.slice('key_admin_'.length);
    const got = await t.request({ method: 'GET', url: `/v1/api-keys/${created.id}` });
    const listed = await t.request({ method: 'GET', url: '/v1/api-keys?limit=100' });
    for (const res of [got, listed]) {
      expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain('key_hash');
      expect(res.body).not.toContain('"key"');
    }
    expect(got.json()).toEqual(withoutKey(created));
    expect(Object.keys(got.json<KeyBody>()).sort()).toEqual(RECORD_FIELDS);
  });

  it('creates a read-only key: key_ro_, every read scope by default, expiring 72 hours after creation', async () => {
    const before = Date.now();
    const created = await createKey({ role: 'readonly' });
    const after = Date.now();
    expect(created.key).toMatch(/^key_ro_/);
    expect(created.scopes).toEqual([...READ_SCOPES]);
    const expires = Date.parse(created.expires_at!);
    expect(expires - Date.parse(created.created_at)).toBe(72 * HOUR);
    expect(expires).toBeGreaterThanOrEqual(before + 72 * HOUR);
    expect(expires).toBeLessThanOrEqual(after + 72 * HOUR);
  });

  it('gives the scopes, holder and expiry asked for', async () => {
    const holder = await createUser();
    const expiresAt = inHours(5);
    const created = await createKey({ role: 'admin', scopes: ['tickets:read', 'tickets:write', 'tickets:read'], holder_user_id: holder, expires_at: expiresAt });
    expect(created).toMatchObject({ scopes: ['tickets:read', 'tickets:write'], holder_user_id: holder, expires_at: expiresAt });
    const ro = await createKey({ role: 'readonly', scopes: ['dashboard:read'], holder_user_id: holder });
    expect(ro).toMatchObject({ scopes: ['dashboard:read'], holder_user_id: holder });
    const tickets = await t.request({ method: 'GET', url: '/v1/tickets', key: ro.key });
    expect(tickets.statusCode).toBe(403);
  });

  it('stores an expiry given with an offset in UTC', async () => {
    const local = new Date(Date.now() + 2 * HOUR);
    const withOffset = new Date(local.getTime() + 2 * HOUR).toISOString().replace('Z', '+02:00');
    const created = await createKey({ role: 'admin', expires_at: withOffset });
    expect(created.expires_at).toBe(local.toISOString());
  });

  it('defaults a restricted admin caller to the scopes it holds, and refuses to grant others (403)', async () => {
    const restricted = await t.org.key({ scopes: ['tickets:read', 'tickets:write', 'customers:read'] });
    const admin = await createKey({ role: 'admin' }, restricted);
    expect(admin.scopes).toEqual(['tickets:read', 'tickets:write', 'customers:read']);
    const ro = await createKey({ role: 'readonly' }, restricted);
    expect(ro.scopes).toEqual(['tickets:read', 'customers:read']);

    const before = await list('?limit=100');
    const res = await t.request({ method: 'POST', url: '/v1/api-keys', key: restricted, body: { name: 'x', role: 'admin', scopes: ['tickets:read', 'tickets:delete'] } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Insufficient permissions: requires tickets:delete' });
    expect(await list('?limit=100')).toEqual(before);
  });

  describe('validation (422), storing nothing', () => {
    it.each([
      ['missing name', { role: 'admin' }, 'body.name'],
      ['empty name', { name: '', role: 'admin' }, 'body.name'],
      ['too-long name', { name: 'x'.repeat(256), role: 'admin' }, 'body.name'],
      ['missing role', { name: 'x' }, 'body.role'],
      ['unknown role', { name: 'x', role: 'owner' }, 'body.role'],
      ['unknown scope', { name: 'x', role: 'admin', scopes: ['tickets:read', 'tickets:fly'] }, 'body.scopes.1'],
      ['scopes not an array', { name: 'x', role: 'admin', scopes: 'tickets:read' }, 'body.scopes'],
      ['write scope on a read-only key', { name: 'x', role: 'readonly', scopes: ['tickets:read', 'tickets:write'] }, 'body.scopes'],
      ['expiry on a read-only key', { name: 'x', role: 'readonly', expires_at: new Date(Date.now() + HOUR).toISOString() }, 'body.expires_at'],
      ['past expiry', { name: 'x', role: 'admin', expires_at: new Date(Date.now() - 1000).toISOString() }, 'body.expires_at'],
      ['expiry not a date-time', { name: 'x', role: 'admin', expires_at: 'tomorrow' }, 'body.expires_at'],
      ['unknown holder', { name: 'x', role: 'admin', holder_user_id: MISSING }, 'body.holder_user_id'],
      ['malformed holder', { name: 'x', role: 'admin', holder_user_id: 'nope' }, 'body.holder_user_id'],
      ['unknown field', { name: 'x', role: 'admin', key_hash: 'abc' }, 'body.key_hash'],
    ])('%s', async (_name, body, field) => {
      const before = await list('?limit=100');
      const res = await t.request({ method: 'POST', url: '/v1/api-keys', body });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
      expect(await list('?limit=100')).toEqual(before);
    });

    it("a holder from another organization is 422", async () => {
      const other = await t.newOrg('Keys holder org');
      const theirUser = await createUser(other.adminKey);
      const res = await t.request({ method: 'POST', url: '/v1/api-keys', body: { name: 'x', role: 'admin', holder_user_id: theirUser } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ errors: [{ field: 'body.holder_user_id', message: 'does not name a user of this organization' }] });
    });
  });
});

describe('api keys: list', () => {
  let org: TestOrg;
  let keys: CreatedKey[];
  let holder: string;
  beforeAll(async () => {
    org = await t.newOrg('Keys list org');
    holder = await createUser(org.adminKey);
    keys = [];
    keys.push(await createKey({ name: 'k0', role: 'admin' }, org.adminKey));
    keys.push(await createKey({ name: 'k1', role: 'readonly', holder_user_id: holder }, org.adminKey));
    keys.push(await createKey({ name: 'k2', role: 'admin', holder_user_id: holder }, org.adminKey));
    keys.push(await createKey({ name: 'k3', role: 'readonly' }, org.adminKey));
  });

  it('lists every key of the organization newest first, the bootstrap key last', async () => {
    const all = await list('', org.adminKey);
    expect(all.map((k) => k.name)).toEqual(['k3', 'k2', 'k1', 'k0', 'test key']);
    expect(all.slice(0, 4)).toEqual(keys.map(withoutKey).reverse());
  });

  it('pages with limit and offset/skip; limit outside 1..100 is 422', async () => {
    expect((await list('?limit=2', org.adminKey)).map((k) => k.name)).toEqual(['k3', 'k2']);
    expect((await list('?limit=2&offset=2', org.adminKey)).map((k) => k.name)).toEqual(['k1', 'k0']);
    expect((await list('?limit=2&skip=3', org.adminKey)).map((k) => k.name)).toEqual(['k0', 'test key']);
    expect(await list('?offset=5', org.adminKey)).toEqual([]);
    for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?offset=1&skip=2']) {
      const res = await t.request({ method: 'GET', url: `/v1/api-keys${query}`, key: org.adminKey });
      expect(res.statusCode, query).toBe(422);
    }
  });

  it('filters by role, holder and status', async () => {
    expect((await list('?role=readonly', org.adminKey)).map((k) => k.name)).toEqual(['k3', 'k1']);
    expect((await list(`?holder_user_id=${holder}`, org.adminKey)).map((k) => k.name)).toEqual(['k2', 'k1']);
    expect((await list(`?holder_user_id=${holder}&role=admin`, org.adminKey)).map((k) => k.name)).toEqual(['k2']);

    const expired = await org.key({ name: 'expired', expiresAt: new Date(Date.now() - 1000).toISOString() });
    const revoked = await createKey({ name: 'revoked', role: 'admin' }, org.adminKey);
    expect((await t.request({ method: 'DELETE', url: `/v1/api-keys/${revoked.id}`, key: org.adminKey })).statusCode).toBe(204);
    expect(expired).toMatch(/^key_admin_/);

    expect((await list('?status=revoked', org.adminKey)).map((k) => k.name)).toEqual(['revoked']);
    expect((await list('?status=expired', org.adminKey)).map((k) => k.name)).toEqual(['expired']);
    expect((await list('?status=active', org.adminKey)).map((k) => k.name)).toEqual(['k3', 'k2', 'k1', 'k0', 'test key']);
    expect(await list('', org.adminKey)).toHaveLength(7);

    for (const query of ['?status=dead', '?role=owner', '?holder_user_id=nope', '?colour=red']) {
      const res = await t.request({ method: 'GET', url: `/v1/api-keys${query}`, key: org.adminKey });
      expect(res.statusCode, query).toBe(422);
    }
  });

  it("shows only the caller's organization", async () => {
    const mine = await list('?limit=100');
    const ids = new Set(mine.map((k) => k.id));
    for (const k of keys) expect(ids.has(k.id)).toBe(false);
  });
});

describe('api keys: what a read-only key sees and may do', () => {
  let org: TestOrg;
  let holder: string;
  let ro: CreatedKey;
  let sibling: CreatedKey;
  let stranger: CreatedKey;
  beforeAll(async () => {
    org = await t.newOrg('Keys readonly org');
    holder = await createUser(org.adminKey);
    const otherUser = await createUser(org.adminKey);
    ro = await createKey({ name: 'ro', role: 'readonly', holder_user_id: holder }, org.adminKey);
    sibling = await createKey({ name: 'sibling', role: 'admin', holder_user_id: holder }, org.adminKey);
    stranger = await createKey({ name: 'stranger', role: 'readonly', holder_user_id: otherUser }, org.adminKey);
  });

  it("lists only itself and its holder's keys; others are 404", async () => {
    expect((await list('', ro.key)).map((k) => k.name)).toEqual(['sibling', 'ro']);
    expect((await getKey(sibling.id, ro.key)).name).toBe('sibling');
    expect((await getKey(ro.id, ro.key)).name).toBe('ro');
    for (const id of [stranger.id, MISSING]) {
      const res = await t.request({ method: 'GET', url: `/v1/api-keys/${id}`, key: ro.key });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'API key not found' });
    }
    // Filters cannot widen what it sees.
    expect(await list(`?holder_user_id=${stranger.holder_user_id}`, ro.key)).toEqual([]);
  });

  it('without a holder it sees only itself', async () => {
    const lone = await createKey({ name: 'lone', role: 'readonly' }, org.adminKey);
    expect((await list('', lone.key)).map((k) => k.name)).toEqual(['lone']);
    expect((await t.request({ method: 'GET', url: `/v1/api-keys/${sibling.id}`, key: lone.key })).statusCode).toBe(404);
  });

  it('needs no particular scope to see its keys', async () => {
    const bare = await createKey({ name: 'bare', role: 'readonly', scopes: [] }, org.adminKey);
    expect((await list('', bare.key)).map((k) => k.name)).toEqual(['bare']);
  });

  it('cannot create, edit or revoke keys: 403 before the body or the record is looked at', async () => {
    const forbidden = { detail: 'Insufficient permissions: requires an admin key' };
    const before = await list('', org.adminKey);
    const attempts = [
      { method: 'POST', url: '/v1/api-keys', body: { name: 'x', role: 'readonly' } },
      { method: 'POST', url: '/v1/api-keys', body: '{not json' },
      { method: 'POST', url: '/v1/api-keys', body: { role: 'god' } },
      { method: 'PATCH', url: `/v1/api-keys/${ro.id}`, body: { name: 'renamed' } },
      { method: 'PATCH', url: `/v1/api-keys/${sibling.id}`, body: { name: 'renamed' } },
      { method: 'PATCH', url: `/v1/api-keys/${MISSING}`, body: { name: 'renamed' } },
      { method: 'DELETE', url: `/v1/api-keys/${sibling.id}` },
      { method: 'DELETE', url: `/v1/api-keys/${stranger.id}` },
      { method: 'DELETE', url: `/v1/api-keys/${MISSING}` },
      { method: 'DELETE', url: '/v1/api-keys/not-a-uuid' },
    ] as const;
    for (const a of attempts) {
      const res = await t.request({ method: a.method, url: a.url, body: 'body' in a ? a.body : undefined, key: ro.key });
      expect(res.statusCode, `${a.method} ${a.url}`).toBe(403);
      expect(res.json()).toEqual(forbidden);
    }
    expect(await list('', org.adminKey)).toEqual(before);
    expect((await t.request({ method: 'GET', url: '/v1/test', key: sibling.key })).statusCode).toBe(200);
  });

  it('may revoke itself, and is refused from the next request on', async () => {
    const self = await createKey({ name: 'self', role: 'readonly', holder_user_id: holder }, org.adminKey);
    // A UUID names the same key in either case.
    const own = await t.request({ method: 'DELETE', url: `/v1/api-keys/${self.id.toUpperCase()}`, key: self.key });
    expect(own.statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/v1/api-keys', key: self.key })).statusCode).toBe(401);
    expect((await getKey(self.id, org.adminKey)).revoked_at).toMatch(ISO);
  });
});

describe('api keys: revoke', () => {
  it('204; the key is refused at once; the record stays with revoked_at', async () => {
    const created = await createKey({ role: 'admin' });
    expect((await t.request({ method: 'GET', url: '/v1/tickets', key: created.key })).statusCode).toBe(200);
    const res = await t.request({ method: 'DELETE', url: `/v1/api-keys/${created.id}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    for (const url of ['/v1/tickets', '/v1/test', '/v1/api-keys']) {
      const refused = await t.request({ method: 'GET', url, key: created.key });
      expect(refused.statusCode, url).toBe(401);
      expect(refused.json()).toEqual({ detail: UNAUTHORIZED_DETAILS.invalid });
    }
    const record = await getKey(created.id);
    expect(record.revoked_at).toMatch(ISO);
    expect(record).toEqual({ ...withoutKey(created), last_used_at: record.last_used_at, revoked_at: record.revoked_at });
    expect((await list('?status=revoked&limit=100')).map((k) => k.id)).toContain(created.id);

    // Revoking again is a 204 that changes nothing.
    expect((await t.request({ method: 'DELETE', url: `/v1/api-keys/${created.id}` })).statusCode).toBe(204);
    expect((await getKey(created.id)).revoked_at).toBe(record.revoked_at);
  });

  it('an admin key may revoke itself', async () => {
    const created = await createKey({ role: 'admin' });
    expect((await t.request({ method: 'DELETE', url: `/v1/api-keys/${created.id}`, key: created.key })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/v1/test', key: created.key })).statusCode).toBe(401);
  });

  it('revokes read-only keys too', async () => {
    const ro = await createKey({ role: 'readonly' });
    expect((await t.request({ method: 'DELETE', url: `/v1/api-keys/${ro.id}` })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/v1/tickets', key: ro.key })).statusCode).toBe(401);
  });
});

describe('api keys: last_used_at', () => {
  it('is null until the key is used, then the time of use', async () => {
    const created = await createKey({ role: 'admin' });
    expect((await getKey(created.id)).last_used_at).toBeNull();
    const before = Date.now();
    expect((await t.request({ method: 'GET', url: '/v1/test', key: created.key })).statusCode).toBe(200);
    const used = (await getKey(created.id)).last_used_at;
    expect(used).toMatch(ISO);
    expect(Date.parse(used!)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(used!)).toBeLessThanOrEqual(Date.now());
    // The caller's own use shows too: the admin key listing keys has been used.
    const self = (await list('?limit=100')).find((k) => k.key_prefix === t.org.adminKey.slice(0, 16));
    expect(self?.last_used_at).toMatch(ISO);
  });
});
