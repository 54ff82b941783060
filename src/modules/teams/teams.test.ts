import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ALL_SCOPES } from '../../auth/scopes.js';

interface TeamBody {
  id: string;
  name: string;
  description: string | null;
  members?: { id: string; email: string; full_name: string }[];
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
/** Lets the clock move on, so a timestamp written next is certainly different. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
const MISSING = '00000000-0000-4000-8000-000000000000';

async function createTeam(overrides: Record<string, unknown> = {}, key?: string): Promise<TeamBody> {
  const res = await t.request({ method: 'POST', url: '/v1/teams', body: { name: `Team ${++seq}`, ...overrides }, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TeamBody>();
}

async function createUser(key?: string): Promise<{ id: string; email: string; full_name: string }> {
  const body = { email: `member${++seq}@example.com`, full_name: `Member ${seq}` };
  const res = await t.request({ method: 'POST', url: '/v1/users', body, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const addMember = (teamId: string, userId: string, key?: string) =>
  t.request({ method: 'POST', url: `/v1/teams/${teamId}/members`, body: { user_id: userId }, key });

describe('teams: CRUD', () => {
  it('creates a team with no members and gets it back', async () => {
    const team = await createTeam({ name: 'Billing' });
    expect(team).toMatchObject({ name: 'Billing', description: null, members: [] });
    expect(team.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(team.updated_at).toBe(team.created_at);
    const got = await t.request({ method: 'GET', url: `/v1/teams/${team.id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(team);
  });

  it('keeps a description, and PATCH changes only what is sent', async () => {
    const team = await createTeam({ name: 'Escalations', description: 'Hard cases' });
    expect(team.description).toBe('Hard cases');
    await tick();
    const same = await t.request({ method: 'PATCH', url: `/v1/teams/${team.id}`, body: { name: 'Escalations' } });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(team);

    const renamed = await t.request({ method: 'PATCH', url: `/v1/teams/${team.id}`, body: { name: 'Tier 3' } });
    expect(renamed.statusCode).toBe(200);
    const updated = renamed.json<TeamBody>();
    expect(updated).toMatchObject({ name: 'Tier 3', description: 'Hard cases', created_at: team.created_at });
    expect(updated.updated_at > team.updated_at).toBe(true);

    const cleared = await t.request({ method: 'PATCH', url: `/v1/teams/${team.id}`, body: { description: null } });
    expect(cleared.json()).toMatchObject({ name: 'Tier 3', description: null });
    expect((await t.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json()).toEqual(cleared.json());
  });

  it('accepts a 10,000-character description and a 255-character name', async () => {
    const team = await createTeam({ name: 'n'.repeat(255), description: 'd'.repeat(10_000) });
    expect(team.description).toHaveLength(10_000);
  });

  it('deletes a team: 204, then 404', async () => {
    const team = await createTeam();
    const res = await t.request({ method: 'DELETE', url: `/v1/teams/${team.id}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const gone = await t.request({ method: 'GET', url: `/v1/teams/${team.id}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'Team not found' });
    expect((await t.request({ method: 'DELETE', url: `/v1/teams/${team.id}` })).statusCode).toBe(404);
  });

  it('unassigns every ticket of a deleted team, touching updated_at, and no other ticket', async () => {
    const team = await createTeam();
    const other = await createTeam();
    const ticket = async (teamId: string) => {
      const body = { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'S', description: 'D', assigned_team_id: teamId };
      const res = await t.request({ method: 'POST', url: '/v1/tickets', body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string; assigned_team_id: string | null; updated_at: string }>();
    };
    const mine = [await ticket(team.id), await ticket(team.id)];
    const theirs = await ticket(other.id);
    await tick();
    expect((await t.request({ method: 'DELETE', url: `/v1/teams/${team.id}` })).statusCode).toBe(204);
    for (const before of mine) {
      const after = (await t.request({ method: 'GET', url: `/v1/tickets/${before.id}` })).json<typeof before>();
      expect(after.assigned_team_id).toBeNull();
      expect(after.updated_at > before.updated_at).toBe(true);
    }
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${theirs.id}` })).json()).toEqual(theirs);
  });
});

describe('teams: list', () => {
  it('lists oldest first without members, paging with limit and skip/offset', async () => {
    const org = await t.newOrg('Teams list org');
    const created: TeamBody[] = [];
    for (let i = 0; i < 3; i++) created.push(await createTeam({ name: `List ${i}`, description: i === 1 ? 'middle' : undefined }, org.adminKey));
    const ids = created.map((x) => x.id);
    const list = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `/v1/teams${query}`, key: org.adminKey });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TeamBody[]>();
    };
    expect(await list('')).toEqual(created.map(({ members: _members, ...summary }) => summary));
    expect((await list('?limit=2')).map((x) => x.id)).toEqual(ids.slice(0, 2));
    expect((await list('?limit=2&skip=2')).map((x) => x.id)).toEqual(ids.slice(2));
    expect((await list('?offset=1')).map((x) => x.id)).toEqual(ids.slice(1));
    expect(await list('?skip=3')).toEqual([]);
  });

  it('returns 50 by default and at most 100', async () => {
    const org = await t.newOrg('Teams page size org');
    for (let i = 0; i < 51; i++) await createTeam({}, org.adminKey);
    expect((await t.request({ method: 'GET', url: '/v1/teams', key: org.adminKey })).json<unknown[]>()).toHaveLength(50);
    expect((await t.request({ method: 'GET', url: '/v1/teams?limit=100', key: org.adminKey })).json<unknown[]>()).toHaveLength(51);
    const over = await t.request({ method: 'GET', url: '/v1/teams?limit=101', key: org.adminKey });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ errors: [{ field: 'query.limit' }] });
    const mismatch = await t.request({ method: 'GET', url: '/v1/teams?skip=1&offset=2', key: org.adminKey });
    expect(mismatch.statusCode).toBe(422);
  });
});

describe('teams: members', () => {
  it('adds members (201, then 200 when already one) and lists them in the order they joined', async () => {
    const team = await createTeam();
    const first = await createUser();
    const second = await createUser();
    const a = await addMember(team.id, second.id);
    expect(a.statusCode).toBe(201);
    expect(a.json()).toEqual({ message: 'User added to team' });
    expect((await addMember(team.id, first.id)).statusCode).toBe(201);
    const again = await addMember(team.id, second.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: 'User is already a member of the team' });

    const got = (await t.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json<TeamBody>();
    expect(got.members).toEqual([second, first].map((u) => ({ id: u.id, email: u.email, full_name: u.full_name })));
  });

  it('removes a member (204); removing a non-member is 404', async () => {
    const team = await createTeam();
    const user = await createUser();
    const stays = await createUser();
    await addMember(team.id, user.id);
    await addMember(team.id, stays.id);
    const url = `/v1/teams/${team.id}/members/${user.id}`;
    const res = await t.request({ method: 'DELETE', url });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const got = (await t.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json<TeamBody>();
    expect(got.members?.map((m) => m.id)).toEqual([stays.id]);
    const again = await t.request({ method: 'DELETE', url });
    expect(again.statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/users/${user.id}` })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown team, and "User not found" for an unknown or foreign user', async () => {
    const team = await createTeam();
    const user = await createUser();
    const noTeam = await addMember(MISSING, user.id);
    expect(noTeam.statusCode).toBe(404);
    expect(noTeam.json()).toEqual({ detail: 'Team not found' });
    const org = await t.newOrg('Teams foreign user org');
    const foreigner = await createUser(org.adminKey);
    for (const id of [MISSING, foreigner.id]) {
      const res = await addMember(team.id, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'User not found' });
    }
    expect((await t.request({ method: 'DELETE', url: `/v1/teams/${MISSING}/members/${user.id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json<TeamBody>().members).toEqual([]);
  });

  it('validates the member body and path (422)', async () => {
    const team = await createTeam();
    const user = await createUser();
    const cases = [
      { body: { user_id: 'nope' }, field: 'body.user_id' },
      { body: {}, field: 'body.user_id' },
      { body: { user_id: user.id, role: 'lead' }, field: 'body.role' },
    ];
    for (const c of cases) {
      const res = await t.request({ method: 'POST', url: `/v1/teams/${team.id}/members`, body: c.body });
      expect(res.statusCode).toBe(422);
      expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(c.field);
    }
    const badPath = await t.request({ method: 'DELETE', url: `/v1/teams/${team.id}/members/not-a-uuid` });
    expect(badPath.statusCode).toBe(422);
    expect(badPath.json()).toMatchObject({ errors: [{ field: 'path.user_id' }] });
  });
});

describe('teams: validation (422)', () => {
  it.each([
    ['too-long name', { name: 'n'.repeat(256) }, 'body.name'],
    ['empty name', { name: '' }, 'body.name'],
    ['missing name', { description: 'x' }, 'body.name'],
    ['too-long description', { name: 'A', description: 'd'.repeat(10_001) }, 'body.description'],
    ['unknown field', { name: 'A', lead: 'x' }, 'body.lead'],
  ])('on create: %s', async (_name, body, field) => {
    const res = await t.request({ method: 'POST', url: '/v1/teams', body });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
  });

  it.each([
    ['too-long name', { name: 'n'.repeat(256) }, 'body.name'],
    ['empty name', { name: '' }, 'body.name'],
    ['null name', { name: null }, 'body.name'],
    ['too-long description', { description: 'd'.repeat(10_001) }, 'body.description'],
    ['unknown field', { lead: 'x' }, 'body.lead'],
  ])('on update: %s', async (_name, body, field) => {
    const team = await createTeam();
    const res = await t.request({ method: 'PATCH', url: `/v1/teams/${team.id}`, body });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
    expect((await t.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json()).toEqual(team);
  });

  it.each(['GET', 'PATCH', 'DELETE'] as const)('malformed UUID in the path of %s', async (method) => {
    const res = await t.request({ method, url: '/v1/teams/not-a-uuid', body: method === 'PATCH' ? {} : undefined });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: 'path.team_id' }] });
  });
});

describe('teams: access', () => {
  const endpoints = [
    { method: 'GET', url: () => '/v1/teams', scope: 'teams:read' },
    { method: 'GET', url: (id: string) => `/v1/teams/${id}`, scope: 'teams:read' },
    { method: 'POST', url: () => '/v1/teams', scope: 'teams:write', body: { name: 'X' } },
    { method: 'PATCH', url: (id: string) => `/v1/teams/${id}`, scope: 'teams:write', body: { name: 'X' } },
    { method: 'DELETE', url: (id: string) => `/v1/teams/${id}`, scope: 'teams:delete' },
    { method: 'POST', url: (id: string) => `/v1/teams/${id}/members`, scope: 'teams:write', body: { user_id: MISSING } },
    { method: 'DELETE', url: (id: string) => `/v1/teams/${id}/members/${MISSING}`, scope: 'teams:write' },
  ] as const;

  it.each(endpoints)('$method $scope: 401 without a key, 403 without the scope', async (e) => {
    const team = await createTeam();
    const url = e.url(team.id);
    const body = 'body' in e ? e.body : undefined;
    expect((await t.request({ method: e.method, url, body, key: null })).statusCode).toBe(401);
    const key = await t.org.key({ scopes: ALL_SCOPES.filter((s) => s !== e.scope) });
    const denied = await t.request({ method: e.method, url, body, key });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: `Insufficient permissions: requires ${e.scope}` });
    expect((await t.request({ method: 'GET', url: `/v1/teams/${team.id}` })).json()).toEqual(team);
  });

  it('lets a read-only key read', async () => {
    const team = await createTeam();
    const key = await t.org.key({ role: 'readonly', scopes: ['teams:read'] });
    expect((await t.request({ method: 'GET', url: `/v1/teams/${team.id}`, key })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/teams', key })).statusCode).toBe(200);
  });

  it('answers 404 for another organization\'s team on every route, and leaves it alone', async () => {
    const org = await t.newOrg('Teams 404 org');
    const theirs = await createTeam({}, org.adminKey);
    const user = await createUser();
    const calls = [
      { method: 'GET', url: `/v1/teams/${theirs.id}` },
      { method: 'PATCH', url: `/v1/teams/${theirs.id}`, body: { name: 'Hijacked' } },
      { method: 'DELETE', url: `/v1/teams/${theirs.id}` },
      { method: 'POST', url: `/v1/teams/${theirs.id}/members`, body: { user_id: user.id } },
      { method: 'DELETE', url: `/v1/teams/${theirs.id}/members/${user.id}` },
      { method: 'GET', url: `/v1/teams/${MISSING}` },
      { method: 'PATCH', url: `/v1/teams/${MISSING}`, body: { name: 'X' } },
    ] as const;
    for (const call of calls) {
      const res = await t.request({ method: call.method, url: call.url, body: 'body' in call ? call.body : undefined });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
    }
    const list = await t.request({ method: 'GET', url: '/v1/teams?limit=100' });
    expect(list.json<TeamBody[]>().map((x) => x.id)).not.toContain(theirs.id);
    expect((await t.request({ method: 'GET', url: `/v1/teams/${theirs.id}`, key: org.adminKey })).json()).toEqual(theirs);
  });
});
