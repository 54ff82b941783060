import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../../../test/helpers/attachments.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

type Json = Record<string, unknown>;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

let counter = 0;
const uniqueEmail = () => `person${String(++counter)}-${randomUUID().slice(0, 8)}@example.com`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function create(body: Json = {}, key?: string): Promise<Json> {
  const res = await t.request({ method: 'POST', url: '/v1/customers', body: { name: 'Ada Lovelace', email: uniqueEmail(), ...body }, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Json>();
}

const patch = (id: unknown, body: unknown) => t.request({ method: 'PATCH', url: `/v1/customers/${String(id)}`, body });
const get = (id: unknown, key?: string) => t.request({ method: 'GET', url: `/v1/customers/${String(id)}`, key });
const fieldsOf = (res: { json: <T>() => T }) => res.json<{ errors?: { field: string }[] }>().errors?.map((e) => e.field);

const full = {
  company: 'Analytical Engines Ltd',
  department: 'Research',
  title: 'Engineer',
  customer_tier: 'tier_1',
  contact_number: '+44 20 7946 0000',
  pronoun: 'she/her',
  location_country: 'GB',
  location_city: 'London',
  location_state: 'Greater London',
  location_zip: 'W1',
  location_address: '12 St James Square',
  region: 'emea',
  timezone: 'Europe/London',
  account_value: '1500',
  has_premium_support: true,
  is_vip: true,
  social_linkedin: 'https://www.linkedin.com/in/ada',
  social_website: 'http://ada.example.com/',
  social_github: 'https://github.com/ada',
  notes: 'Prefers email',
};

describe('customers: create, get, list', () => {
  it('creates a customer with every field and returns it with 201', async () => {
    const email = uniqueEmail();
    const customer = await create({ email, ...full });
    expect(customer).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      name: 'Ada Lovelace',
      email,
      ...full,
      account_value: '1500.00',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
      updated_at: customer.created_at,
      email_status: 'ok',
    });
    expect((await get(customer.id)).json()).toEqual(customer);
  });

  it('defaults the booleans to false and the optional fields to null', async () => {
    const customer = await create();
    expect(customer).toMatchObject({ has_premium_support: false, is_vip: false, account_value: null, company: null, notes: null, region: null });
  });

  it('lists full customers oldest first, paged by skip/offset and limit', async () => {
    const org = await t.newOrg();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await create({ name: `Customer ${String(i)}`, ...full }, org.adminKey));
    const list = await t.request({ method: 'GET', url: '/v1/customers', key: org.adminKey });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual(made);
    const page = await t.request({ method: 'GET', url: '/v1/customers?skip=1&limit=1', key: org.adminKey });
    expect(page.json<Json[]>().map((c) => c.id)).toEqual([made[1]?.id]);
    const byOffset = await t.request({ method: 'GET', url: '/v1/customers?offset=2&limit=5', key: org.adminKey });
    expect(byOffset.json<Json[]>().map((c) => c.id)).toEqual([made[2]?.id]);
  });

  it('rejects limit 0 and limit 101 with 422', async () => {
    for (const limit of [0, 101]) {
      const res = await t.request({ method: 'GET', url: `/v1/customers?limit=${String(limit)}` });
      expect(res.statusCode).toBe(422);
      expect(fieldsOf(res)).toEqual(['query.limit']);
    }
    expect((await t.request({ method: 'GET', url: '/v1/customers?limit=100' })).statusCode).toBe(200);
  });
});

describe('customers: account_value', () => {
  it('accepts a number or a numeric string and returns a 2-place string', async () => {
    expect((await create({ account_value: '1500.5' })).account_value).toBe('1500.50');
    expect((await create({ account_value: 1500.5 })).account_value).toBe('1500.50');
    expect((await create({ account_value: 0.07 })).account_value).toBe('0.07');
    expect((await create({ account_value: '9999999999999.99' })).account_value).toBe('9999999999999.99');
    const customer = await create({ account_value: 12 });
    expect(customer.account_value).toBe('12.00');
    expect((await patch(customer.id, { account_value: '0.1' })).json()).toMatchObject({ account_value: '0.10' });
    expect((await patch(customer.id, { account_value: null })).json()).toMatchObject({ account_value: null });
  });

  it.each([[-1], ['-1'], ['1.234'], [1.234], ['abc'], [''], ['1e3'], ['12345678901234'], [12345678901234], [true], [0.1 + 0.2]])(
    'rejects %j with 422 on create and update',
    async (value) => {
      const created = await t.request({ method: 'POST', url: '/v1/customers', body: { name: 'X', email: uniqueEmail(), account_value: value } });
      expect(created.statusCode).toBe(422);
      expect(fieldsOf(created)).toEqual(['body.account_value']);
      const customer = await create();
      const updated = await patch(customer.id, { account_value: value });
      expect(updated.statusCode).toBe(422);
      expect(fieldsOf(updated)).toEqual(['body.account_value']);
    },
  );
});

describe('customers: validation', () => {
  const long = (n: number) => 'x'.repeat(n);
  const bad: [string, Json, string][] = [
    ['tier outside its enum', { customer_tier: 'tier_9' }, 'body.customer_tier'],
    ['region outside its enum', { region: 'mars' }, 'body.region'],
    ['name too long', { name: long(256) }, 'body.name'],
    ['empty name', { name: '' }, 'body.name'],
    ['notes too long', { notes: long(1001) }, 'body.notes'],
    ['company too long', { company: long(256) }, 'body.company'],
    ['bad email', { email: 'not-an-email' }, 'body.email'],
    ['non-http URL', { social_github: 'ftp://github.com/ada' }, 'body.social_github'],
    ['script URL', { social_website: 'javascript:alert(1)' }, 'body.social_website'],
    ['bad time zone', { timezone: 'Mars/Olympus_Mons' }, 'body.timezone'],
    ['offset as time zone', { timezone: '+02:00' }, 'body.timezone'],
    ['non-boolean flag', { is_vip: 'yes' }, 'body.is_vip'],
    ['unknown field', { favourite_colour: 'blue' }, 'body.favourite_colour'],
  ];

  it.each(bad)('rejects %s on create with 422', async (_name, fields, field) => {
    const res = await t.request({ method: 'POST', url: '/v1/customers', body: { name: 'Ada', email: uniqueEmail(), ...fields } });
    expect(res.statusCode).toBe(422);
    expect(fieldsOf(res)).toEqual([field]);
  });

  it.each(bad)('rejects %s on update with 422 and changes nothing', async (_name, fields, field) => {
    const customer = await create();
    const res = await patch(customer.id, fields);
    expect(res.statusCode).toBe(422);
    expect(fieldsOf(res)).toEqual([field]);
    expect((await get(customer.id)).json()).toEqual(customer);
  });

  it('requires name and email on create, and refuses null for them on update', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/customers', body: {} });
    expect(res.statusCode).toBe(422);
    expect(fieldsOf(res)?.sort()).toEqual(['body.email', 'body.name']);
    const customer = await create();
    expect((await patch(customer.id, { name: null })).statusCode).toBe(422);
    expect((await patch(customer.id, { email: null })).statusCode).toBe(422);
  });

  it('accepts the longest allowed values', async () => {
    const customer = await create({ name: long(255), notes: long(1000), location_address: long(1000) });
    expect(customer.name).toBe(long(255));
    expect((await patch(customer.id, { notes: long(1000) })).statusCode).toBe(200);
  });

  it('rejects a malformed id in the path with 422', async () => {
    expect((await get('not-a-uuid')).statusCode).toBe(422);
  });
});

describe('customers: update', () => {
  it('changes only the fields sent, clears fields set to null and moves updated_at', async () => {
    const customer = await create({ company: 'Old Co', notes: 'keep me', region: 'amer' });
    await sleep(5);
    const res = await patch(customer.id, { company: 'New Co', region: null, is_vip: true });
    expect(res.statusCode).toBe(200);
    const updated = res.json<Json>();
    expect(updated).toEqual({ ...customer, company: 'New Co', region: null, is_vip: true, updated_at: updated.updated_at });
    expect(updated.updated_at).not.toBe(customer.updated_at);
    expect((await get(customer.id)).json()).toEqual(updated);
  });

  it('leaves updated_at alone when nothing changes', async () => {
    const customer = await create({ company: 'Same Co', account_value: '10.50', is_vip: false });
    await sleep(5);
    const res = await patch(customer.id, { company: 'Same Co', account_value: 10.5, is_vip: false, name: customer.name });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(customer);
    expect((await patch(customer.id, {})).json()).toEqual(customer);
  });
});

describe('customers: email uniqueness', () => {
  it('rejects a duplicate differing only in case on create with 409', async () => {
    const email = uniqueEmail();
    await create({ email });
    const res = await t.request({ method: 'POST', url: '/v1/customers', body: { name: 'Twin', email: email.toUpperCase() } });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ detail: string }>().detail).toMatch(/customer with the email .* already exists/i);
  });

  it('rejects taking another customer\'s email on update with 409', async () => {
    const first = await create();
    const second = await create();
    const res = await patch(second.id, { email: String(first.email).toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ detail: string }>().detail).toMatch(/already exists/);
    expect((await get(second.id)).json()).toEqual(second);
  });

  it('lets a customer change the case of their own email, stored as given', async () => {
    const customer = await create({ email: 'Case.Change@Example.com'.replace('@', `${String(++counter)}@`) });
    const upper = String(customer.email).toUpperCase();
    const res = await patch(customer.id, { email: upper });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: upper });
  });

  it('allows the same email in another organization', async () => {
    const email = uniqueEmail();
    await create({ email });
    const org = await t.newOrg();
    await create({ email }, org.adminKey);
  });
});

describe('customers: access', () => {
  it('answers 401 without a key', async () => {
    for (const [method, url] of [['GET', '/v1/customers'], ['POST', '/v1/customers'], ['GET', `/v1/customers/${randomUUID()}`]] as const) {
      const res = await t.request({ method, url, key: null, body: method === 'POST' ? { name: 'A', email: uniqueEmail() } : undefined });
      expect(res.statusCode).toBe(401);
    }
  });

  it('answers 403 naming the scope when the key lacks it', async () => {
    const customer = await create();
    const reader = await t.org.key({ scopes: ['customers:read'] });
    expect((await get(customer.id, reader)).statusCode).toBe(200);
    const post = await t.request({ method: 'POST', url: '/v1/customers', key: reader, body: { name: 'A', email: uniqueEmail() } });
    expect(post.statusCode).toBe(403);
    expect(post.json()).toEqual({ detail: 'Insufficient permissions: requires customers:write' });
    const patched = await t.request({ method: 'PATCH', url: `/v1/customers/${String(customer.id)}`, key: reader, body: { name: 'B' } });
    expect(patched.statusCode).toBe(403);
    const writer = await t.org.key({ scopes: ['customers:write'] });
    const del = await t.request({ method: 'DELETE', url: `/v1/customers/${String(customer.id)}`, key: writer });
    expect(del.json()).toEqual({ detail: 'Insufficient permissions: requires customers:delete' });
    const list = await t.request({ method: 'GET', url: '/v1/customers', key: writer });
    expect(list.statusCode).toBe(403);
    expect((await get(customer.id)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown customer and for another organization\'s', async () => {
    const other = await t.newOrg();
    const theirs = await create({}, other.adminKey);
    for (const id of [randomUUID(), theirs.id]) {
      expect((await get(id)).json()).toEqual({ detail: 'Customer not found' });
      expect((await patch(id, { name: 'Mine now' })).statusCode).toBe(404);
      expect((await t.request({ method: 'DELETE', url: `/v1/customers/${String(id)}` })).statusCode).toBe(404);
    }
    expect((await get(theirs.id, other.adminKey)).json()).toEqual(theirs);
    const list = await t.request({ method: 'GET', url: '/v1/customers?limit=100' });
    expect(list.json<Json[]>().map((c) => c.id)).not.toContain(theirs.id);
  });
});

describe('customers: delete', () => {
  const newTicket = (customer: Json, subject = 'Printer on fire') =>
    t.request({
      method: 'POST',
      url: '/v1/tickets',
      body: { customer_name: String(customer.name), customer_email: String(customer.email), subject, description: 'Help' },
    });

  it("deletes the customer with their tickets and the tickets' stored attachment bytes", async () => {
    const customer = await create();
    const bystander = await create();
    const ticket = (await newTicket(customer)).json<Json>();
    const kept = (await newTicket(bystander)).json<Json>();
    expect(ticket.customer_id).toBe(customer.id);

    // Whichever attachment store the app uses (disk files, or chunks in the database on PostgreSQL).
    const uploaded = await upload(t, String(ticket.id), 'a.txt', 'text/plain', 'hello');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const attachmentId = uploaded.json<{ id: string }>().id;
    const blobExists = async () => {
      try {
        for await (const chunk of t.blobs.open(attachmentId)) void chunk;
        return true;
      } catch {
        return false;
      }
    };
    expect(await blobExists()).toBe(true);

    const res = await t.request({ method: 'DELETE', url: `/v1/customers/${String(customer.id)}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await get(customer.id)).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${String(ticket.id)}` })).statusCode).toBe(404);
    expect(await t.store.db.selectFrom('attachments').select('id').where('id', '=', attachmentId).executeTakeFirst()).toBeUndefined();
    expect(await blobExists()).toBe(false);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${String(kept.id)}` })).statusCode).toBe(200);
    expect((await get(bystander.id)).statusCode).toBe(200);
  });

  it('keeps the ticket search in step when a customer is renamed', async () => {
    const customer = await create({ name: 'Charles Babbage' });
    const ticket = (await newTicket(customer, 'Difference engine jammed')).json<Json>();
    const newName = `Quetzalcoatl ${randomUUID().slice(0, 8)}`;
    expect((await patch(customer.id, { name: newName })).statusCode).toBe(200);
    const found = await t.request({ method: 'GET', url: `/v1/tickets?search=${encodeURIComponent(newName.toLowerCase())}` });
    expect(found.statusCode).toBe(200);
    expect(found.json<Json[]>().map((x) => x.id)).toEqual([ticket.id]);
  });
});
