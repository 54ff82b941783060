import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ALL_SCOPES } from '../../auth/scopes.js';

type Json = Record<string, unknown>;
const MISSING = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
beforeAll(async () => {
  // Production settings: https only, public addresses only.
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const create = (body: unknown, key?: string) => t.request({ method: 'POST', url: '/v1/webhooks', body, key });

async function created(body: Json = {}): Promise<Json & { id: string; secret: string }> {
  const res = await create({ url: 'https://hooks.example.com/ticketing', events: ['ticket.created'], ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('webhook endpoints: CRUD', () => {
  it('creates an endpoint and shows its secret in that answer only', async () => {
    const hook = await created({ description: 'On-call chat', events: ['ticket.created', 'ticket.updated', 'ticket.created'] });
    expect(hook).toMatchObject({
      url: 'https://hooks.example.com/ticketing',
      description: 'On-call chat',
      events: ['ticket.created', 'ticket.updated'],
      status: 'active',
      disabled_at: null,
      disabled_reason: null,
      previous_secret_expires_at: null,
    });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(hook.secret.slice(6), 'base64')).toHaveLength(32);
    expect(hook.created_at).toBe(hook.updated_at);

    const got = await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}` });
    expect(got.statusCode).toBe(200);
    const shown: Json = { ...hook };
    delete shown.secret;
    expect(got.json()).toEqual(shown);
    const list = (await t.request({ method: 'GET', url: '/v1/webhooks' })).json<Json[]>();
    expect(list.find((w) => w.id === hook.id)).toEqual(shown);
    expect(JSON.stringify(list)).not.toContain(hook.secret);
  });

  it('normalizes the URL and the event list ("*" means every type)', async () => {
    const hook = await created({ url: 'HTTPS://Hooks.Example.COM:443/a/../b?x=1', events: ['ticket.created', '*'] });
    expect(hook.url).toBe('https://hooks.example.com/b?x=1');
    expect(hook.events).toEqual(['*']);
  });

  it('updates the URL, events and description, pauses and resumes; PATCH without change keeps updated_at', async () => {
    const hook = await created();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const same = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { url: String(hook.url), events: hook.events, status: 'active' } });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ updated_at: hook.updated_at });
    expect(same.json()).not.toHaveProperty('secret');
    const changed = await t.request({
      method: 'PATCH',
      url: `/v1/webhooks/${hook.id}`,
      body: { url: 'https://other.example.com/x', events: ['comment.created'], description: null, status: 'paused' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ url: 'https://other.example.com/x', events: ['comment.created'], description: null, status: 'paused' });
    expect(changed.json<Json>().updated_at).not.toBe(hook.updated_at);
    const resumed = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { status: 'active' } });
    expect(resumed.json()).toMatchObject({ status: 'active' });
    // The service disables; a client cannot.
    const disable = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { status: 'disabled' } });
    expect(disable.statusCode).toBe(422);
    expect(disable.json()).toMatchObject({ errors: [{ field: 'body.status' }] });
  });

  it('rotates the secret: the new one in the answer, the old one valid for 24 more hours', async () => {
    const hook = await created();
    const rotated = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { rotate_secret: true } });
    expect(rotated.statusCode).toBe(200);
    const body = rotated.json<{ secret: string; previous_secret_expires_at: string }>();
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.secret).not.toBe(hook.secret);
    expect(Date.parse(body.previous_secret_expires_at)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}` })).json()).not.toHaveProperty('secret');
  });

  it('deletes an endpoint; then it and its deliveries are 404', async () => {
    const hook = await created();
    expect((await t.request({ method: 'DELETE', url: `/v1/webhooks/${hook.id}` })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries` })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/webhooks/${hook.id}` })).statusCode).toBe(404);
  });

  it('404 for an unknown endpoint or delivery, and for another organization\'s', async () => {
    const hook = await created();
    const other = await t.newOrg('Other');
    for (const [method, url] of [
      ['GET', `/v1/webhooks/${hook.id}`],
      ['PATCH', `/v1/webhooks/${hook.id}`],
      ['DELETE', `/v1/webhooks/${hook.id}`],
      ['GET', `/v1/webhooks/${hook.id}/deliveries`],
      ['POST', `/v1/webhooks/${hook.id}/deliveries/${MISSING}/retry`],
    ] as const) {
      const res = await t.request({ method, url, key: other.adminKey, ...(method === 'PATCH' ? { body: {} } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const missing = await t.request({ method: 'POST', url: `/v1/webhooks/${hook.id}/deliveries/${MISSING}/retry` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: 'Delivery not found' });
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${MISSING}` })).json()).toEqual({ detail: 'Webhook not found' });
  });

  it('an endpoint with no deliveries yet has an empty log; the log pages and filters by status', async () => {
    const hook = await created();
    const res = await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries?status=failed&limit=5&offset=0` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries?status=lost` })).statusCode).toBe(422);
    expect((await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries?limit=101` })).statusCode).toBe(422);
  });

  it('an organization has at most 100 endpoints by default (MAX_WEBHOOKS_PER_ORG): the next is 422', async () => {
    const org = await t.newOrg('Many hooks');
    for (let i = 0; i < 100; i++) {
      const res = await create({ url: `https://hooks.example.com/${i}`, events: ['*'] }, org.adminKey);
      expect(res.statusCode).toBe(201);
    }
    const res = await create({ url: 'https://hooks.example.com/101', events: ['*'] }, org.adminKey);
    expect(res.statusCode).toBe(422);
    expect(res.json<Json>()).toEqual({
      detail: 'This organization already has 100 webhook endpoints, the most allowed (MAX_WEBHOOKS_PER_ORG=100); delete one first',
    });
  });
});

describe('webhook endpoints: what is refused when saving', () => {
  const refusedUrls: Array<[string, RegExp]> = [
    ['http://hooks.example.com/x', /must be an https:\/\/ URL/],
    ['ftp://hooks.example.com/x', /must be an https:\/\/ URL/],
    ['https://user:pass@hooks.example.com/x', /user name or password/],
    ['https://127.0.0.1/x', /non-public address/],
    ['https://127.1/x', /non-public address/],
    ['https://2130706433/x', /non-public address/],
    ['https://0x7f.0.0.1/x', /non-public address/],
    ['https://10.0.0.1/x', /non-public address/],
    ['https://172.16.5.4/x', /non-public address/],
    ['https://192.168.1.1/x', /non-public address/],
    ['https://100.64.0.1/x', /non-public address/],
    ['https://169.254.169.254/latest/meta-data/', /non-public address/],
    ['https://0.0.0.0/x', /non-public address/],
    ['https://[::1]/x', /non-public address/],
    ['https://[::]/x', /non-public address/],
    ['https://[fd00::1]/x', /non-public address/],
    ['https://[fe80::1]/x', /non-public address/],
    ['https://[::ffff:127.0.0.1]/x', /non-public address/],
    ['https://[::ffff:a9fe:a9fe]/x', /non-public address/],
    ['https://[ff02::1]/x', /non-public address/],
    ['https://[::127.0.0.1]/x', /non-public address \(::7f00:1\)/],
    ['https://[::169.254.169.254]/latest/meta-data/', /non-public address \(::a9fe:a9fe\)/],
    ['https://[::8.8.8.8]/x', /non-public address/],
    ['https://[64:ff9b::169.254.169.254]/x', /non-public address/],
    ['https://[64:ff9b::10.0.0.1]/x', /non-public address/],
    ['https://[2002:a9fe:a9fe::1]/x', /non-public address/],
    ['https://[2001::1]/x', /non-public address/],
    ['https://[::ffff:0:127.0.0.1]/x', /non-public address/],
    ['https://198.18.0.1/x', /non-public address/],
    ['https://localhost/x', /this machine/],
    ['https://api.localhost:8443/x', /this machine/],
    ['https://LOCALHOST./x', /this machine/],
    ['not a url', /absolute URL/],
  ];

  it.each(refusedUrls)('refuses %s with a 422 on body.url', async (url, message) => {
    const res = await create({ url, events: ['*'] });
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json<{ errors: Array<{ field: string; message: string }> }>();
    expect(body.errors[0]!.field).toBe('body.url');
    expect(body.errors[0]!.message).toMatch(message);
    // The same on update.
    const hook = await created();
    const patched = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { url } });
    expect(patched.statusCode).toBe(422);
  });

  it.each(['http://127.0.0.1:9999/x', 'https://127.0.0.1/x', 'https://[::1]/x', 'https://localhost/x', 'http://hooks.example.com/x'])(
    'the refusal of %s names WEBHOOKS_ALLOW_PRIVATE, the way to test a receiver locally',
    async (url) => {
      const res = await create({ url, events: ['*'] });
      expect(res.statusCode).toBe(422);
      const message = res.json<{ errors: Array<{ message: string }> }>().errors[0]!.message;
      expect(message).toContain('set WEBHOOKS_ALLOW_PRIVATE=true to allow http:// and private or loopback addresses (for local testing only)');
      if (url === 'http://127.0.0.1:9999/x') expect(message).toMatch(/^must be an https:\/\/ URL on a public address; /);
    },
  );

  it('accepts public addresses, names and ports', async () => {
    for (const url of ['https://93.184.216.34/x', 'https://[2606:2800:220:1:248:1893:25c8:1946]/x', 'https://hooks.example.com:8443/x']) {
      const res = await create({ url, events: ['*'] });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
    }
  });

  it('refuses an unknown event type, an empty list, and unknown fields', async () => {
    for (const events of [['ticket.exploded'], [], 'ticket.created']) {
      const res = await create({ url: 'https://hooks.example.com/x', events });
      expect(res.statusCode, JSON.stringify(events)).toBe(422);
    }
    expect((await create({ url: 'https://hooks.example.com/x', events: ['*'], secret: 'whsec_x' })).statusCode).toBe(422);
    expect((await create({ events: ['*'] })).statusCode).toBe(422);
  });

  it('allows http:// and private targets with WEBHOOKS_ALLOW_PRIVATE=true', async () => {
    const dev = await buildTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
    try {
      for (const url of ['http://127.0.0.1:9999/x', 'http://localhost/x', 'https://10.0.0.1/x', 'http://[::1]/x']) {
        const res = await dev.request({ method: 'POST', url: '/v1/webhooks', body: { url, events: ['*'] } });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
      }
      expect((await dev.request({ method: 'POST', url: '/v1/webhooks', body: { url: 'ftp://x.example.com/', events: ['*'] } })).statusCode).toBe(422);
    } finally {
      await dev.close();
    }
  });
});

describe('webhook scopes', () => {
  it('webhooks:read, webhooks:write and webhooks:delete guard their routes (403 naming the scope)', async () => {
    const hook = await created();
    const routes = [
      { scope: 'webhooks:read', method: 'GET', url: '/v1/webhooks' },
      { scope: 'webhooks:read', method: 'GET', url: `/v1/webhooks/${hook.id}` },
      { scope: 'webhooks:read', method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries` },
      { scope: 'webhooks:write', method: 'POST', url: '/v1/webhooks', body: { url: 'https://hooks.example.com/x', events: ['*'] } },
      { scope: 'webhooks:write', method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: {} },
      { scope: 'webhooks:write', method: 'POST', url: `/v1/webhooks/${hook.id}/deliveries/${MISSING}/retry` },
      { scope: 'webhooks:write', method: 'POST', url: `/v1/webhooks/${hook.id}/test` },
      { scope: 'webhooks:delete', method: 'DELETE', url: `/v1/webhooks/${hook.id}` },
    ] as const;
    for (const route of routes) {
      const key = await t.org.key({ scopes: ALL_SCOPES.filter((s) => s !== route.scope) });
      const res = await t.request({ method: route.method, url: route.url, key, ...('body' in route ? { body: route.body } : {}) });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json()).toEqual({ detail: `Insufficient permissions: requires ${route.scope}` });
    }
  });

  it('read-only keys may list and read endpoints, never change them', async () => {
    const key = await t.org.key({ role: 'readonly' });
    expect((await t.request({ method: 'GET', url: '/v1/webhooks', key })).statusCode).toBe(200);
    expect((await create({ url: 'https://hooks.example.com/x', events: ['*'] }, key)).statusCode).toBe(403);
  });
});

describe('webhook endpoints: only events the creating key could read', () => {
  it('subscribing to a type the key cannot read is 422 naming body.events and the missing scope', async () => {
    const key = await t.org.key({ role: 'admin', scopes: ['webhooks:read', 'webhooks:write', 'tickets:read'] });
    const refused = await create({ url: 'https://hooks.example.com/x', events: ['ticket.created', 'comment.created'] }, key);
    expect(refused.statusCode).toBe(422);
    const problem = refused.json<{ errors: { field: string; message: string }[] }>();
    expect(problem.errors[0]?.field).toBe('body.events');
    expect(problem.errors[0]?.message).toContain('comments:read');
    for (const [type, scope] of [['customer.updated', 'customers:read'], ['user.created', 'users:read'], ['team.created', 'teams:read'], ['attachment.created', 'attachments:read']]) {
      const res = await create({ url: 'https://hooks.example.com/x', events: [type] }, key);
      expect(res.statusCode, type).toBe(422);
      expect(res.body).toContain(scope);
    }
    // What it can read is fine, "*" too (limited to what it can read).
    expect((await create({ url: 'https://hooks.example.com/x', events: ['ticket.created'] }, key)).statusCode).toBe(201);
    const all = await create({ url: 'https://hooks.example.com/x', events: ['*'] }, key);
    expect(all.statusCode).toBe(201);
    // The endpoint keeps its creator's limit: an admin key may not widen it by naming more types.
    const widened = await t.request({ method: 'PATCH', url: `/v1/webhooks/${all.json<{ id: string }>().id}`, body: { events: ['comment.created'] } });
    expect(widened.statusCode).toBe(422);
    expect(widened.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('body.events');
  });

  it('a key may not point at itself an endpoint carrying events it cannot read', async () => {
    const hook = await created({ events: ['comment.created'] });
    const key = await t.org.key({ role: 'admin', scopes: ['webhooks:read', 'webhooks:write', 'tickets:read'] });
    const moved = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, key, body: { url: 'https://attacker.example.com/' } });
    expect(moved.statusCode).toBe(422);
    expect(moved.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('body.url');
    const readable = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, key, body: { description: 'ok' } });
    expect(readable.statusCode).toBe(200);
  });
});
