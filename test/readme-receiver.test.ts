import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookWorker, type WebhookWorker } from '../src/modules/webhooks/webhooks.worker.js';
import { root } from './helpers/processes.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { eventually } from './helpers/webhooks.js';

/**
 * The README's webhook receiver (standard library only) is run exactly as printed, against real
 * deliveries: a documented example that does not verify our signatures would be worse than none.
 */
function readmeReceiver(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const match = /<!-- receiver-example[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('README.md has no receiver example after its <!-- receiver-example --> marker');
  return match[1]!;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the README's receiver example", () => {
  let t: TestApp;
  let worker: WebhookWorker;
  let receiver: ChildProcess | undefined;
  let dir: string;
  let output = '';

  beforeAll(async () => {
    t = await buildTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_POLL_INTERVAL_MS: '50', WEBHOOKS_RETRY_SCHEDULE: '100ms' });
    worker = startWebhookWorker({ store: t.store, config: t.config, log: t.app.log });
    dir = mkdtempSync(join(tmpdir(), 'ticketing-readme-'));
  });
  afterAll(async () => {
    receiver?.kill();
    await worker?.stop();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies real deliveries, refuses a forged one and handles a repeated one once', async () => {
    const port = await freePort();
    const created = await t.request({ method: 'POST', url: '/v1/webhooks', body: { url: `http://127.0.0.1:${port}/`, events: ['ticket.created', 'ticket.updated'] } });
    expect(created.statusCode, created.body).toBe(201);
    const { secret } = created.json<{ secret: string }>();

    const file = join(dir, 'receiver.mjs');
    writeFileSync(file, readmeReceiver());
    receiver = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    receiver.stdout!.setEncoding('utf8').on('data', (text: string) => (output += text));
    receiver.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text));
    await eventually(async () => fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).then((r) => r.status === 401, () => false), 10_000, 'the receiver to listen');

    const ticket = await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'R', customer_email: 'r@example.com', subject: 'S', description: 'd' } });
    const id = ticket.json<{ id: string }>().id;
    await t.request({ method: 'PATCH', url: `/v1/tickets/${id}`, body: { status: 'open' } });
    await eventually(() => output.includes('ticket.updated'), 10_000, 'both events printed');
    expect(output).toBe(`ticket.created ${id} null\nticket.updated ${id} {"status":{"old":"new","new":"open"}}\n`);
    // The receiver prints before it answers, and the worker records the answer after: wait for the log.
    const outcomes = async () =>
      (await t.request({ method: 'GET', url: `/v1/webhooks/${created.json<{ id: string }>().id}/deliveries` }))
        .json<Array<{ status: string; response_status: number }>>()
        .map((d) => [d.status, d.response_status]);
    await eventually(async () => (await outcomes()).every(([status]) => status !== 'pending'), 10_000, 'both deliveries recorded');
    expect(await outcomes()).toEqual([
      ['succeeded', 204],
      ['succeeded', 204],
    ]);

    // A forged signature, and a stale timestamp, are refused.
    const now = Math.floor(Date.now() / 1000);
    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { 'webhook-id': 'x', 'webhook-timestamp': String(now), 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` },
      body: '{"type":"ticket.deleted","data":{}}',
    });
    expect(forged.status).toBe(401);
    // The same delivery again (at least once) is answered but handled once.
    const [delivery] = (await t.request({ method: 'GET', url: `/v1/webhooks/${created.json<{ id: string }>().id}/deliveries` })).json<Array<{ id: string }>>();
    await t.request({ method: 'POST', url: `/v1/webhooks/${created.json<{ id: string }>().id}/deliveries/${delivery!.id}/retry` });
    await eventually(async () => {
      const list = (await t.request({ method: 'GET', url: `/v1/webhooks/${created.json<{ id: string }>().id}/deliveries` })).json<Array<{ attempts: number; status: string }>>();
      return list[0]!.attempts === 2 && list[0]!.status === 'succeeded';
    }, 10_000, 'the repeated delivery');
    expect(output.split('\n').filter(Boolean)).toHaveLength(2);
  });
});
