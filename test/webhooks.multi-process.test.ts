import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';
import { eventually, Receiver } from './helpers/webhooks.js';

/**
 * At-least-once delivery across a crash, with the built `ticketing serve`: the process delivering
 * an event is killed (SIGKILL, no shutdown) while the receiver holds the request open; another
 * process on the same store delivers it once the dead one's lease has run out. On SQLite the other
 * process is the restarted service; on PostgreSQL any process of the fleet would do.
 */
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

describe(`a process killed mid-delivery loses nothing (${TEST_STORE})`, () => {
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let dataDir: string;
  let receiver: Receiver;
  const children: Child[] = [];

  beforeAll(async () => {
    buildCli();
    receiver = await Receiver.start();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-webhooks-'));
    database = TEST_STORE === 'postgres' ? await testPostgresDatabase() : undefined;
    env = {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      // A short attempt timeout makes a short lease (timeout + 5 s), so the test waits little.
      WEBHOOKS_TIMEOUT_MS: '1000',
      WEBHOOKS_RETRY_SCHEDULE: '200ms,200ms,200ms',
      WEBHOOKS_POLL_INTERVAL_MS: '100',
      ...(database ? { DATABASE_URL: database.url, SIGNING_SECRET: randomBytes(36).toString('base64') } : {}),
    };
  }, 240_000);

  afterAll(async () => {
    for (const child of children) if (child.proc.exitCode === null) child.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
    database?.drop();
  });

  it('the event is delivered by the next process once the lease of the dead one runs out', async () => {
    const first = spawnServe(env);
    children.push(first);
    const firstUrl = await listening(first);
    const key = ADMIN_KEY.exec(first.out.text)?.[1];
    expect(key, first.out.text + first.err.text).toBeDefined();
    const headers = { authorization: `Bearer ${key!}`, 'content-type': 'application/json' };

    const hookRes = await fetch(`${firstUrl}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url('/crash'), events: ['ticket.created'] }) });
    expect(hookRes.status).toBe(201);
    const hook = (await hookRes.json()) as { id: string; secret: string };

    // The first request is never answered: the process is killed while it waits.
    receiver.answer = (_r, index) => (index === 0 ? 'hang' : 200);
    const ticketRes = await fetch(`${firstUrl}/v1/tickets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Crash test', description: 'd' }),
    });
    expect(ticketRes.status).toBe(201);
    const ticket = (await ticketRes.json()) as { id: string };
    await eventually(() => receiver.received.length >= 1, 15_000, 'the first attempt');
    first.proc.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();

    const second = spawnServe(env);
    children.push(second);
    const secondUrl = await listening(second);
    const [, retry] = await eventually(() => receiver.received.length >= 2 && receiver.received, 30_000, 'the delivery by the second process');
    // Not before the dead process's lease ran out (1 s timeout + 5 s), then promptly.
    expect(retry!.at - killedAt).toBeGreaterThan(3_000);
    const verifier = new Webhook(hook.secret);
    const payloads = receiver.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as { data: { resource_id: string } });
    expect(payloads.map((p) => p.data.resource_id)).toEqual([ticket.id, ticket.id]);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);

    const log = await eventually(async () => {
      const res = await fetch(`${secondUrl}/v1/webhooks/${hook.id}/deliveries`, { headers });
      const list = (await res.json()) as Array<{ status: string; attempts: number; response_status: number | null }>;
      return list[0]?.status === 'succeeded' && list;
    }, 10_000, 'the delivery log');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 200 });
  }, 120_000);
});
