import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ALL_SCOPES } from '../../auth/scopes.js';

interface UserBody {
  id: string;
  email: string;
  full_name: string;
  role: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
const uniqueEmail = () => `agent${++seq}-${Date.now()}@example.com`;
/** Lets the clock move on, so a timestamp written next is certainly different. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const MISSING = '00000000-0000-4000-8000-000000000000';

async function createUser(overrides: Record<string, unknown> = {}, key?: string): Promise<UserBody> {
  const body = { email: uniqueEmail(), full_name: 'Grace Hopper', ...overrides };
  const res = await t.request({ method: 'POST', url: '/v1/users', body, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<UserBody>();
}

describe('users: CRUD', () => {
  it('creates a user with defaults and gets it back', async () => {
    const email = uniqueEmail();
    const user = await createUser({ email: email.toUpperCase() });
    expect(user).toMatchObject({ email: email.toUpperCase(), full_name: 'Grace Hopper', role: 'agent', is_active: true });
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(user.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(user.updated_at).toBe(user.created_at);
    const got = await t.request({ method: 'GET', url: `/v1/users/${user.id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(user);
  });

  it('creates an inactive admin when asked', async () => {
    const user = await createUser({ role: 'admin', is_active: false });
    expect(user).toMatchObject({ role: 'admin', is_active: false });
  });

  it('updates only the fields sent, and touches updated_at only on a real change', async () => {
    const user = await createUser();
    await tick();
    const same = await t.request({ method: 'PATCH', url: `/v1/users/${user.id}`, body: { full_name: user.full_name, role: 'agent' } });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(user);

    const res = await t.request({ method: 'PATCH', url: `/v1/users/${user.id}`, body: { full_name: 'Rear Admiral Hopper', is_active: false } });
    expect(res.statusCode).toBe(200);
    const updated = res.json<UserBody>();
    expect(updated).toMatchObject({ email: user.email, full_name: 'Rear Admiral Hopper', role: 'agent', is_active: false });
    expect(updated.created_at).toBe(user.created_at);
    expect(updated.updated_at > user.updated_at).toBe(true);
    expect((await t.request({ method: 'GET', url: `/v1/users/${user.id}` })).json()).toEqual(updated);
  });

  it('deletes a user: 204, then 404', async () => {
    const user = await createUser();
    const res = await t.request({ method: 'DELETE', url: `/v1/users/${user.id}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const gone = await t.request({ method: 'GET', url: `/v1/users/${user.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'User not found' });
    expect((await t.request({ method: 'DELETE', url: `/v1/users/${user.id}` })).statusCode).toBe(404);
  });
});

describe('users: list', () => {
  it('lists oldest first and pages with limit and offset/skip', async () => {
    const org = await t.newOrg('Users list org');
    const created: UserBody[] = [];
    for (let i = 0; i < 3; i++) created.push(await createUser({ full_name: `User ${i}` }, org.adminKey));
    const ids = created.map((u) => u.id);
    const list = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `/v1/users${query}`, key: org.adminKey });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<UserBody[]>();
    };
    expect(await list('')).toEqual(created);
    expect((await list('?limit=2')).map((u) => u.id)).toEqual(ids.slice(0, 2));
    expect((await list('?limit=2&offset=2')).map((u) => u.id)).toEqual(ids.slice(2));
    expect((await list('?limit=2&skip=1')).map((u) => u.id)).toEqual(ids.slice(1, 3));
    expect(await list('?offset=3')).toEqual([]);
  });

  it('returns 50 by default and at most 100', async () => {
    const org = await t.newOrg('Users page size org');
    for (let i = 0; i < 51; i++) await createUser({}, org.adminKey);
    const all = await t.request({ method: 'GET', url: '/v1/users', key: org.adminKey });
    expect(all.json<unknown[]>()).toHaveLength(50);
    const max = await t.request({ method: 'GET', url: '/v1/users?limit=100', key: org.adminKey });
    expect(max.json<unknown[]>()).toHaveLength(51);
    const over = await t.request({ method: 'GET', url: '/v1/users?limit=101', key: org.adminKey });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ errors: [{ field: 'query.limit' }] });
  });

  it('shows only the organization of the key', async () => {
    const org = await t.newOrg('Users other org');
    const theirs = await createUser({}, org.adminKey);
    const mine = await t.request({ method: 'GET', url: '/v1/users?limit=100' });
    expect(mine.json<UserBody[]>().map((u) => u.id)).not.toContain(theirs.id);
  });
});

describe('users: email uniqueness', () => {
  it('refuses on create an email that differs only in case (409)', async () => {
    const user = await createUser();
    const res = await t.request({ method: 'POST', url: '/v1/users', body: { email: user.email.toUpperCase(), full_name: 'Copy' } });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ detail: string }>().detail).toMatch(/email/i);
  });

  it('refuses on update another user\'s email in any case (409), but allows re-casing one\'s own', async () => {
    const a = await createUser();
    const b = await createUser();
    const clash = await t.request({ method: 'PATCH', url: `/v1/users/${b.id}`, body: { email: a.email.toUpperCase() } });
    expect(clash.statusCode).toBe(409);
    const recased = await t.request({ method: 'PATCH', url: `/v1/users/${a.id}`, body: { email: a.email.toUpperCase() } });
    expect(recased.statusCode).toBe(200);
    expect(recased.json()).toMatchObject({ email: a.email.toUpperCase() });
  });

  it('allows the same email in another organization', async () => {
    const user = await createUser();
    const org = await t.newOrg('Users email org');
    await createUser({ email: user.email }, org.adminKey);
  });
});

describe('users: validation (422)', () => {
  const long = 'x'.repeat(256);
  it.each([
    ['bad email', { email: 'not-an-email', full_name: 'A' }, 'body.email'],
    ['too-long full_name', { email: 'long@example.com', full_name: long }, 'body.full_name'],
    ['empty full_name', { email: 'empty@example.com', full_name: '' }, 'body.full_name'],
    ['bad role', { email: 'role@example.com', full_name: 'A', role: 'owner' }, 'body.role'],
    ['unknown field', { email: 'field@example.com', full_name: 'A', nickname: 'x' }, 'body.nickname'],
    ['missing email', { full_name: 'A' }, 'body.email'],
  ])('on create: %s', async (_name, body, field) => {
    const res = await t.request({ method: 'POST', url: '/v1/users', body });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
  });

  it.each([
    ['bad email', { email: 'nope' }, 'body.email'],
    ['too-long full_name', { full_name: long }, 'body.full_name'],
    ['bad role', { role: 'owner' }, 'body.role'],
    ['unknown field', { nickname: 'x' }, 'body.nickname'],
    ['is_active not a boolean', { is_active: 'yes' }, 'body.is_active'],
  ])('on update: %s', async (_name, body, field) => {
    const user = await createUser();
    const res = await t.request({ method: 'PATCH', url: `/v1/users/${user.id}`, body });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
    expect((await t.request({ method: 'GET', url: `/v1/users/${user.id}` })).json()).toEqual(user);
  });

  it.each(['GET', 'PATCH', 'DELETE'] as const)('malformed UUID in the path of %s', async (method) => {
    const res = await t.request({ method, url: '/v1/users/not-a-uuid', body: method === 'PATCH' ? {} : undefined });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: 'path.user_id' }] });
  });
});

describe('users: access', () => {
  const endpoints = [
    { method: 'GET', url: () => '/v1/users', scope: 'users:read' },
    { method: 'GET', url: (id: string) => `/v1/users/${id}`, scope: 'users:read' },
    { method: 'POST', url: () => '/v1/users', scope: 'users:write', body: { email: 'x@example.com', full_name: 'X' } },
    { method: 'PATCH', url: (id: string) => `/v1/users/${id}`, scope: 'users:write', body: { full_name: 'X' } },
    { method: 'DELETE', url: (id: string) => `/v1/users/${id}`, scope: 'users:delete' },
  ] as const;

  it.each(endpoints)('$method $scope: 401 without a key, 403 without the scope', async (e) => {
    const user = await createUser();
    const body = 'body' in e ? e.body : undefined;
    const anonymous = await t.request({ method: e.method, url: e.url(user.id), body, key: null });
    expect(anonymous.statusCode).toBe(401);
    const key = await t.org.key({ scopes: ALL_SCOPES.filter((s) => s !== e.scope) });
    const denied = await t.request({ method: e.method, url: e.url(user.id), body, key });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: `Insufficient permissions: requires ${e.scope}` });
    expect((await t.request({ method: 'GET', url: `/v1/users/${user.id}` })).json()).toEqual(user);
  });

  it('lets a key with only users:read read', async () => {
    const user = await createUser();
    const key = await t.org.key({ role: 'readonly', scopes: ['users:read'] });
    expect((await t.request({ method: 'GET', url: `/v1/users/${user.id}`, key })).statusCode).toBe(200);
  });

  it.each(['GET', 'PATCH', 'DELETE'] as const)('%s of an unknown user or another organization\'s is 404', async (method) => {
    const org = await t.newOrg('Users 404 org');
    const theirs = await createUser({}, org.adminKey);
    const body = method === 'PATCH' ? { full_name: 'Hijacked' } : undefined;
    for (const id of [MISSING, theirs.id]) {
      const res = await t.request({ method, url: `/v1/users/${id}`, body });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'User not found' });
    }
    const still = await t.request({ method: 'GET', url: `/v1/users/${theirs.id}`, key: org.adminKey });
    expect(still.json()).toEqual(theirs);
  });
});

describe('users: deletion rules', () => {
  async function createTicket(assignedUserId: string) {
    const body = {
      customer_name: 'Ada',
      customer_email: 'ada@example.com',
      subject: 'Help',
      description: 'Please',
      assigned_user_id: assignedUserId,
    };
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string; assigned_user_id: string | null; updated_at: string }>();
  }

  it('unassigns their tickets, touching updated_at, and leaves other tickets alone', async () => {
    const user = await createUser();
    const other = await createUser();
    const mine = await createTicket(user.id);
    const theirs = await createTicket(other.id);
    await tick();
    expect((await t.request({ method: 'DELETE', url: `/v1/users/${user.id}` })).statusCode).toBe(204);
    const after = (await t.request({ method: 'GET', url: `/v1/tickets/${mine.id}` })).json<typeof mine>();
    expect(after.assigned_user_id).toBeNull();
    expect(after.updated_at > mine.updated_at).toBe(true);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${theirs.id}` })).json()).toEqual(theirs);
  });

  it('removes them from their teams', async () => {
    const user = await createUser();
    const stays = await createUser();
    const team = (await t.request({ method: 'POST', url: '/v1/teams', body: { name: 'Tier 1' } })).json<{ id: string }>();
    for (const member of [user, stays]) {
      const add = await t.request({ method: 'POST', url: `/v1/teams/${team.id}/members`, body: { user_id: member.id } });
      expect(add.statusCode).toBe(201);
    }
    expect((await t.request({ method: 'DELETE', url: `/v1/users/${user.id}` })).statusCode).toBe(204);
    const got = await t.request({ method: 'GET', url: `/v1/teams/${team.id}` });
    expect(got.json<{ members: { id: string }[] }>().members.map((m) => m.id)).toEqual([stays.id]);
  });

  it('revokes the keys they hold and no others', async () => {
    const user = await createUser();
    const held = await t.org.key({ holderUserId: user.id });
    const other = await createUser();
    const otherKey = await t.org.key({ holderUserId: other.id });
    expect((await t.request({ method: 'GET', url: '/v1/test', key: held })).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: `/v1/users/${user.id}` })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: '/v1/test', key: held })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/v1/users', key: held })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/v1/test', key: otherKey })).statusCode).toBe(200);
  });
});
