import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';

/** Macros and the action list: CRUD, checks, applying one to a ticket (docs/api-behaviour.md, Macros and actions). */

type Action = { field: string; value: unknown };
type Macro = { id: string; name: string; description: string | null; actions: Action[]; created_at: string; updated_at: string };
type Ticket = Record<string, unknown> & { id: string; tags: string[]; custom_fields: Record<string, unknown>; updated_at: string };
type Event = { type: string; actor: { type: string; api_key_id: string | null; user_id: string | null }; changes: Record<string, unknown> | null; object: Record<string, unknown> };
type FieldError = { field: string; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ MAX_MACROS_PER_ORG: '3' });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const send = (key: string, method: Method, url: string, body?: unknown, headers?: Record<string, string>) => t.request({ method, url, key, body, headers });
async function ok<T>(key: string, method: Method, url: string, body?: unknown): Promise<T> {
  const res = await send(key, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? undefined : res.json()) as T;
}
function fieldErrors(res: { statusCode: number; body: string; json: <T>() => T }): FieldError[] {
  expect(res.statusCode, res.body).toBe(422);
  return res.json<{ errors: FieldError[] }>().errors;
}

let n = 0;
const newTicket = (key: string, extra: Record<string, unknown> = {}) =>
  ok<Ticket>(key, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${n++}@example.com`, subject: 'S', description: 'D', ...extra });
const macro = (actions: Action[], name = 'M') => ({ name, actions });
const apply = (key: string, ticketId: string, macroId: string, headers?: Record<string, string>) => send(key, 'POST', `/v1/tickets/${ticketId}/macros/${macroId}`, undefined, headers);
const eventsOf = (key: string, ticketId: string) => ok<Event[]>(key, 'GET', `/v1/tickets/${ticketId}/events`);

/** An organization with a user behind a key, a team and a dropdown field. */
async function setUp(): Promise<{ org: TestOrg; userId: string; userKey: string; teamId: string }> {
  const org = await t.newOrg();
  const user = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/users', { email: `agent${n++}@example.com`, full_name: 'Agent' });
  const userKey = await org.key({ role: 'admin', name: 'held', holderUserId: user.id });
  const team = await ok<{ id: string }>(org.adminKey, 'POST', '/v1/teams', { name: 'Billing' });
  await ok(org.adminKey, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'] });
  return { org, userId: user.id, userKey, teamId: team.id };
}

describe('macros: CRUD', () => {
  it('are created, read, listed by cursor, changed and deleted; another organization gets 404; the cap is 422', async () => {
    const { org } = await setUp();
    const created = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', { name: 'Close', description: 'Done', actions: [{ field: 'status', value: 'closed' }, { field: 'add_tags', value: ['Done', 'a'] }] });
    expect(created).toMatchObject({ name: 'Close', description: 'Done', actions: [{ field: 'status', value: 'closed' }, { field: 'add_tags', value: ['a', 'done'] }] });
    expect(await ok(org.adminKey, 'GET', `/v1/macros/${created.id}`)).toEqual(created);
    const second = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', macro([{ field: 'priority', value: 'high' }], 'Second'));
    const page = await send(org.adminKey, 'GET', '/v1/macros?limit=1');
    expect(page.json<Macro[]>()).toEqual([created]);
    const cursor = /cursor=([^&>]+)/.exec(String(page.headers.link))![1]!;
    expect(await ok(org.adminKey, 'GET', `/v1/macros?limit=1&cursor=${cursor}`)).toEqual([second]);
    const changed = await ok<Macro>(org.adminKey, 'PATCH', `/v1/macros/${created.id}`, { name: 'Closed', actions: [{ field: 'status', value: 'resolved' }] });
    expect(changed).toMatchObject({ name: 'Closed', description: 'Done', actions: [{ field: 'status', value: 'resolved' }] });
    await ok(org.adminKey, 'POST', '/v1/macros', macro([{ field: 'priority', value: 'low' }]));
    const full = await send(org.adminKey, 'POST', '/v1/macros', macro([{ field: 'priority', value: 'low' }]));
    expect(full.statusCode).toBe(422);
    expect(full.json<{ detail: string }>().detail).toBe('This organization already has 3 macros, the most allowed (MAX_MACROS_PER_ORG=3); delete one first');
    const other = await t.newOrg();
    for (const [method, url] of [['GET', `/v1/macros/${created.id}`], ['PATCH', `/v1/macros/${created.id}`], ['DELETE', `/v1/macros/${created.id}`]] as const) {
      expect((await send(other.adminKey, method, url, method === 'PATCH' ? { name: 'x' } : undefined)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await ok(other.adminKey, 'GET', '/v1/macros')).toEqual([]);
    await ok(org.adminKey, 'DELETE', `/v1/macros/${created.id}`);
    expect((await send(org.adminKey, 'GET', `/v1/macros/${created.id}`)).statusCode).toBe(404);
    expect((await send(org.adminKey, 'DELETE', `/v1/macros/${created.id}`)).statusCode).toBe(404);
  });
});

describe('macros: actions are checked against the organization, 422 naming the action', () => {
  it('refuses unknown fields, values of the wrong type, and users, teams, fields and options it does not have', async () => {
    const { org, teamId } = await setUp();
    const other = await setUp();
    const at = async (actions: Action[]) => fieldErrors(await send(org.adminKey, 'POST', '/v1/macros', macro(actions)))[0]!.field;
    const status = { field: 'status', value: 'open' };
    expect(await at([status, { field: 'subject', value: 'x' }])).toBe('body.actions[1].field');
    expect(await at([{ field: 'status', value: 5 }])).toBe('body.actions[0].value');
    expect(await at([{ field: 'status', value: 'shut' }])).toBe('body.actions[0].value');
    expect(await at([status, { field: 'priority', value: ['high'] }])).toBe('body.actions[1].value');
    expect(await at([status, { field: 'assigned_user_id', value: other.userId }])).toBe('body.actions[1].value');
    expect(await at([status, { field: 'assigned_user_id', value: 'someone' }])).toBe('body.actions[1].value');
    expect(await at([status, { field: 'assigned_team_id', value: other.teamId }])).toBe('body.actions[1].value');
    expect(await at([status, { field: 'custom_fields.seats', value: 3 }])).toBe('body.actions[1].field');
    expect(await at([status, { field: 'custom_fields.plan', value: 'gold' }])).toBe('body.actions[1].value');
    expect(await at([status, { field: 'due_date', value: 'tomorrow' }])).toBe('body.actions[1].value');
    expect(await at([status, { field: 'add_tags', value: ['no spaces'] }])).toBe('body.actions[1].value[0]');
    expect(await at([status, { field: 'comment', value: 'text' }])).toBe('body.actions[1].value');
    expect(await at([status, { field: 'status', value: 'new' }])).toBe('body.actions[1].field');
    expect(await at([{ field: 'assigned_team_id', value: teamId }, { field: 'comment', value: { body: 'x', is_internal: 'yes' } }])).toMatch(/^body\.actions(\[1\]\.value)?/);
    expect((await send(org.adminKey, 'POST', '/v1/macros', macro([]))).statusCode).toBe(422);
    expect((await send(org.adminKey, 'POST', '/v1/macros', { name: 'M', actions: [{ field: 'status', value: 'open', extra: 1 }] })).statusCode).toBe(422);
    const saved = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', macro([status]));
    expect(fieldErrors(await send(org.adminKey, 'PATCH', `/v1/macros/${saved.id}`, { actions: [{ field: 'assigned_team_id', value: other.teamId }] }))[0]!.field).toBe('body.actions[0].value');
    expect(await ok(org.adminKey, 'GET', '/v1/macros')).toHaveLength(1);
  });
});

describe('macros: applying one to a ticket', () => {
  it('makes every change in one go, answers the ticket with its ETag, and writes the events with the caller as actor', async () => {
    const { org, userId, userKey, teamId } = await setUp();
    const ticket = await newTicket(org.adminKey, { tags: ['old', 'keep'] });
    const m = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', macro([
      { field: 'status', value: 'pending' },
      { field: 'priority', value: 'urgent' },
      { field: 'assigned_user_id', value: 'me' },
      { field: 'assigned_team_id', value: teamId },
      { field: 'category', value: 'billing' },
      { field: 'due_date', value: '2026-12-24T17:00:00+01:00' },
      { field: 'add_tags', value: ['waiting'] },
      { field: 'remove_tags', value: ['old'] },
      { field: 'custom_fields.plan', value: 'pro' },
      { field: 'comment', value: { body: 'Waiting on the customer.', is_internal: true } },
    ]));
    const res = await apply(userKey, ticket.id, m.id);
    expect(res.statusCode, res.body).toBe(200);
    const applied = res.json<Ticket>();
    expect(applied).toMatchObject({
      id: ticket.id, status: 'pending', priority: 'urgent', assigned_user_id: userId, assigned_team_id: teamId, category: 'billing',
      due_date: '2026-12-24T16:00:00.000Z', tags: ['keep', 'waiting'], custom_fields: { plan: 'pro' },
    });
    const got = await send(userKey, 'GET', `/v1/tickets/${ticket.id}`);
    expect(got.json()).toEqual(applied);
    expect(res.headers.etag).toBe(got.headers.etag);
    const comments = await ok<Array<{ body: string; is_internal: boolean; author_user_id: string }>>(org.adminKey, 'GET', `/v1/tickets/${ticket.id}/comments`);
    expect(comments).toMatchObject([{ body: 'Waiting on the customer.', is_internal: true, author_user_id: userId }]);
    const events = (await eventsOf(org.adminKey, ticket.id)).slice(1);
    expect(events.map((e) => e.type)).toEqual(['ticket.updated', 'comment.created']);
    for (const e of events) expect(e.actor).toMatchObject({ type: 'api_key', user_id: userId });
    expect(Object.keys(events[0]!.changes!).sort()).toEqual(['assigned_team_id', 'assigned_user_id', 'category', 'custom_fields', 'due_date', 'priority', 'status', 'tags']);
  });

  it('a macro naming a record deleted since it was saved fails whole: the ticket, its comments and its events stay as they were', async () => {
    const { org, teamId } = await setUp();
    const ticket = await newTicket(org.adminKey);
    const team = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', macro([
      { field: 'status', value: 'open' },
      { field: 'assigned_team_id', value: teamId },
      { field: 'comment', value: { body: 'Passed to billing' } },
    ]));
    const option = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', macro([{ field: 'priority', value: 'high' }, { field: 'custom_fields.plan', value: 'pro' }]));
    await ok(org.adminKey, 'DELETE', `/v1/teams/${teamId}`);
    const fields = await ok<Array<{ id: string }>>(org.adminKey, 'GET', '/v1/ticket-fields');
    await ok(org.adminKey, 'PATCH', `/v1/ticket-fields/${fields[0]!.id}`, { options: ['free'] });
    const before = await ok<Ticket>(org.adminKey, 'GET', `/v1/tickets/${ticket.id}`);
    const eventsBefore = await eventsOf(org.adminKey, ticket.id);
    expect(fieldErrors(await apply(org.adminKey, ticket.id, team.id))).toEqual([{ field: 'macro.actions[1].value', message: 'does not name a team of this organization' }]);
    expect(fieldErrors(await apply(org.adminKey, ticket.id, option.id))[0]!.field).toBe('macro.actions[1].value');
    await ok(org.adminKey, 'DELETE', `/v1/ticket-fields/${fields[0]!.id}`);
    expect(fieldErrors(await apply(org.adminKey, ticket.id, option.id))[0]!.field).toBe('macro.actions[1].field');
    expect(await ok(org.adminKey, 'GET', `/v1/tickets/${ticket.id}`)).toEqual(before);
    expect(await ok(org.adminKey, 'GET', `/v1/tickets/${ticket.id}/comments`)).toEqual([]);
    expect(await eventsOf(org.adminKey, ticket.id)).toEqual(eventsBefore);
  });

  it('"me" needs a user behind the caller; If-Match is honoured; a macro that changes nothing writes no event', async () => {
    const { org, userKey } = await setUp();
    const ticket = await newTicket(org.adminKey);
    const me = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', macro([{ field: 'status', value: 'open' }, { field: 'assigned_user_id', value: 'me' }]));
    expect(fieldErrors(await apply(org.adminKey, ticket.id, me.id))[0]!.field).toBe('macro.actions[1].value');
    const etag = (await send(userKey, 'GET', `/v1/tickets/${ticket.id}`)).headers.etag as string;
    expect((await apply(userKey, ticket.id, me.id, { 'if-match': '"stale"' })).statusCode).toBe(412);
    expect((await apply(userKey, ticket.id, me.id, { 'if-match': etag })).statusCode).toBe(200);
    const count = (await eventsOf(org.adminKey, ticket.id)).length;
    expect((await apply(userKey, ticket.id, me.id)).statusCode).toBe(200);
    expect(await eventsOf(org.adminKey, ticket.id)).toHaveLength(count);
  });

  it("another organization's macro or ticket is 404; the scopes are tickets:write and macros:read, and comments:write for a comment", async () => {
    const { org } = await setUp();
    const other = await setUp();
    const ticket = await newTicket(org.adminKey);
    const theirTicket = await newTicket(other.org.adminKey);
    const plain = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', macro([{ field: 'priority', value: 'low' }]));
    const commenting = await ok<Macro>(org.adminKey, 'POST', '/v1/macros', macro([{ field: 'comment', value: { body: 'Hello' } }]));
    const theirs = await ok<Macro>(other.org.adminKey, 'POST', '/v1/macros', macro([{ field: 'priority', value: 'low' }]));
    expect((await apply(org.adminKey, ticket.id, theirs.id)).statusCode).toBe(404);
    expect((await apply(org.adminKey, theirTicket.id, plain.id)).statusCode).toBe(404);
    const ticketsOnly = await org.key({ role: 'admin', name: 'tickets', scopes: ['tickets:read', 'tickets:write'] });
    const denied = await apply(ticketsOnly, ticket.id, plain.id);
    expect(denied.statusCode).toBe(403);
    expect(denied.json<{ detail: string }>().detail).toBe('Insufficient permissions: requires macros:read');
    const noComments = await org.key({ role: 'admin', name: 'no comments', scopes: ['tickets:read', 'tickets:write', 'macros:read'] });
    expect((await apply(noComments, ticket.id, plain.id)).statusCode).toBe(200);
    const refused = await apply(noComments, ticket.id, commenting.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ detail: string }>().detail).toBe('Insufficient permissions: requires comments:write');
    const macrosOnly = await org.key({ role: 'admin', name: 'macros', scopes: ['macros:read', 'macros:write'] });
    expect((await apply(macrosOnly, ticket.id, plain.id)).statusCode).toBe(403);
    expect((await send(macrosOnly, 'DELETE', `/v1/macros/${plain.id}`)).statusCode).toBe(403);
    const readOnly = await org.key({ role: 'admin', name: 'read', scopes: ['macros:read'] });
    expect((await send(readOnly, 'POST', '/v1/macros', macro([{ field: 'priority', value: 'low' }]))).statusCode).toBe(403);
    expect((await send(ticketsOnly, 'GET', '/v1/macros')).statusCode).toBe(403);
    expect(await ok(org.adminKey, 'GET', `/v1/tickets/${ticket.id}/comments`)).toEqual([]);
  });
});
