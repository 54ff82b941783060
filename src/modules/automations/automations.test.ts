import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES } from '../../auth/scopes.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

/** Triggers and automations as records: CRUD, the checks (422 naming the field), tenancy, scopes, caps. */

type Rule = Record<string, unknown> & { id: string };
type FieldError = { field: string; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ MAX_TRIGGERS_PER_ORG: '3', MAX_AUTOMATIONS_PER_ORG: '2' });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const send = (method: Method, url: string, body?: unknown, key?: string) => t.request({ method, url, body, ...(key === undefined ? {} : { key }) });
async function ok<T>(method: Method, url: string, body?: unknown, key?: string): Promise<T> {
  const res = await send(method, url, body, key);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? undefined : res.json()) as T;
}
async function fieldOf(method: Method, url: string, body: unknown, key?: string): Promise<string> {
  const res = await send(method, url, body, key);
  expect(res.statusCode, res.body).toBe(422);
  return res.json<{ errors: FieldError[] }>().errors[0]!.field;
}

const urgent = { all: [{ field: 'priority', operator: 'is', value: 'urgent' }], any: [] };
const trigger = (extra: Record<string, unknown> = {}) => ({ name: 'Urgent', on: ['ticket.created'], conditions: urgent, actions: [{ field: 'add_tags', value: ['vip'] }], ...extra });

describe('triggers: CRUD', () => {
  it('are created, read, listed, changed and deleted; another organization gets 404; the cap is 422', async () => {
    const created = await ok<Rule>('POST', '/v1/triggers', trigger());
    expect(created).toMatchObject({ name: 'Urgent', on: ['ticket.created'], conditions: urgent, actions: [{ field: 'add_tags', value: ['vip'] }], active: true, position: 0 });
    expect(await ok('GET', `/v1/triggers/${created.id}`)).toEqual(created);
    const second = await ok<Rule>('POST', '/v1/triggers', trigger({ name: 'Second', active: false }));
    expect(second).toMatchObject({ position: 1, active: false });
    expect((await ok<Rule[]>('GET', '/v1/triggers')).map((r) => r.id)).toEqual([created.id, second.id]);
    const changed = await ok<Rule>('PATCH', `/v1/triggers/${created.id}`, { on: ['ticket.created', 'comment.created'], position: 5 });
    expect(changed).toMatchObject({ on: ['ticket.created', 'comment.created'], position: 5, name: 'Urgent' });
    await ok('POST', '/v1/triggers', trigger({ name: 'Third' }));
    const full = await send('POST', '/v1/triggers', trigger({ name: 'Fourth' }));
    expect(full.statusCode).toBe(422);
    expect(full.json<{ detail: string }>().detail).toContain('MAX_TRIGGERS_PER_ORG=3');

    const other = await t.newOrg();
    expect((await send('GET', `/v1/triggers/${created.id}`, undefined, other.adminKey)).statusCode).toBe(404);
    expect((await send('PATCH', `/v1/triggers/${created.id}`, { name: 'x' }, other.adminKey)).statusCode).toBe(404);
    expect((await send('DELETE', `/v1/triggers/${created.id}`, undefined, other.adminKey)).statusCode).toBe(404);
    expect(await ok<Rule[]>('GET', '/v1/triggers', undefined, other.adminKey)).toEqual([]);

    await ok('DELETE', `/v1/triggers/${created.id}`);
    expect((await send('GET', `/v1/triggers/${created.id}`)).statusCode).toBe(404);
  });

  it('refuse unknown event types, bad conditions and bad actions with 422 naming the field', async () => {
    const org = await t.newOrg();
    const post = (body: unknown) => fieldOf('POST', '/v1/triggers', body, org.adminKey);
    expect(await post(trigger({ on: ['ticket.created', 'ticket.exploded'] }))).toBe('body.on[1]');
    expect(await post(trigger({ on: ['customer.created'] }))).toBe('body.on[0]');
    expect(await post(trigger({ on: [] }))).toBe('body.on');
    expect(await post(trigger({ conditions: { all: [{ field: 'mood', operator: 'is', value: 'x' }] } }))).toBe('body.conditions.all[0].field');
    expect(await post(trigger({ conditions: { all: [urgent.all[0], { field: 'status', operator: 'is', value: 'gone' }] } }))).toBe('body.conditions.all[1].value');
    expect(await post(trigger({ conditions: { any: [{ field: 'hours_since_created', operator: 'at_least', value: 1 }] } }))).toBe('body.conditions.any[0].field');
    expect(await post(trigger({ conditions: { all: [{ field: 'assigned_user_id', operator: 'is', value: 'me' }] } }))).toBe('body.conditions');
    // A trigger without actions could only loop or do nothing.
    expect(await post(trigger({ actions: [] }))).toBe('body.actions');
    expect(await post(trigger({ actions: [{ field: 'add_tags', value: ['ok'] }, { field: 'status', value: 'bogus' }] }))).toBe('body.actions[1].value');
    expect(await post(trigger({ actions: [{ field: 'assigned_user_id', value: 'me' }] }))).toBe('body.actions[0].value');
    // notify: no mailbox to send from is refused when saved.
    const notify = { field: 'notify', value: { to: 'requester', subject: 'Hi', body: 'B' } };
    expect(await post(trigger({ actions: [notify] }))).toBe('body.actions[0]');
    await ok('POST', '/v1/mailboxes', { address: 'help@acme.example', name: 'Help' }, org.adminKey);
    expect(await post(trigger({ actions: [{ field: 'notify', value: { to: 'not an address', subject: 'S', body: 'B' } }] }))).toBe('body.actions[0].value.to');
    // The index of a macro action's error is its place in the whole list, notify included.
    expect(await post(trigger({ actions: [notify, { field: 'priority', value: 'meh' }] }))).toBe('body.actions[1].value');
    const saved = await ok<Rule>('POST', '/v1/triggers', trigger({ actions: [{ field: 'notify', value: { to: 'Boss@Acme.Example', subject: 'S', body: 'B' } }] }), org.adminKey);
    expect(saved.actions).toEqual([{ field: 'notify', value: { to: 'boss@acme.example', subject: 'S', body: 'B' } }]);
    expect(await fieldOf('PATCH', `/v1/triggers/${saved.id}`, { on: ['nope'] }, org.adminKey)).toBe('body.on[0]');
  });
});

describe('automations: CRUD', () => {
  const pending = (hours: unknown, operator = 'at_least') => ({
    name: 'Pending',
    conditions: { all: [{ field: 'status', operator: 'is', value: 'pending' }, { field: 'hours_since_status_change', operator, value: hours }] },
    actions: [{ field: 'status', value: 'closed' }],
  });

  it('are created with hours_since_* conditions (fractions and 0 allowed), read, changed, deleted; tenancy; the cap', async () => {
    const org = await t.newOrg();
    const created = await ok<Rule>('POST', '/v1/automations', pending(0.5), org.adminKey);
    expect(created).toMatchObject({ name: 'Pending', active: true, conditions: { all: [{ field: 'status' }, { field: 'hours_since_status_change', operator: 'at_least', value: 0.5 }], any: [] } });
    expect(await ok('GET', `/v1/automations/${created.id}`, undefined, org.adminKey)).toEqual(created);
    const changed = await ok<Rule>('PATCH', `/v1/automations/${created.id}`, { ...pending(0), name: 'Now' }, org.adminKey);
    expect(changed).toMatchObject({ name: 'Now', conditions: { all: [{}, { value: 0 }] } });
    expect((await send('GET', `/v1/automations/${created.id}`)).statusCode).toBe(404);
    await ok('POST', '/v1/automations', pending(1), org.adminKey);
    const full = await send('POST', '/v1/automations', pending(2), org.adminKey);
    expect(full.statusCode).toBe(422);
    expect(full.json<{ detail: string }>().detail).toContain('MAX_AUTOMATIONS_PER_ORG=2');
    expect((await ok<Rule[]>('GET', '/v1/automations', undefined, org.adminKey)).length).toBe(2);
    await ok('DELETE', `/v1/automations/${created.id}`, undefined, org.adminKey);
    expect((await send('DELETE', `/v1/automations/${created.id}`, undefined, org.adminKey)).statusCode).toBe(404);
  });

  it('refuse hours that are negative or not numbers, and operators hours do not take, with 422 naming the field', async () => {
    const org = await t.newOrg();
    const post = (body: unknown) => fieldOf('POST', '/v1/automations', body, org.adminKey);
    expect(await post(pending(-1))).toBe('body.conditions.all[1].value');
    expect(await post(pending('5'))).toBe('body.conditions.all[1].value');
    expect(await post(pending(1, 'is'))).toBe('body.conditions.all[1].operator');
    expect(await post({ ...pending(1), actions: [] })).toBe('body.actions');
  });
});

describe('scopes', () => {
  it('automations:read reads, automations:write writes, automations:delete deletes; agents hold none of them', async () => {
    const reader = await t.org.key({ role: 'readonly', scopes: ['automations:read'] });
    const writer = await t.org.key({ scopes: ['automations:read', 'automations:write'] });
    const none = await t.org.key({ scopes: ['tickets:read', 'tickets:write'] });
    expect((await send('GET', '/v1/triggers', undefined, none)).statusCode).toBe(403);
    expect((await send('GET', '/v1/automations', undefined, none)).statusCode).toBe(403);
    expect((await send('GET', '/v1/triggers', undefined, reader)).statusCode).toBe(200);
    expect((await send('POST', '/v1/triggers', trigger(), reader)).statusCode).toBe(403);
    const org = await t.newOrg();
    const w = await org.key({ scopes: ['automations:read', 'automations:write'] });
    const made = await ok<Rule>('POST', '/v1/triggers', trigger(), w);
    expect((await send('DELETE', `/v1/triggers/${made.id}`, undefined, w)).statusCode).toBe(403);
    expect((await send('POST', '/v1/automations', { name: 'x', conditions: {}, actions: [{ field: 'priority', value: 'low' }] }, writer)).statusCode).toBe(201);
    expect([...ROLE_SCOPES.agent].filter((s) => s.startsWith('automations:'))).toEqual([]);
    expect([...ROLE_SCOPES.admin].filter((s) => s.startsWith('automations:'))).toEqual(['automations:read', 'automations:write', 'automations:delete']);
  });
});
