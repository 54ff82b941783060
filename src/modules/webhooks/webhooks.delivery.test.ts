import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../../../test/helpers/attachments.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { eventually, Receiver, type Received } from '../../../test/helpers/webhooks.js';
import { loadConfig } from '../../config.js';
import { EVENT_TYPES } from '../events/events.schemas.js';
import { startWebhookWorker, type WebhookWorker } from './webhooks.worker.js';

/**
 * Deliveries through a real receiver on localhost (WEBHOOKS_ALLOW_PRIVATE=true), verified with the
 * `standardwebhooks` package exactly as an integrator would. The worker is the job server.ts
 * starts; here the test starts it. Retries are shortened by WEBHOOKS_RETRY_SCHEDULE.
 */
type Json = Record<string, unknown>;
interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  response_status: number | null;
  response_latency_ms: number | null;
  error: string | null;
  next_attempt_at: string | null;
}

const ENV = {
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_RETRY_SCHEDULE: '100ms,200ms',
  WEBHOOKS_TIMEOUT_MS: '1500',
  WEBHOOKS_POLL_INTERVAL_MS: '50',
};

let t: TestApp;
let receiver: Receiver;
let worker: WebhookWorker;
beforeAll(async () => {
  t = await buildTestApp(ENV);
  receiver = await Receiver.start();
  worker = startWebhookWorker({ store: t.store, config: t.config, log: t.app.log });
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await t?.close();
});

async function createWebhook(path: string, events: string[] = ['*'], key?: string): Promise<{ id: string; secret: string }> {
  const res = await t.request({ method: 'POST', url: '/v1/webhooks', body: { url: receiver.url(path), events }, key });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const deliveries = async (webhookId: string, query = ''): Promise<Delivery[]> => {
  const res = await t.request({ method: 'GET', url: `/v1/webhooks/${webhookId}/deliveries${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Delivery[]>();
};

const json = (r: Received) => JSON.parse(r.body) as { type: string; timestamp: string; data: Json };

let seq = 0;
async function newTicket(key?: string): Promise<Json> {
  const res = await t.request({
    method: 'POST',
    url: '/v1/tickets',
    key,
    body: { customer_name: 'Ada', customer_email: `ada${++seq}@example.com`, subject: `Webhook ${seq}`, description: 'd' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Json>();
}

describe('a receiver on localhost gets every event, signed per Standard Webhooks', () => {
  it('delivers every event type in commit order, each verified by the standardwebhooks package', async () => {
    const other = await t.newOrg('Every type');
    const hook = await (async () => {
      const res = await t.request({ method: 'POST', url: '/v1/webhooks', key: other.adminKey, body: { url: receiver.url('/all'), events: ['*'] } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string; secret: string }>();
    })();
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const key = other.adminKey;
    const call = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
      const res = await t.request({ method, url, key, body });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.statusCode === 204 ? {} : res.json<Json>();
    };
    // Every kind of change, so every documented type is emitted at least once.
    const user = await call('POST', '/v1/users', { email: 'agent@example.com', full_name: 'Agent' });
    await call('PATCH', `/v1/users/${String(user.id)}`, { full_name: 'Agent Smith' });
    const team = await call('POST', '/v1/teams', { name: 'Billing' });
    await call('PATCH', `/v1/teams/${String(team.id)}`, { description: 'Invoices' });
    await call('POST', `/v1/teams/${String(team.id)}/members`, { user_id: user.id });
    await call('DELETE', `/v1/teams/${String(team.id)}/members/${String(user.id)}`);
    const customer = await call('POST', '/v1/customers', { name: 'Grace', email: 'grace@example.com' });
    await call('PATCH', `/v1/customers/${String(customer.id)}`, { is_vip: true });
    const ticket = await call('POST', '/v1/tickets', { customer_name: 'Grace', customer_email: 'grace@example.com', subject: 'Hi', description: 'd' });
    await call('PATCH', `/v1/tickets/${String(ticket.id)}`, { status: 'open', priority: 'high' });
    const rotated = await call('POST', `/v1/tickets/${String(ticket.id)}/tracking-token`);
    const comment = await call('POST', `/v1/tickets/${String(ticket.id)}/comments`, { body: 'Looking into it' });
    await call('PATCH', `/v1/tickets/${String(ticket.id)}/comments/${String(comment.id)}`, { body: 'Fixed' });
    await call('DELETE', `/v1/tickets/${String(ticket.id)}/comments/${String(comment.id)}`);
    const file = await upload(t, String(ticket.id), 'note.txt', 'text/plain', 'hello', key);
    expect(file.statusCode, file.body).toBe(201);
    await call('DELETE', `/v1/tickets/${String(ticket.id)}/attachments/${String(file.json<Json>().id)}`);
    const apiKey = await call('POST', '/v1/api-keys', { name: 'integration', role: 'admin', scopes: ['tickets:read'] });
    await call('PATCH', `/v1/api-keys/${String(apiKey.id)}`, { name: 'renamed' });
    await call('DELETE', `/v1/api-keys/${String(apiKey.id)}`);
    await call('DELETE', `/v1/tickets/${String(ticket.id)}`);
    await call('DELETE', `/v1/customers/${String(customer.id)}`);
    await call('DELETE', `/v1/teams/${String(team.id)}`);
    await call('DELETE', `/v1/users/${String(user.id)}`);

    const feed = (await t.request({ method: 'GET', url: '/v1/events?limit=1000', key })).json<{ events: Json[] }>().events;
    const got = await eventually(() => receiver.at('/all').length >= feed.length && receiver.at('/all'), 20_000, 'every event delivered');
    expect(got).toHaveLength(feed.length);

    const verifier = new StandardWebhook(hook.secret);
    for (const [i, request] of got.entries()) {
      // Throws when the signature, the id or the timestamp does not verify.
      const payload = verifier.verify(request.body, request.headers as Record<string, string>) as { type: string; timestamp: string; data: Json };
      expect(payload.data).toEqual(feed[i]);
      expect(payload.type).toBe(feed[i]!.type);
      expect(payload.timestamp).toBe(feed[i]!.occurred_at);
      expect(request.headers['webhook-id']).toBe(feed[i]!.id);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/^ticketing-webhooks\//);
    }
    // The SLA sweeper's events come with time, not from a request: sla.test.ts delivers them to a webhook.
    expect(new Set(got.map((r) => json(r).type))).toEqual(new Set(EVENT_TYPES.filter((type) => !type.startsWith('sla.'))));
    // No delivery carries a tracking token, the first or the rotated one.
    for (const token of [ticket.tracking_token, rotated.tracking_token]) {
      expect(token).toMatch(/^[0-9a-f-]{36}$/);
      expect(got.some((r) => r.body.includes(String(token)))).toBe(false);
    }
    expect(got.some((r) => json(r).data.changes !== null && 'tracking_token' in (json(r).data.changes as Json))).toBe(true);
    // A tampered body or another secret does not verify.
    const first = got[0]!;
    expect(() => verifier.verify(`${first.body} `, first.headers as Record<string, string>)).toThrow();
    expect(() => new StandardWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(first.body, first.headers as Record<string, string>)).toThrow();

    const log = await eventually(async () => {
      const res = await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries?limit=100`, key });
      const list = res.json<Delivery[]>();
      return list.length === feed.length && list.every((d) => d.status === 'succeeded') && list;
    }, 10_000, 'the delivery log to show every delivery succeeded');
    // Newest first, one attempt each, with the answer's status and a latency.
    expect(log.map((d) => d.event_id)).toEqual(feed.map((e) => e.id).reverse());
    for (const d of log) expect(d).toMatchObject({ attempts: 1, response_status: 200, error: null, next_attempt_at: null });
    expect(log.every((d) => typeof d.response_latency_ms === 'number')).toBe(true);
  });

  it('delivers only the subscribed types, and only events committed after the endpoint was made', async () => {
    const before = await newTicket();
    const hook = await createWebhook('/created-only', ['ticket.created']);
    const ticket = await newTicket();
    await t.request({ method: 'PATCH', url: `/v1/tickets/${String(ticket.id)}`, body: { status: 'open' } });
    const after = await newTicket();
    const got = await eventually(() => receiver.at('/created-only').length >= 2 && receiver.at('/created-only'), 10_000, 'two deliveries');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at('/created-only').map((r) => json(r).data.resource_id)).toEqual([ticket.id, after.id]);
    expect(got.map((r) => json(r).type)).toEqual(['ticket.created', 'ticket.created']);
    expect(got.some((r) => json(r).data.resource_id === before.id)).toBe(false);
    await t.request({ method: 'DELETE', url: `/v1/webhooks/${hook.id}` });
  });
});

describe('an endpoint receives only events its creating key could read', () => {
  it('"*" by a key with tickets:read only: ticket events, never comment or customer ones', async () => {
    const writer = await t.org.key({ scopes: ['webhooks:read', 'webhooks:write', 'tickets:read'] });
    const res = await t.request({ method: 'POST', url: '/v1/webhooks', key: writer, body: { url: receiver.url('/tickets-only'), events: ['*'] } });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = await newTicket();
    await t.request({ method: 'POST', url: `/v1/tickets/${String(ticket.id)}/comments`, body: { body: 'hidden' } });
    await t.request({ method: 'PATCH', url: `/v1/customers/${String(ticket.customer_id)}`, body: { notes: 'hidden' } });
    await t.request({ method: 'PATCH', url: `/v1/tickets/${String(ticket.id)}`, body: { status: 'open' } });
    const got = await eventually(() => receiver.at('/tickets-only').length >= 2 && receiver.at('/tickets-only'), 10_000, 'two deliveries');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at('/tickets-only').map((r) => json(r).type)).toEqual(['ticket.created', 'ticket.updated']);
    expect(got.every((r) => !r.body.includes('hidden'))).toBe(true);
  });
});

describe('retries, order and failures', () => {
  it('retries a delivery the receiver answered 500, until a 200', async () => {
    receiver.answer = (r) => (r.path === '/flaky' && receiver.at('/flaky').length === 1 ? 500 : 200);
    const hook = await createWebhook('/flaky', ['ticket.created']);
    const ticket = await newTicket();
    const got = await eventually(() => receiver.at('/flaky').length >= 2 && receiver.at('/flaky'), 10_000, 'the retry');
    expect(got[0]!.headers['webhook-id']).toBe(got[1]!.headers['webhook-id']);
    expect(json(got[1]!).data.resource_id).toBe(ticket.id);
    // The retry is signed afresh (its own timestamp) and verifies like the first.
    const verifier = new StandardWebhook(hook.secret);
    for (const r of got) verifier.verify(r.body, r.headers as Record<string, string>);
    const [delivery] = await eventually(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 200, error: null });
    receiver.answer = () => 200;
  });

  it('keeps per-endpoint order: a later event waits while an earlier one is retried', async () => {
    let failures = 2;
    receiver.answer = (r) => (r.path === '/ordered' && json(r).data.resource_id === firstId && failures-- > 0 ? 503 : 200);
    let firstId = '';
    const hook = await createWebhook('/ordered', ['ticket.created']);
    firstId = String((await newTicket()).id);
    const second = await newTicket();
    const got = await eventually(() => receiver.at('/ordered').length >= 4 && receiver.at('/ordered'), 10_000, 'four requests');
    expect(got.map((r) => json(r).data.resource_id)).toEqual([firstId, firstId, firstId, second.id]);
    const list = await eventually(async () => {
      const l = await deliveries(hook.id);
      return l.length === 2 && l.every((d) => d.status === 'succeeded') && l;
    });
    expect(list.map((d) => d.attempts)).toEqual([1, 3]);
    receiver.answer = () => 200;
  });

  it('disables an endpoint whose delivery fails through every retry, shows why, and resumes when made active', async () => {
    receiver.answer = (r) => (r.path === '/down' ? 500 : 200);
    const hook = await createWebhook('/down', ['ticket.created']);
    const failed = await newTicket();
    const disabled = await eventually(async () => {
      const res = await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}` });
      const body = res.json<Json>();
      return body.status === 'disabled' && body;
    }, 10_000, 'the endpoint to be disabled');
    expect(disabled.disabled_at).toEqual(expect.any(String) as string);
    expect(String(disabled.disabled_reason)).toContain('HTTP 500');
    // The first attempt and the two retries of WEBHOOKS_RETRY_SCHEDULE, then no more.
    expect(receiver.at('/down')).toHaveLength(3);
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, response_status: 500, error: 'HTTP 500', next_attempt_at: null });

    // Events while disabled wait; nothing is sent.
    const waiting = await newTicket();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at('/down')).toHaveLength(3);

    receiver.answer = () => 200;
    const resumed = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { status: 'active' } });
    expect(resumed.json()).toMatchObject({ status: 'active', disabled_at: null, disabled_reason: null });
    await eventually(() => receiver.at('/down').length >= 4, 10_000, 'the waiting event');
    expect(json(receiver.at('/down')[3]!).data.resource_id).toBe(waiting.id);

    // The failed delivery is sent again by hand: one more attempt.
    const retried = await t.request({ method: 'POST', url: `/v1/webhooks/${hook.id}/deliveries/${delivery!.id}/retry` });
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json()).toMatchObject({ id: delivery!.id, status: 'pending', attempts: 3 });
    await eventually(() => receiver.at('/down').length >= 5, 10_000, 'the manual retry');
    expect(json(receiver.at('/down')[4]!).data.resource_id).toBe(failed.id);
    // The receiver has the request before the worker has its answer recorded: wait for the record.
    const after = await eventually(
      async () => {
        const found = (await deliveries(hook.id)).find((d) => d.id === delivery!.id);
        return found?.status !== 'pending' && found;
      },
      10_000,
      'the retry recorded',
    );
    expect(after).toMatchObject({ status: 'succeeded', attempts: 4, response_status: 200 });
  });

  it('a paused endpoint holds its events and delivers them in order once resumed', async () => {
    const hook = await createWebhook('/paused', ['ticket.created']);
    expect((await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { status: 'paused' } })).json()).toMatchObject({ status: 'paused' });
    const a = await newTicket();
    const b = await newTicket();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.at('/paused')).toHaveLength(0);
    await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { status: 'active' } });
    const got = await eventually(() => receiver.at('/paused').length >= 2 && receiver.at('/paused'));
    expect(got.map((r) => json(r).data.resource_id)).toEqual([a.id, b.id]);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    receiver.answer = (r) => (r.path === '/moved' ? { status: 302, headers: { location: receiver.url('/elsewhere') } } : 200);
    const hook = await createWebhook('/moved', ['ticket.created']);
    await newTicket();
    const [delivery] = await eventually(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.response_status === 302 && list;
    });
    expect(delivery!.error).toBe('HTTP 302: redirects are not followed');
    expect(receiver.at('/elsewhere')).toHaveLength(0);
    await t.request({ method: 'DELETE', url: `/v1/webhooks/${hook.id}` });
    receiver.answer = () => 200;
  });

  it('gives up an attempt after WEBHOOKS_TIMEOUT_MS', async () => {
    receiver.answer = (r) => (r.path === '/slow' ? 'hang' : 200);
    const hook = await createWebhook('/slow', ['ticket.created']);
    await newTicket();
    const [delivery] = await eventually(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.error && list;
    }, 10_000, 'the timed-out attempt');
    expect(delivery).toMatchObject({ response_status: null, error: 'no answer within 1500 ms' });
    // Retries come 100 ms apart here: a slow machine may have made the next one before this read.
    expect(delivery!.attempts).toBeGreaterThanOrEqual(1);
    expect(delivery!.response_latency_ms).toBeGreaterThanOrEqual(1400);
    await t.request({ method: 'DELETE', url: `/v1/webhooks/${hook.id}` });
    receiver.answer = () => 200;
  });
});

describe('secret rotation', () => {
  it('signs with the new and the previous secret during the grace period, so either verifies', async () => {
    const hook = await createWebhook('/rotated', ['ticket.created']);
    const rotated = await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, body: { rotate_secret: true } });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const body = rotated.json<{ secret: string; previous_secret_expires_at: string }>();
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.secret).not.toBe(hook.secret);
    const grace = Date.parse(body.previous_secret_expires_at) - Date.now();
    expect(grace).toBeGreaterThan(23.9 * 3_600_000);
    expect(grace).toBeLessThanOrEqual(24 * 3_600_000);
    // Neither a get nor a list shows a secret again.
    const got = await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}` });
    expect(got.json()).not.toHaveProperty('secret');

    await newTicket();
    const [request] = await eventually(() => receiver.at('/rotated').length >= 1 && receiver.at('/rotated'));
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    new StandardWebhook(body.secret).verify(request!.body, request!.headers as Record<string, string>);
    new StandardWebhook(hook.secret).verify(request!.body, request!.headers as Record<string, string>);
  });
});

describe('what is refused when delivering (SSRF), without WEBHOOKS_ALLOW_PRIVATE', () => {
  it('refuses targets on loopback, private, link-local and ::1 addresses, also through a name, and never connects', async () => {
    // The endpoints were accepted while private targets were allowed (or DNS has changed since):
    // the worker of a process without the setting must still refuse them.
    const targets = [
      `https://127.0.0.1:${receiver.port}/ssrf`,
      `https://localhost:${receiver.port}/ssrf`,
      `https://[::1]:${receiver.port}/ssrf`,
      'https://10.0.0.1/ssrf',
      'https://169.254.169.254/latest/meta-data/',
      `https://[::ffff:127.0.0.1]:${receiver.port}/ssrf`,
      `http://example.com/ssrf`,
    ];
    const org = await t.newOrg('SSRF');
    const hooks: string[] = [];
    for (const url of targets) {
      const res = await t.request({ method: 'POST', url: '/v1/webhooks', key: org.adminKey, body: { url, events: ['ticket.created'] } });
      expect(res.statusCode, res.body).toBe(201);
      hooks.push(res.json<{ id: string }>().id);
    }
    await worker.stop();
    const strict = startWebhookWorker({
      store: t.store,
      config: loadConfig({ ...ENV, WEBHOOKS_ALLOW_PRIVATE: 'false' }),
      log: t.app.log,
    });
    try {
      await newTicket(org.adminKey);
      const failures = await eventually(async () => {
        const all = await Promise.all(
          hooks.map(async (id) => (await t.request({ method: 'GET', url: `/v1/webhooks/${id}/deliveries`, key: org.adminKey })).json<Delivery[]>()[0]),
        );
        return all.every((d) => d?.error) && all;
      }, 15_000, 'every target refused');
      for (const [i, d] of failures.entries()) {
        expect(d!.response_status, targets[i]).toBeNull();
        expect(d!.error, targets[i]).toMatch(/not a public address|non-public|https:\/\/ URL|this machine/);
      }
      expect(failures[1]!.error).toContain('localhost resolves to 127.0.0.1, which is not a public address');
      expect(receiver.at('/ssrf')).toHaveLength(0);
    } finally {
      await strict.stop();
      worker = startWebhookWorker({ store: t.store, config: t.config, log: t.app.log });
    }
  });
});

describe('after the worker stops', () => {
  it('an attempt in flight is cut short and due again at once, for the next process', async () => {
    receiver.answer = (r) => (r.path === '/interrupted' ? 'hang' : 200);
    const hook = await createWebhook('/interrupted', ['ticket.created']);
    await newTicket();
    await eventually(() => receiver.at('/interrupted').length >= 1, 10_000, 'the attempt');
    await worker.stop();
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, error: 'interrupted: the server is shutting down' });
    expect(Date.parse(delivery!.next_attempt_at!)).toBeLessThanOrEqual(Date.now());
    receiver.answer = () => 200;
    worker = startWebhookWorker({ store: t.store, config: t.config, log: t.app.log });
    await eventually(() => receiver.at('/interrupted').length >= 2, 10_000, 'the retry');
    const [done] = await eventually(async () => {
      const list = await deliveries(hook.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(done).toMatchObject({ attempts: 2, response_status: 200 });
  });
});
