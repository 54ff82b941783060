import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConditionalRequests } from '../src/http/conditional.js';
import { upload } from './helpers/attachments.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/**
 * ETag, If-None-Match (304) and If-Match (412) through HTTP on both stores
 * (docs/api-behaviour.md#safe-concurrent-edits-etag-if-match-if-none-match).
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown> & { id: string };

async function newTicket(): Promise<Json> {
  const res = await t.request({
    method: 'POST', url: '/v1/tickets',
    body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Conditional', description: 'Edits' },
  });
  expect(res.statusCode).toBe(201);
  return res.json<Json>();
}

const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });

describe('ETag and If-None-Match', () => {
  it('a HEAD carries the ETag of the GET, and If-None-Match with it is 304', async () => {
    const ticket = await newTicket();
    const url = `/v1/tickets/${ticket.id}`;
    const etag = (await get(url)).headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const head = await t.request({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(etag);
    expect((await t.request({ method: 'HEAD', url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
  });

  it('a GET carries a strong ETag that changes with the record; If-None-Match with it is 304 without a body', async () => {
    const ticket = await newTicket();
    const url = `/v1/tickets/${ticket.id}`;
    const first = await get(url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect((await get(url)).headers.etag).toBe(etag);

    const notModified = await get(url, { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    // Weak comparison, lists and `*` (RFC 9110 §13.1.2).
    expect((await get(url, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await get(url, { 'if-none-match': '*' })).statusCode).toBe(304);
    expect((await get(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);

    const patched = await t.request({ method: 'PATCH', url, body: { priority: 'urgent' } });
    expect(patched.statusCode).toBe(200);
    const newEtag = patched.headers.etag as string;
    expect(newEtag).toMatch(/^"/);
    expect(newEtag).not.toBe(etag);
    // The PATCH answer's ETag is the one a GET then gives.
    expect((await get(url)).headers.etag).toBe(newEtag);
    const changed = await get(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Json>().priority).toBe('urgent');
  });

  it('every single-resource GET carries one; lists do not', async () => {
    const ticket = await newTicket();
    const customer = (await t.request({ method: 'POST', url: '/v1/customers', body: { name: 'Bob', email: 'bob-etag@example.com' } })).json<Json>();
    const team = (await t.request({ method: 'POST', url: '/v1/teams', body: { name: 'ETag team' } })).json<Json>();
    const user = (await t.request({ method: 'POST', url: '/v1/users', body: { email: 'etag@example.com', full_name: 'E' } })).json<Json>();
    const comment = (await t.request({ method: 'POST', url: `/v1/tickets/${ticket.id}/comments`, body: { body: 'c' } })).json<Json>();
    const hook = (await t.request({ method: 'POST', url: '/v1/webhooks', body: { url: 'https://hooks.example.com/e', events: ['ticket.created'] } })).json<Json>();
    for (const url of [
      `/v1/tickets/${ticket.id}`, `/v1/customers/${customer.id}`, `/v1/teams/${team.id}`, `/v1/users/${user.id}`,
      `/v1/tickets/${ticket.id}/comments/${comment.id}`, `/v1/webhooks/${hook.id}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers.etag, url).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      expect((await get(url, { 'if-none-match': res.headers.etag as string })).statusCode, url).toBe(304);
    }
    expect((await get('/v1/tickets')).headers.etag).toBeUndefined();
  });
});

describe('If-Match', () => {
  it('two agents edit one ticket: the second, with the stale ETag, gets 412 and changes nothing', async () => {
    const ticket = await newTicket();
    const url = `/v1/tickets/${ticket.id}`;
    const etag = (await get(url)).headers.etag as string;
    const agentA = await t.request({ method: 'PATCH', url, body: { status: 'open' }, headers: { 'if-match': etag } });
    expect(agentA.statusCode).toBe(200);
    const agentB = await t.request({ method: 'PATCH', url, body: { subject: 'Overwritten?' }, headers: { 'if-match': etag } });
    expect(agentB.statusCode).toBe(412);
    expect(agentB.json<{ detail: string }>().detail).toMatch(/has changed since the version named in If-Match/);
    const now = (await get(url)).json<Json>();
    expect(now.subject).toBe('Conditional');
    expect(now.status).toBe('open');
    // With the current ETag (or `*`) it goes through.
    const retry = await t.request({ method: 'PATCH', url, body: { subject: 'Merged' }, headers: { 'if-match': agentA.headers.etag as string } });
    expect(retry.statusCode).toBe(200);
    expect((await t.request({ method: 'PATCH', url, body: { priority: 'low' }, headers: { 'if-match': '*' } })).statusCode).toBe(200);
    // A weak tag never matches If-Match (strong comparison).
    const weak = await t.request({ method: 'PATCH', url, body: { priority: 'high' }, headers: { 'if-match': `W/${(await get(url)).headers.etag as string}` } });
    expect(weak.statusCode).toBe(412);
  });

  it("a reply written against a ticket that changed since is 412 saying the ticket changed, and nothing is written", async () => {
    const ticket = await newTicket();
    const url = `/v1/tickets/${ticket.id}`;
    const seen = (await get(url)).headers.etag as string;
    // Meanwhile another agent changes the ticket.
    expect((await t.request({ method: 'PATCH', url, body: { priority: 'urgent' } })).statusCode).toBe(200);
    const reply = await t.request({ method: 'POST', url: `${url}/comments`, body: { body: 'Written against the old ticket' }, headers: { 'if-match': seen } });
    expect(reply.statusCode).toBe(412);
    expect(reply.json<{ detail: string }>().detail).toMatch(/^The ticket has changed since the version named in If-Match; nothing was changed/);
    expect((await get(`${url}/comments`)).json<unknown[]>()).toEqual([]);
    // Against the current version (or `*`, or without If-Match) it is written.
    const current = (await get(url)).headers.etag as string;
    expect((await t.request({ method: 'POST', url: `${url}/comments`, body: { body: 'Fresh' }, headers: { 'if-match': current } })).statusCode).toBe(201);
    expect((await t.request({ method: 'POST', url: `${url}/comments`, body: { body: 'Any' }, headers: { 'if-match': '*' } })).statusCode).toBe(201);
    // A key without tickets:write sees the ticket without its tracking_token, and its ETag is of that view.
    const agent = await t.org.key({ scopes: ['tickets:read', 'comments:write', 'comments:read'] });
    const agentTag = (await t.request({ method: 'GET', url, key: agent })).headers.etag as string;
    expect(agentTag).not.toBe(current);
    expect((await t.request({ method: 'POST', url: `${url}/comments`, key: agent, body: { body: 'Mine' }, headers: { 'if-match': agentTag } })).statusCode).toBe(201);
    expect((await get(`${url}/comments`)).json<unknown[]>()).toHaveLength(3);
  });

  it('concurrent PATCHes with the same If-Match: exactly one wins, the others are 412', async () => {
    const ticket = await newTicket();
    const url = `/v1/tickets/${ticket.id}`;
    const etag = (await get(url)).headers.etag as string;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.request({ method: 'PATCH', url, body: { subject: `Agent ${i}` }, headers: { 'if-match': etag } })),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = answers.find((r) => r.statusCode === 200)!.json<Json>();
    expect((await get(url)).json<Json>().subject).toBe(winner.subject);
  });

  it('DELETE with a stale If-Match is 412 and deletes nothing; with the current one it deletes', async () => {
    const ticket = await newTicket();
    const url = `/v1/tickets/${ticket.id}`;
    const stale = (await get(url)).headers.etag as string;
    await t.request({ method: 'PATCH', url, body: { priority: 'high' } });
    expect((await t.request({ method: 'DELETE', url, headers: { 'if-match': stale } })).statusCode).toBe(412);
    const current = await get(url);
    expect(current.statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url, headers: { 'if-match': current.headers.etag as string } })).statusCode).toBe(204);
    expect((await get(url)).statusCode).toBe(404);
  });

  it('a malformed If-Match (not a quoted tag, not *, not a list of them) is 400 saying so, and changes nothing', async () => {
    const ticket = await newTicket();
    const url = `/v1/tickets/${ticket.id}`;
    const etag = (await get(url)).headers.etag as string;
    for (const header of ['abc', etag.slice(1, -1), `${etag}, abc`, `${etag} ${etag}`, '**']) {
      for (const method of ['PATCH', 'DELETE'] as const) {
        const res = await t.request({ method, url, headers: { 'if-match': header }, ...(method === 'PATCH' ? { body: { priority: 'urgent' } } : {}) });
        expect(res.statusCode, `${method} If-Match: ${header}`).toBe(400);
        const { detail } = res.json<{ detail: string }>();
        expect(detail).toMatch(/^Malformed If-Match header/);
        expect(detail).toMatch(/quotes included/);
        expect(detail).not.toMatch(/has changed/);
      }
    }
    const after = await get(url);
    expect(after.json()).toMatchObject({ priority: ticket.priority });
    expect(after.headers.etag).toBe(etag);
    // Well-formed lists still work: a weak tag never matches (412), the current one among others does.
    expect((await t.request({ method: 'PATCH', url, headers: { 'if-match': `W/${etag}` }, body: { priority: 'low' } })).statusCode).toBe(412);
    expect((await t.request({ method: 'PATCH', url, headers: { 'if-match': `"other", ${etag}` }, body: { priority: 'low' } })).statusCode).toBe(200);
  });
});

describe('If-Match on every resource that can be changed or deleted', () => {
  type Case = { name: string; make: () => Promise<string>; change: (i: number) => Record<string, unknown>; field: string };
  const post = async (url: string, body: unknown) => {
    const res = await t.request({ method: 'POST', url, body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Json>();
  };
  let n = 0;
  const cases: Case[] = [
    { name: 'ticket', make: async () => `/v1/tickets/${(await newTicket()).id}`, change: (i) => ({ subject: `S${i}` }), field: 'subject' },
    { name: 'customer', make: async () => `/v1/customers/${(await post('/v1/customers', { name: 'C', email: `c${++n}@if-match.example.com` })).id}`, change: (i) => ({ notes: `N${i}` }), field: 'notes' },
    { name: 'user', make: async () => `/v1/users/${(await post('/v1/users', { email: `u${++n}@if-match.example.com`, full_name: 'U' })).id}`, change: (i) => ({ full_name: `U${i}` }), field: 'full_name' },
    { name: 'team', make: async () => `/v1/teams/${(await post('/v1/teams', { name: `T${++n}` })).id}`, change: (i) => ({ name: `T-${i}` }), field: 'name' },
    {
      name: 'comment',
      make: async () => {
        const ticket = await newTicket();
        return `/v1/tickets/${ticket.id}/comments/${(await post(`/v1/tickets/${ticket.id}/comments`, { body: 'B' })).id}`;
      },
      change: (i) => ({ body: `B${i}` }),
      field: 'body',
    },
    { name: 'webhook', make: async () => `/v1/webhooks/${(await post('/v1/webhooks', { url: 'https://hooks.example.com/m', events: ['ticket.created'] })).id}`, change: (i) => ({ description: `D${i}` }), field: 'description' },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s: a stale If-Match is 412 on PATCH and DELETE and changes nothing; the current one passes', async (_name, c) => {
    const url = await c.make();
    const stale = (await get(url)).headers.etag as string;
    const first = await t.request({ method: 'PATCH', url, body: c.change(1), headers: { 'if-match': stale } });
    expect(first.statusCode, first.body).toBe(200);
    const current = first.headers.etag as string;
    expect(current).not.toBe(stale);
    expect((await get(url)).headers.etag).toBe(current);

    const late = await t.request({ method: 'PATCH', url, body: c.change(2), headers: { 'if-match': stale } });
    expect(late.statusCode, late.body).toBe(412);
    expect((await get(url)).json<Json>()[c.field]).toBe(c.change(1)[c.field]);
    expect((await t.request({ method: 'DELETE', url, headers: { 'if-match': stale } })).statusCode).toBe(412);
    expect((await get(url)).statusCode).toBe(200);

    expect((await t.request({ method: 'DELETE', url, headers: { 'if-match': current } })).statusCode).toBe(204);
    expect((await get(url)).statusCode).toBe(404);
  });

  it("a team's ETag covers its members: a member added makes an older ETag stale", async () => {
    const team = await post('/v1/teams', { name: 'Members' });
    const user = await post('/v1/users', { email: 'member@if-match.example.com', full_name: 'M' });
    const url = `/v1/teams/${team.id}`;
    const before = (await get(url)).headers.etag as string;
    expect((await t.request({ method: 'POST', url: `${url}/members`, body: { user_id: user.id } })).statusCode).toBeLessThan(300);
    expect((await get(url, { 'if-none-match': before })).statusCode).toBe(200);
    expect((await t.request({ method: 'PATCH', url, body: { name: 'Renamed' }, headers: { 'if-match': before } })).statusCode).toBe(412);
  });
});

describe('If-Match on attachments', () => {
  it('an attachment never changes: DELETE with any other tag is 412 and keeps it; with its own it deletes', async () => {
    const ticket = await newTicket();
    const made = await upload(t, ticket.id, 'kept.txt', 'text/plain', 'kept bytes');
    expect(made.statusCode, made.body).toBe(201);
    const url = `/v1/tickets/${ticket.id}/attachments/${made.json<Json>().id}`;
    const current = (await get(url)).headers.etag as string;
    expect((await t.request({ method: 'DELETE', url, headers: { 'if-match': '"not-this-one"' } })).statusCode).toBe(412);
    expect((await get(url)).statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url, headers: { 'if-match': current } })).statusCode).toBe(204);
    expect((await get(url)).statusCode).toBe(404);
  });
});

describe('If-Match on API keys', () => {
  it('a stale If-Match on PATCH or DELETE of a key is 412 and changes nothing', async () => {
    const made = await t.request({ method: 'POST', url: '/v1/api-keys', body: { name: 'First', role: 'admin' } });
    expect(made.statusCode).toBe(201);
    const url = `/v1/api-keys/${made.json<Json>().id}`;
    const stale = (await get(url)).headers.etag as string;
    expect((await t.request({ method: 'PATCH', url, body: { name: 'Second' }, headers: { 'if-match': stale } })).statusCode).toBe(200);
    expect((await t.request({ method: 'PATCH', url, body: { name: 'Third' }, headers: { 'if-match': stale } })).statusCode).toBe(412);
    expect((await t.request({ method: 'DELETE', url, headers: { 'if-match': stale } })).statusCode).toBe(412);
    const current = await get(url);
    expect(current.json<Json>()).toMatchObject({ name: 'Second', revoked_at: null });
    expect((await t.request({ method: 'DELETE', url, headers: { 'if-match': current.headers.etag as string } })).statusCode).toBe(204);
  });
});

describe('an If-Match route without a representation to tag', () => {
  it('stops the app from starting, instead of skipping its check', async () => {
    const app = Fastify();
    registerConditionalRequests(app);
    app.delete('/v1/things/:thing_id', { config: { ifMatch: true } }, () => null);
    await expect(app.ready()).rejects.toThrow(/If-Match routes without a GET or PATCH of one record at the same address: \/v1\/things\/:thing_id/);
    await app.close();
  });
});
