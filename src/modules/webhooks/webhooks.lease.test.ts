import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { eventually, Receiver } from '../../../test/helpers/webhooks.js';
import { startWebhookWorker, type WebhookWorker } from './webhooks.worker.js';

/**
 * A delivery's result is written only by the holder of the endpoint's lease. A process frozen
 * mid-attempt past its lease (here: the lease is made to run out while its request hangs) must not
 * overwrite what the process that took over did, nor disable the endpoint, when it wakes up.
 */
const TIMEOUT_MS = 1200;
const ENV = {
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  // One retry: the second attempt is the last, and its failure would disable the endpoint.
  WEBHOOKS_RETRY_SCHEDULE: '100ms',
  WEBHOOKS_TIMEOUT_MS: String(TIMEOUT_MS),
  WEBHOOKS_POLL_INTERVAL_MS: '50',
};

let t: TestApp;
let receiver: Receiver;
const workers: WebhookWorker[] = [];
beforeAll(async () => {
  t = await buildTestApp(ENV);
  receiver = await Receiver.start();
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await receiver?.close();
  await t?.close();
});

interface Delivery {
  status: string;
  attempts: number;
  response_status: number | null;
  error: string | null;
}

describe('lease-checked writes of delivery results', () => {
  it("a holder frozen past its lease changes nothing: the next holder's success stays, the endpoint stays active", async () => {
    const hook = (await t.request({ method: 'POST', url: '/v1/webhooks', body: { url: receiver.url('/lease'), events: ['ticket.created'] } })).json<{
      id: string;
    }>();
    // First attempt 500 (a retry is scheduled); second (the last) hangs until the first holder's
    // timeout; the third, by the holder that took over, succeeds.
    receiver.answer = (request, index) => (request.path !== '/lease' ? 200 : index === 0 ? 500 : index === 1 ? 'hang' : 200);
    // One endpoint at a time, so the first worker cannot claim the endpoint again itself.
    const first = startWebhookWorker({ store: t.store, config: { webhooks: { ...t.config.webhooks, concurrency: 1 } }, log: t.app.log });
    workers.push(first);

    const created = await t.request({
      method: 'POST',
      url: '/v1/tickets',
      body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Lease', description: 'd' },
    });
    expect(created.statusCode).toBe(201);
    await eventually(() => receiver.at('/lease').length === 2, 10_000, 'the second attempt to hang');
    const hungAt = Date.now();

    // The first holder is frozen past its lease: the lease runs out while its request still hangs.
    await t.store.db.updateTable('webhook_endpoints').set({ lease_expires_at: new Date(0).toISOString() }).where('id', '=', hook.id).execute();
    const second = startWebhookWorker({ store: t.store, config: t.config, log: t.app.log });
    workers.push(second);
    await eventually(() => receiver.at('/lease').length === 3, 15_000, 'the second worker to deliver');
    const log = async () => (await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}/deliveries` })).json<Delivery[]>();
    await eventually(async () => (await log())[0]?.status === 'succeeded', 15_000, 'the delivery to succeed');
    expect(Date.now() - hungAt).toBeLessThan(TIMEOUT_MS);

    // Now the first holder's request times out: its last attempt failed, which, were it still the
    // holder, would fail the delivery and disable the endpoint.
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS + 800));
    const [delivery] = await log();
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, response_status: 200, error: null });
    const endpoint = (await t.request({ method: 'GET', url: `/v1/webhooks/${hook.id}` })).json<{ status: string; disabled_reason: string | null }>();
    expect(endpoint).toMatchObject({ status: 'active', disabled_reason: null });
    expect(receiver.at('/lease')).toHaveLength(3);
  });
});
