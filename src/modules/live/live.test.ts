import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStream, type SseMessage, type SseStream } from '../../../test/helpers/sse.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

/** The live stream and presence through a listening app (docs/api-behaviour.md#live-stream-and-presence). */

let t: TestApp;
let base: string;
const streams: SseStream[] = [];
beforeAll(async () => {
  t = await buildTestApp({ LIVE_STREAMS_PER_PRINCIPAL: '3', LIVE_PRESENCE_TTL_MS: '700', LIVE_HEARTBEAT_MS: '300' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
// Each test closes its streams (a key may hold only 3 here).
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await new Promise((r) => setTimeout(r, 50));
});
afterAll(async () => {
  await t.close();
});

const open = async (key: string, headers: Record<string, string> = {}): Promise<SseStream> => {
  const s = await openStream(base, { authorization: `Bearer ${key}`, ...headers });
  streams.push(s);
  expect(s.status).toBe(200);
  return s;
};
const data = (m: SseMessage) => JSON.parse(m.data) as Record<string, unknown>;
const changeOf = (type: string, resourceId: string) => (m: SseMessage) => m.event === 'change' && data(m).type === type && data(m).resource_id === resourceId;

async function createTicket(subject = 'Live'): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body: { subject, description: 'Live', customer_name: 'C', customer_email: `c-${Date.now()}-${Math.random()}@example.com` } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

describe('GET /v1/stream', () => {
  it('streams each change as the feed shows it, with the event id as the message id', async () => {
    const s = await open(t.org.adminKey);
    expect(s.status).toBe(200);
    expect(s.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const ticketId = await createTicket('Streamed');
    const message = await s.next(changeOf('ticket.created', ticketId));
    const feed = await t.request({ method: 'GET', url: '/v1/events?types=ticket.created&limit=100' });
    const item = feed.json<{ events: Array<{ id: string; resource_id: string }> }>().events.find((e) => e.resource_id === ticketId)!;
    expect(message.id).toBe(item.id);
    expect(JSON.parse(message.data)).toEqual(item);
  });

  it('shows only what the key may read: no ticket events without tickets:read', async () => {
    const customersOnly = await t.org.key({ scopes: ['events:read', 'customers:read'] });
    const s = await open(customersOnly);
    const ticketId = await createTicket('Hidden');
    const customer = await t.request({ method: 'POST', url: '/v1/customers', body: { email: `seen-${Date.now()}@example.com`, name: 'Seen' } });
    expect(customer.statusCode, customer.body).toBe(201);
    await s.next(changeOf('customer.created', customer.json<{ id: string }>().id));
    expect(s.messages.filter((m) => m.event === 'change').map((m) => data(m).resource_type)).not.toContain('ticket');
    expect(s.messages.some((m) => m.event === 'change' && data(m).resource_id === ticketId)).toBe(false);
  });

  it("never shows another organization's changes", async () => {
    const other = await t.newOrg('Other');
    const s = await open(other.adminKey);
    const mine = await createTicket('Not theirs');
    const res = await t.request({ method: 'POST', url: '/v1/tickets', key: other.adminKey, body: { subject: 'Theirs', description: 'x', customer_name: 'T', customer_email: 'theirs@example.com' } });
    const theirs = res.json<{ id: string }>().id;
    await s.next(changeOf('ticket.created', theirs));
    expect(s.messages.some((m) => m.event === 'change' && JSON.stringify(data(m)).includes(mine))).toBe(false);
  });

  it('resumes after Last-Event-ID; an unknown one starts at the end with a resync message', async () => {
    const first = await createTicket('Before the break');
    const second = await createTicket('During the break');
    const feed = await t.request({ method: 'GET', url: '/v1/events?types=ticket.created&limit=500' });
    const events = feed.json<{ events: Array<{ id: string; resource_id: string }> }>().events;
    const firstEvent = events.find((e) => e.resource_id === first)!;
    const s = await open(t.org.adminKey, { 'last-event-id': firstEvent.id });
    await s.next(changeOf('ticket.created', second));
    expect(s.messages.some((m) => m.event === 'change' && m.id === firstEvent.id)).toBe(false);
    expect(s.messages.some((m) => m.event === 'resync')).toBe(false);

    const lost = await open(t.org.adminKey, { 'last-event-id': '00000000-0000-4000-8000-000000000000' });
    await lost.next((m) => m.event === 'resync');
    const third = await createTicket('After');
    await lost.next(changeOf('ticket.created', third));
    expect(lost.messages.some((m) => m.event === 'change' && data(m).resource_id === second)).toBe(false);
  });

  it('sends a comment line as heartbeat', async () => {
    const s = await open(t.org.adminKey);
    await new Promise((r) => setTimeout(r, 800));
    expect(s.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2);
  });

  it('needs a key (401) with events:read (403)', async () => {
    const none = await openStream(base, {});
    expect(none.status).toBe(401);
    expect(JSON.parse(await none.body())).toHaveProperty('detail');
    const ticketsOnly = await t.org.key({ scopes: ['tickets:read'] });
    const denied = await openStream(base, { authorization: `Bearer ${ticketsOnly}` });
    expect(denied.status).toBe(403);
    await denied.body();
  });

  it('caps the open streams of a key (429 saying why), and counts a closed one off', async () => {
    const key = await t.org.key({ scopes: ['events:read'] });
    const held = [await open(key), await open(key), await open(key)];
    const refused = await openStream(base, { authorization: `Bearer ${key}` });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect((JSON.parse(await refused.body()) as { detail: string }).detail).toMatch(/Too many live streams are open for this API key \(at most 3, LIVE_STREAMS_PER_PRINCIPAL\)/);
    held[0]!.close();
    await held[0]!.ended;
    await new Promise((r) => setTimeout(r, 100));
    const again = await open(key);
    expect(again.status).toBe(200);
  });
});

describe('presence', () => {
  it('is broadcast to streams that may read tickets, by key name, and lapses without refresh', async () => {
    const ticketId = await createTicket('Watched');
    const viewer = await t.org.key({ name: 'Dana (integration)', scopes: ['tickets:read'] });
    const s = await open(t.org.adminKey);
    const blind = await open(await t.org.key({ scopes: ['events:read', 'customers:read'] }));
    const put = await t.request({ method: 'PUT', url: `/v1/tickets/${ticketId}/presence`, key: viewer, body: { state: 'replying' } });
    expect(put.statusCode, put.body).toBe(204);
    const seen = await s.next((m) => m.event === 'presence' && data(m).ticket_id === ticketId);
    const users = data(seen).users as Array<Record<string, unknown>>;
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ type: 'api_key', name: 'Dana (integration)', state: 'replying' });
    expect(Object.keys(users[0]!).sort()).toEqual(['id', 'name', 'state', 'type']);
    // No refresh: gone after the lifetime (700 ms here).
    await s.next((m) => m.event === 'presence' && data(m).ticket_id === ticketId && (data(m).users as unknown[]).length === 0, 3_000);
    expect(blind.messages.some((m) => m.event === 'presence')).toBe(false);
  });

  it('is sent to a stream that opens while someone is on a ticket; gone removes it at once', async () => {
    const ticketId = await createTicket('Already watched');
    await t.request({ method: 'PUT', url: `/v1/tickets/${ticketId}/presence`, body: { state: 'viewing' } });
    const s = await open(t.org.adminKey);
    await s.next((m) => m.event === 'presence' && data(m).ticket_id === ticketId && (data(m).users as Array<{ state: string }>)[0]?.state === 'viewing');
    await t.request({ method: 'PUT', url: `/v1/tickets/${ticketId}/presence`, body: { state: 'gone' } });
    await s.next((m) => m.event === 'presence' && data(m).ticket_id === ticketId && (data(m).users as unknown[]).length === 0, 500);
  });

  it("is 404 for another organization's ticket and 422 for an unknown state", async () => {
    const ticketId = await createTicket('Mine');
    const other = await t.newOrg('Elsewhere');
    const res = await t.request({ method: 'PUT', url: `/v1/tickets/${ticketId}/presence`, key: other.adminKey, body: { state: 'viewing' } });
    expect(res.statusCode).toBe(404);
    const bad = await t.request({ method: 'PUT', url: `/v1/tickets/${ticketId}/presence`, body: { state: 'typing' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: string }>().detail).toMatch(/state/);
  });

  it("names a signed-in user by their full name", async () => {
    const password = 'correct horse battery staple';
    const email = `dana-${Date.now()}@example.com`;
    const user = await t.request({ method: 'POST', url: '/v1/users', body: { email, full_name: 'Dana Scully', password } });
    expect(user.statusCode, user.body).toBe(201);
    const signIn = await t.request({ method: 'POST', url: '/v1/sessions', key: null, body: { email, password } });
    expect(signIn.statusCode, signIn.body).toBe(201);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    const csrf = signIn.json<{ csrf_token: string }>().csrf_token;
    const ticketId = await createTicket('Seen by Dana');
    const s = await openStream(base, { cookie });
    streams.push(s);
    expect(s.status).toBe(200);
    const put = await t.request({ method: 'PUT', url: `/v1/tickets/${ticketId}/presence`, key: null, headers: { cookie, 'x-csrf-token': csrf }, body: { state: 'viewing' } });
    expect(put.statusCode, put.body).toBe(204);
    const seen = await s.next((m) => m.event === 'presence' && data(m).ticket_id === ticketId);
    expect(data(seen).users).toEqual([{ id: user.json<{ id: string }>().id, type: 'user', name: 'Dana Scully', state: 'viewing' }]);
  });
});

describe('closing the app', () => {
  it('ends open streams at once instead of waiting on them', async () => {
    const own = await buildTestApp();
    const address = await own.app.listen({ port: 0, host: '127.0.0.1' });
    const s = await openStream(address, { authorization: `Bearer ${own.org.adminKey}` });
    expect(s.status).toBe(200);
    const started = Date.now();
    await own.close();
    await s.ended;
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
