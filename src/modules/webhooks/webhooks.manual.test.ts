import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { eventually, Receiver } from '../../../test/helpers/webhooks.js';
import { startWebhookWorker, type WebhookWorker } from './webhooks.worker.js';

/**
 * What a person does with webhooks by hand: retry a delivery (sent now, not at the next backoff
 * slot), send a test event, and read the receiver's answers in the delivery log. The worker polls
 * only every 10 minutes here, so anything sent within seconds was sent because it was asked for.
 */
const ENV = {
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_RETRY_SCHEDULE: '1h',
  WEBHOOKS_TIMEOUT_MS: '2000',
  WEBHOOKS_POLL_INTERVAL_MS: '600000',
};

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
}

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

let seq = 0;
async function setUp(path: string): Promise<{ hook: { id: string; secret: string }; key: string }> {
  const org = await t.newOrg(`Manual ${++seq}`);
  const res = await t.request({ method: 'POST', url: '/v1/webhooks', key: org.adminKey, body: { url: receiver.url(path), events: ['ticket.created'] } });
  expect(res.statusCode, res.body).toBe(201);
  return { hook: res.json(), key: org.adminKey };
}

async function newTicket(key: string): Promise<void> {
  const res = await t.request({
    method: 'POST',
    url: '/v1/tickets',
    key,
    body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Manual', description: 'd' },
  });
  expect(res.statusCode, res.body).toBe(201);
}

const deliveries = async (id: string, key: string) => (await t.request({ method: 'GET', url: `/v1/webhooks/${id}/deliveries`, key })).json<Delivery[]>();
const retry = (id: string, deliveryId: string, key: string) =>
  t.request({ method: 'POST', url: `/v1/webhooks/${id}/deliveries/${deliveryId}/retry`, key });

describe('the delivery log keeps what the receiver answered', () => {
  it("keeps the HTTP status and the first 4 KiB of the answer's body", async () => {
    const { hook, key } = await setUp('/answers');
    const long = `${'é'.repeat(10)}${'x'.repeat(6000)}`;
    receiver.answer = (request) => (request.path === '/answers' ? { status: 503, body: long } : 200);
    await newTicket(key);
    const [failed] = await eventually(async () => {
      const list = await deliveries(hook.id, key);
      return list[0]?.attempts === 1 && list[0].response_status !== null && list;
    });
    expect(failed).toMatchObject({ status: 'pending', response_status: 503, error: 'HTTP 503' });
    // 4096 bytes: ten two-byte characters, then 4076 x.
    expect(failed!.response_body).toBe(long.slice(0, 10 + 4076));
    expect(Buffer.byteLength(failed!.response_body!)).toBe(4096);

    receiver.answer = (request) => (request.path === '/answers' ? { status: 200, body: '{"received":true}' } : 200);
    expect((await retry(hook.id, failed!.id, key)).statusCode).toBe(202);
    const [done] = await eventually(async () => {
      const list = await deliveries(hook.id, key);
      return list[0]?.status === 'succeeded' && list;
    }, 15_000);
    expect(done).toMatchObject({ response_status: 200, response_body: '{"received":true}', error: null });
  });
});

describe('retrying a delivery by hand sends it now', () => {
  it('a pending delivery waiting for its next retry (an hour away) is sent at once, and its schedule goes on', async () => {
    const { hook, key } = await setUp('/pending');
    receiver.answer = (request) => (request.path === '/pending' && receiver.at('/pending').length === 1 ? 500 : 200);
    await newTicket(key);
    const [pending] = await eventually(async () => {
      const list = await deliveries(hook.id, key);
      return list[0]?.attempts === 1 && list[0].next_attempt_at !== null && list;
    });
    expect(pending!.status).toBe('pending');
    expect(Date.parse(pending!.next_attempt_at!) - Date.now()).toBeGreaterThan(50 * 60_000);

    const before = Date.now();
    const res = await retry(hook.id, pending!.id, key);
    expect(res.statusCode).toBe(202);
    const answered = res.json<Delivery>();
    expect(answered.status).toBe('pending');
    expect(Math.abs(Date.parse(answered.next_attempt_at!) - before)).toBeLessThan(5_000);
    await eventually(() => receiver.at('/pending').length === 2, 15_000, 'the retried delivery to be sent now');
    const [done] = await eventually(async () => {
      const list = await deliveries(hook.id, key);
      return list[0]?.status === 'succeeded' && list;
    }, 15_000);
    expect(done!.attempts).toBe(2);
  });

  it('a failed delivery of a disabled endpoint is sent at once after the endpoint is made active and the delivery retried', async () => {
    const { hook, key } = await setUp('/failed');
    receiver.answer = (request) => (request.path === '/failed' ? 500 : 200);
    await newTicket(key);
    const [first] = await eventually(async () => {
      const list = await deliveries(hook.id, key);
      return list[0]?.attempts === 1 && list[0].next_attempt_at !== null && list;
    });
    // Its last retry, now rather than in an hour: it fails, and the endpoint is disabled.
    expect((await retry(hook.id, first!.id, key)).statusCode).toBe(202);
    const [failed] = await eventually(async () => {
      const list = await deliveries(hook.id, key);
      return list[0]?.status === 'failed' && list;
    }, 15_000);
    expect(failed!.attempts).toBe(2);
    const endpoint = (await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}`, key })).json<{ status: string }>();
    expect(endpoint.status).toBe('disabled');

    receiver.answer = () => 200;
    expect((await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, key, body: { status: 'active' } })).statusCode).toBe(200);
    const res = await retry(hook.id, failed!.id, key);
    expect(res.statusCode).toBe(202);
    expect(res.json<Delivery>().status).toBe('pending');
    await eventually(() => receiver.at('/failed').length === 3, 15_000, 'the retried delivery to be sent now');
    const [done] = await eventually(async () => {
      const list = await deliveries(hook.id, key);
      return list[0]?.status === 'succeeded' && list;
    }, 15_000);
    expect(done!.attempts).toBe(3);
  });
});

describe('POST /v1/webhooks/{id}/test', () => {
  interface TestResult {
    webhook_id: string;
    event_id: string;
    event_type: string;
    status: string;
    response_status: number | null;
    response_body: string | null;
    error: string | null;
  }

  it('sends a signed webhook.test event now and answers with how the receiver answered', async () => {
    const { hook, key } = await setUp('/test-ok');
    receiver.answer = (request) => (request.path === '/test-ok' ? { status: 200, body: 'thanks' } : 200);
    const res = await t.request({ method: 'POST', url: `/v1/webhooks/${hook.id}/test`, key });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json<TestResult>();
    expect(result).toMatchObject({ webhook_id: hook.id, event_type: 'webhook.test', status: 'succeeded', response_status: 200, response_body: 'thanks', error: null });

    const [request] = receiver.at('/test-ok');
    expect(request).toBeDefined();
    expect(request!.headers['webhook-id']).toBe(result.event_id);
    // Verified exactly as a receiver verifies deliveries.
    const payload = new StandardWebhook(hook.secret).verify(request!.body, {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    }) as { type: string; data: { webhook_id: string } };
    expect(payload.type).toBe('webhook.test');
    expect(payload.data.webhook_id).toBe(hook.id);
    // Not a change: nothing in the delivery log.
    expect(await deliveries(hook.id, key)).toEqual([]);
  });

  it("reports a receiver's failure, also for a paused endpoint; 404 for an unknown one", async () => {
    const { hook, key } = await setUp('/test-fail');
    receiver.answer = (request) => (request.path === '/test-fail' ? { status: 401, body: 'bad signature' } : 200);
    expect((await t.request({ method: 'PATCH', url: `/v1/webhooks/${hook.id}`, key, body: { status: 'paused' } })).statusCode).toBe(200);
    const res = await t.request({ method: 'POST', url: `/v1/webhooks/${hook.id}/test`, key });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TestResult>()).toMatchObject({ status: 'failed', response_status: 401, response_body: 'bad signature', error: 'HTTP 401' });
    expect(receiver.at('/test-fail')).toHaveLength(1);

    const missing = await t.request({ method: 'POST', url: '/v1/webhooks/00000000-0000-4000-8000-000000000000/test', key });
    expect(missing.statusCode).toBe(404);
  });
});
