import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireRedis, TEST_REDIS_URL } from './helpers/redis.js';
import { openStream, type SseMessage } from './helpers/sse.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Presence across the processes of a fleet through Redis pub/sub (REDIS_URL;
 * docs/api-behaviour.md#live-stream-and-presence). The other process is played by a Redis client on
 * the same channel: what this app publishes reaches it, and what it publishes reaches this app's streams.
 */
const reachable = await requireRedis('live.redis');
const PREFIX = `ticketing-test-${randomUUID()}:`;
const CHANNEL = `${PREFIX}presence`;

describe.runIf(reachable)('presence through Redis pub/sub', () => {
  let t: TestApp;
  let base: string;
  let sub: Redis;
  let pub: Redis;
  const received: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    t = await buildTestApp({ REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: PREFIX, LIVE_PRESENCE_TTL_MS: '1500' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    sub = new Redis(TEST_REDIS_URL);
    pub = new Redis(TEST_REDIS_URL);
    sub.on('message', (_c: string, text: string) => received.push(JSON.parse(text) as Record<string, unknown>));
    await sub.subscribe(CHANNEL);
    // The app's own subscription is made in the background as it starts.
    for (let i = 0; i < 50 && (await pub.pubsub('NUMSUB', CHANNEL))[1] !== 2; i++) await new Promise((r) => setTimeout(r, 50));
  });
  afterAll(async () => {
    sub?.disconnect();
    pub?.disconnect();
    await t?.close();
  });

  async function newTicket(): Promise<string> {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: { subject: 'Shared', description: 'x', customer_name: 'C', customer_email: `r-${randomUUID()}@example.com` } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  }

  it("publishes this process's presence for the others", async () => {
    const ticketId = await newTicket();
    const put = await t.request({ method: 'PUT', url: `/v1/tickets/${ticketId}/presence`, body: { state: 'replying' } });
    expect(put.statusCode).toBe(204);
    for (let i = 0; i < 40 && !received.some((m) => m.ticket_id === ticketId); i++) await new Promise((r) => setTimeout(r, 50));
    const message = received.find((m) => m.ticket_id === ticketId)!;
    expect(message).toMatchObject({ organization_id: t.org.id, entry: { type: 'api_key', name: 'test key', state: 'replying' } });
  });

  it("shows another process's presence on this process's streams, and lets it lapse", async () => {
    const ticketId = await newTicket();
    const s = await openStream(base, { authorization: `Bearer ${t.org.adminKey}` });
    try {
      expect(s.status).toBe(200);
      const elsewhere = { id: randomUUID(), type: 'user', name: 'Dana Scully', state: 'viewing', ttl_ms: 60_000 };
      await pub.publish(CHANNEL, JSON.stringify({ origin: 'another-process', organization_id: t.org.id, ticket_id: ticketId, who: `user:${elsewhere.id}`, entry: elsewhere }));
      const isPresence = (m: SseMessage) => m.event === 'presence' && (JSON.parse(m.data) as { ticket_id: string }).ticket_id === ticketId;
      const seen = await s.next(isPresence);
      expect(JSON.parse(seen.data)).toEqual({ ticket_id: ticketId, users: [{ id: elsewhere.id, type: 'user', name: 'Dana Scully', state: 'viewing' }] });
      // Its life is capped by this process's own (1.5 s here), however long the message says.
      await s.next((m) => isPresence(m) && (JSON.parse(m.data) as { users: unknown[] }).users.length === 0, 4_000);
      // Another organization's presence never reaches this one.
      await pub.publish(CHANNEL, JSON.stringify({ origin: 'another-process', organization_id: randomUUID(), ticket_id: randomUUID(), who: 'user:x', entry: elsewhere }));
      await new Promise((r) => setTimeout(r, 300));
      expect(s.messages.filter((m) => m.event === 'presence' && !isPresence(m))).toEqual(s.messages.filter((m) => m.event === 'presence' && !isPresence(m) && !m.data.includes('Dana')));
      expect(s.messages.filter(isPresence).length).toBe(2);
    } finally {
      s.close();
    }
  });
});
