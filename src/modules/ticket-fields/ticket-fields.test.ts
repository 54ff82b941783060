import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';

/** Custom ticket fields: definitions, values on tickets, filters (docs/api-behaviour.md, Custom fields). */

type Field = { id: string; key: string; type: string; options: string[]; required: boolean };
type Ticket = { id: string; ticket_number: number; custom_fields: Record<string, unknown>; updated_at: string };
type FieldError = { field: string; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const send = (org: TestOrg, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => t.request({ method, url, key: org.adminKey, body });

async function ok<T>(org: TestOrg, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<T> {
  const res = await send(org, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? undefined : res.json()) as T;
}

function fieldErrors(res: { statusCode: number; body: string; json: <T>() => T }): FieldError[] {
  expect(res.statusCode, res.body).toBe(422);
  return res.json<{ errors: FieldError[] }>().errors;
}

let emails = 0;
const ticketBody = (custom?: Record<string, unknown>) => ({
  customer_name: 'Ada',
  customer_email: `ada${emails++}@example.com`,
  subject: 'Printer',
  description: 'On fire',
  ...(custom === undefined ? {} : { custom_fields: custom }),
});

/** An organization with one field of each type. */
async function orgWithFields(): Promise<TestOrg> {
  const org = await t.newOrg();
  await ok(org, 'POST', '/v1/ticket-fields', { key: 'note', label: 'Note', type: 'text' });
  await ok(org, 'POST', '/v1/ticket-fields', { key: 'seats', label: 'Seats', type: 'number' });
  await ok(org, 'POST', '/v1/ticket-fields', { key: 'renewal', label: 'Renewal', type: 'date' });
  await ok(org, 'POST', '/v1/ticket-fields', { key: 'vip', label: 'VIP', type: 'checkbox' });
  await ok(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'] });
  await ok(org, 'POST', '/v1/ticket-fields', { key: 'areas', label: 'Areas', type: 'multiselect', options: ['web', 'mobile', 'api'] });
  return org;
}

describe('definitions', () => {
  it('are created, listed, read, changed (not key or type) and deleted', async () => {
    const org = await t.newOrg();
    const field = await ok<Field>(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'] });
    expect(field).toMatchObject({ key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'], required: false });
    expect(await ok(org, 'GET', '/v1/ticket-fields')).toEqual([field]);
    expect(await ok(org, 'GET', `/v1/ticket-fields/${field.id}`)).toEqual(field);
    const changed = await ok<Field>(org, 'PATCH', `/v1/ticket-fields/${field.id}`, { label: 'Customer plan', options: ['free', 'pro', 'enterprise'], required: true });
    expect(changed).toMatchObject({ key: 'plan', label: 'Customer plan', options: ['free', 'pro', 'enterprise'], required: true });
    expect(fieldErrors(await send(org, 'PATCH', `/v1/ticket-fields/${field.id}`, { key: 'other' }))[0]!.field).toBe('body.key');
    expect(fieldErrors(await send(org, 'PATCH', `/v1/ticket-fields/${field.id}`, { type: 'text' }))[0]!.field).toBe('body.type');
    expect((await send(org, 'DELETE', `/v1/ticket-fields/${field.id}`)).statusCode).toBe(204);
    expect((await send(org, 'GET', `/v1/ticket-fields/${field.id}`)).statusCode).toBe(404);
  });

  it('refuse a bad key, a taken key, options where they do not belong or are missing', async () => {
    const org = await t.newOrg();
    expect(fieldErrors(await send(org, 'POST', '/v1/ticket-fields', { key: 'Plan', label: 'x', type: 'text' }))[0]!.field).toBe('body.key');
    expect(fieldErrors(await send(org, 'POST', '/v1/ticket-fields', { key: '1plan', label: 'x', type: 'text' }))[0]!.field).toBe('body.key');
    expect(fieldErrors(await send(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'x', type: 'colour' }))[0]!.field).toBe('body.type');
    expect(fieldErrors(await send(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'x', type: 'dropdown' }))[0]!.field).toBe('body.options');
    expect(fieldErrors(await send(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'x', type: 'dropdown', options: [] }))[0]!.field).toBe('body.options');
    expect(fieldErrors(await send(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'x', type: 'dropdown', options: ['a', 'a'] }))[0]!.field).toBe('body.options');
    expect(fieldErrors(await send(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'x', type: 'text', options: ['a'] }))[0]!.field).toBe('body.options');
    await ok(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'x', type: 'text' });
    expect((await send(org, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'y', type: 'number' })).statusCode).toBe(409);
    // At once: one is created, the others are 409, never a 500.
    const racing = await Promise.all(Array.from({ length: 4 }, () => send(org, 'POST', '/v1/ticket-fields', { key: 'race', label: 'r', type: 'text' })));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
  });

  it('are at most 100 per organization', async () => {
    const org = await t.newOrg();
    for (let i = 0; i < 100; i++) await ok(org, 'POST', '/v1/ticket-fields', { key: `f${i}`, label: `F${i}`, type: 'text' });
    const res = await send(org, 'POST', '/v1/ticket-fields', { key: 'f100', label: 'F100', type: 'text' });
    expect(fieldErrors(res)[0]!.message).toMatch(/at most 100 custom fields/);
  });

  it('need the fields: scopes; read-only keys read them; another organization sees none', async () => {
    const org = await orgWithFields();
    const readonly = await org.key({ role: 'readonly', name: 'ro' });
    expect((await t.request({ method: 'GET', url: '/v1/ticket-fields', key: readonly })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/v1/ticket-fields', key: readonly, body: { key: 'x', label: 'x', type: 'text' } })).statusCode).toBe(403);
    const noFields = await org.key({ role: 'admin', scopes: ['tickets:read'] });
    expect((await t.request({ method: 'GET', url: '/v1/ticket-fields', key: noFields })).statusCode).toBe(403);
    const other = await t.newOrg();
    expect(await ok(other, 'GET', '/v1/ticket-fields')).toEqual([]);
    const field = (await ok<Field[]>(org, 'GET', '/v1/ticket-fields'))[0]!;
    expect((await send(other, 'GET', `/v1/ticket-fields/${field.id}`)).statusCode).toBe(404);
    expect((await send(other, 'DELETE', `/v1/ticket-fields/${field.id}`)).statusCode).toBe(404);
    // Their keys are not fields of the other organization.
    expect(fieldErrors(await send(other, 'POST', '/v1/tickets', ticketBody({ plan: 'pro' })))[0]!.field).toBe('body.custom_fields.plan');
    expect(fieldErrors(await send(other, 'GET', '/v1/tickets?custom_fields[plan]=pro'))[0]!.field).toBe('query.custom_fields[plan]');
  });
});

describe('values on tickets', () => {
  let org: TestOrg;
  beforeAll(async () => {
    org = await orgWithFields();
  });

  it('are checked against the definitions and answered by key, absent keys omitted', async () => {
    const custom = { note: 'call back', seats: 12.5, renewal: '2027-02-28', vip: true, plan: 'pro', areas: ['api', 'web', 'api'] };
    const ticket = await ok<Ticket>(org, 'POST', '/v1/tickets', ticketBody(custom));
    expect(ticket.custom_fields).toEqual({ areas: ['web', 'api'], note: 'call back', plan: 'pro', renewal: '2027-02-28', seats: 12.5, vip: true });
    expect((await ok<Ticket>(org, 'GET', `/v1/tickets/${ticket.id}`)).custom_fields).toEqual(ticket.custom_fields);
    const plain = await ok<Ticket>(org, 'POST', '/v1/tickets', ticketBody());
    expect(plain.custom_fields).toEqual({});
    expect((await ok<Ticket>(org, 'GET', `/v1/tickets/${plain.id}`)).custom_fields).toEqual({});
  });

  it('refuse an unknown key, a wrong type or an option not offered, naming body.custom_fields.<key>', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ colour: 'red' }, 'body.custom_fields.colour'],
      [{ note: 5 }, 'body.custom_fields.note'],
      [{ seats: '12' }, 'body.custom_fields.seats'],
      [{ renewal: '2027-02-30' }, 'body.custom_fields.renewal'],
      [{ renewal: '2027-02-01T00:00:00Z' }, 'body.custom_fields.renewal'],
      [{ vip: 'yes' }, 'body.custom_fields.vip'],
      [{ plan: 'gold' }, 'body.custom_fields.plan'],
      [{ areas: 'web' }, 'body.custom_fields.areas'],
      [{ areas: ['web', 'desktop'] }, 'body.custom_fields.areas'],
    ];
    for (const [custom, field] of cases) {
      const res = await send(org, 'POST', '/v1/tickets', ticketBody(custom));
      expect(fieldErrors(res).map((e) => e.field), JSON.stringify(custom)).toEqual([field]);
    }
    expect(fieldErrors(await send(org, 'POST', '/v1/tickets', ticketBody({ plan: 'gold' })))[0]!.message).toBe('must be one of: free, pro');
  });

  it('PATCH merges keys, null clears one; the change is in the event', async () => {
    const ticket = await ok<Ticket>(org, 'POST', '/v1/tickets', ticketBody({ plan: 'free', seats: 1 }));
    const patched = await ok<Ticket>(org, 'PATCH', `/v1/tickets/${ticket.id}`, { custom_fields: { seats: 2, vip: false, plan: null } });
    expect(patched.custom_fields).toEqual({ seats: 2, vip: false });
    const bad = await send(org, 'PATCH', `/v1/tickets/${ticket.id}`, { custom_fields: { seats: 'two' } });
    expect(fieldErrors(bad)[0]!.field).toBe('body.custom_fields.seats');
    const events = await ok<Array<{ type: string; changes: Record<string, unknown> | null; object: Ticket }>>(org, 'GET', `/v1/tickets/${ticket.id}/events`);
    const update = events.find((e) => e.type === 'ticket.updated')!;
    expect(update.changes).toEqual({ custom_fields: { old: { plan: 'free', seats: 1 }, new: { seats: 2, vip: false } } });
    expect(events.find((e) => e.type === 'ticket.created')!.object.custom_fields).toEqual({ plan: 'free', seats: 1 });
  });

  it('a required field must be given on create, on both create paths', async () => {
    const local = await t.newOrg();
    await ok(local, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'], required: true });
    const creates = await Promise.all([send(local, 'POST', '/v1/tickets', ticketBody()), send(local, 'POST', '/v1/tickets', ticketBody())]);
    for (const res of creates) expect(fieldErrors(res)).toEqual([{ field: 'body.custom_fields.plan', message: 'is required' }]);
    const made = await ok<Ticket>(local, 'POST', '/v1/tickets', ticketBody({ plan: 'pro' }));
    const cleared = await send(local, 'PATCH', `/v1/tickets/${made.id}`, { custom_fields: { plan: null } });
    expect(fieldErrors(cleared)[0]!.field).toBe('body.custom_fields.plan');
  });

  it('deleting a definition deletes its values, with a ticket.updated event for each ticket', async () => {
    const local = await orgWithFields();
    const ticket = await ok<Ticket>(local, 'POST', '/v1/tickets', ticketBody({ plan: 'pro', seats: 3 }));
    const plan = (await ok<Field[]>(local, 'GET', '/v1/ticket-fields')).find((f) => f.key === 'plan')!;
    expect((await send(local, 'DELETE', `/v1/ticket-fields/${plan.id}`)).statusCode).toBe(204);
    const after = await ok<Ticket>(local, 'GET', `/v1/tickets/${ticket.id}`);
    expect(after.custom_fields).toEqual({ seats: 3 });
    const events = await ok<Array<{ type: string; changes: Record<string, unknown> | null }>>(local, 'GET', `/v1/tickets/${ticket.id}/events`);
    expect(events.at(-1)).toMatchObject({ type: 'ticket.updated', changes: { custom_fields: { old: { plan: 'pro', seats: 3 }, new: { seats: 3 } } } });
    // A new field of the same key starts empty.
    await ok(local, 'POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'text' });
    expect(await ok(local, 'GET', '/v1/tickets?custom_fields[plan]=pro')).toEqual([]);
  });
});

describe('filters', () => {
  let org: TestOrg;
  const n: Record<string, number> = {};
  beforeAll(async () => {
    org = await orgWithFields();
    n.a = (await ok<Ticket>(org, 'POST', '/v1/tickets', ticketBody({ plan: 'pro', seats: 10, vip: true, areas: ['web'], renewal: '2027-01-01', note: 'x' }))).ticket_number;
    n.b = (await ok<Ticket>(org, 'POST', '/v1/tickets', ticketBody({ plan: 'free', seats: 10.0, vip: false, areas: ['web', 'api'] }))).ticket_number;
    n.c = (await ok<Ticket>(org, 'POST', '/v1/tickets', ticketBody({ plan: 'pro', seats: 2 }))).ticket_number;
    n.d = (await ok<Ticket>(org, 'POST', '/v1/tickets', ticketBody())).ticket_number;
  });
  const list = async (query: string) => (await ok<Ticket[]>(org, 'GET', `/v1/tickets?${query}`)).map((x) => x.ticket_number);

  it('custom_fields[<key>]=<value> compares by the field type, combining with other filters and paging', async () => {
    expect(await list('custom_fields[plan]=pro')).toEqual([n.c, n.a]);
    expect(await list('custom_fields[seats]=10')).toEqual([n.b, n.a]);
    expect(await list('custom_fields[seats]=1e1')).toEqual([n.b, n.a]);
    expect(await list('custom_fields[vip]=false')).toEqual([n.b]);
    expect(await list('custom_fields[areas]=web')).toEqual([n.b, n.a]);
    expect(await list('custom_fields[areas]=api')).toEqual([n.b]);
    expect(await list('custom_fields[renewal]=2027-01-01')).toEqual([n.a]);
    expect(await list('custom_fields[note]=x')).toEqual([n.a]);
    expect(await list('custom_fields[plan]=pro&custom_fields[seats]=2')).toEqual([n.c]);
    expect(await list('custom_fields[plan]=pro&status=new&limit=1&offset=1')).toEqual([n.a]);
    const first = await send(org, 'GET', '/v1/tickets?custom_fields[plan]=pro&limit=1');
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))![1]!;
    expect((await ok<Ticket[]>(org, 'GET', next)).map((x) => x.ticket_number)).toEqual([n.a]);
  });

  it('an unknown key, a bad value or a malformed name is a 422 naming the parameter', async () => {
    expect(fieldErrors(await send(org, 'GET', '/v1/tickets?custom_fields[colour]=red'))).toEqual([
      { field: 'query.custom_fields[colour]', message: 'is not a custom field of this organization (see GET /v1/ticket-fields)' },
    ]);
    expect(fieldErrors(await send(org, 'GET', '/v1/tickets?custom_fields[seats]=ten'))[0]!.field).toBe('query.custom_fields[seats]');
    expect(fieldErrors(await send(org, 'GET', '/v1/tickets?custom_fields[vip]=yes'))[0]!.field).toBe('query.custom_fields[vip]');
    expect(fieldErrors(await send(org, 'GET', '/v1/tickets?custom_fields[plan]=gold'))[0]!.field).toBe('query.custom_fields[plan]');
    expect(fieldErrors(await send(org, 'GET', '/v1/tickets?custom_fields[Plan]=pro'))[0]!.field).toBe('query.custom_fields[Plan]');
  });
});
