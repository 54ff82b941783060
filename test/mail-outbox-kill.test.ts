import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor as waitForText, type Child } from './helpers/processes.js';
import { SmtpReceiver, waitFor } from './helpers/smtp.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * kill -9 while the outbox sends: the mail server has taken a message but its answer never
 * reached the sender. After restarts every mailed comment is delivered, none lost; a message
 * whose send may have happened is sent again once, with the same Message-ID, and its
 * `delivery.attempts` counts both sends. Real `ticketing serve` processes and an SMTP server.
 */
const CYCLES = 2;
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

interface Delivery {
  status: string;
  message_id: string;
  attempts: number;
}

describe(`kill -9 while mail is sent (${TEST_STORE})`, () => {
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let dataDir: string;
  let key = '';
  const smtp = new SmtpReceiver();

  beforeAll(async () => {
    buildCli();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-outbox-kill-'));
    env = {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      SMTP_URL: await smtp.listen(),
      MAIL_SEND_TIMEOUT_MS: '1000',
      MAIL_OUTBOX_POLL_INTERVAL_MS: '50',
    };
    if (TEST_STORE === 'postgres') {
      database = await testPostgresDatabase();
      env.DATABASE_URL = database.url;
      env.SIGNING_SECRET = randomBytes(36).toString('base64');
    }
  }, 200_000);

  afterAll(async () => {
    database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    await smtp.close();
  });

  async function start(): Promise<Child & { address: string }> {
    const child = spawnServe(env);
    if (!key) key = (await waitForText(child.proc.stdout!, ADMIN_KEY, child.out))[1]!;
    return { ...child, address: await listening(child) };
  }

  const call = async (address: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${address}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, path).toBeLessThan(300);
    return res.json() as Promise<Record<string, unknown>>;
  };

  it('loses no message, and sends one again only once, counted, after a crash mid-send', async () => {
    let server = await start();
    await call(server.address, 'POST', '/v1/mailboxes', { address: 'support@acme.example', name: 'Acme Support' });
    const ticket = await call(server.address, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: 'ada@customer.example', subject: 'S', description: 'D' });
    const ticketPath = `/v1/tickets/${ticket.id as string}/comments`;
    const comments = async () => (await call(server.address, 'GET', `${ticketPath}?limit=100`)) as unknown as Array<{ delivery: Delivery }>;
    // Leases of the dead process run out (MAIL_SEND_TIMEOUT_MS + 5 s), then its mail goes out.
    const allDelivered = () =>
      waitFor(async () => {
        const list = await comments();
        return list.every((c) => c.delivery.status === 'sent') ? list : null;
      }, 'every comment delivered', 40_000);
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      // The server takes the next message and never answers: the process dies with it sent.
      smtp.hold = 1;
      const before = smtp.received.length;
      for (let i = 0; i < 4; i++) await call(server.address, 'POST', ticketPath, { body: `Reply ${cycle}.${i}`, is_internal: false });
      await waitFor(() => smtp.hold === 0 && smtp.received.length > before, 'the held message');
      server.proc.kill('SIGKILL');
      await server.exited;
      server = await start();
      // Each crash on its own: a send the restarted process resumes must not be cut by the next
      // kill, or the message would rightly be sent a third time.
      await allDelivered();
    }
    try {
      const delivered = await allDelivered();
      expect(delivered).toHaveLength(CYCLES * 4);
      const times = (id: string) => smtp.received.filter((r) => r.parsed.messageId === `<${id}>`).length;
      let twice = 0;
      for (const { delivery } of delivered) {
        const received = times(delivery.message_id);
        expect(received, delivery.message_id).toBeGreaterThanOrEqual(1);
        // Retried at most once per crash, and every send is counted.
        expect(delivery.attempts).toBeLessThanOrEqual(2);
        expect(received).toBeLessThanOrEqual(delivery.attempts);
        if (received === 2) twice++;
      }
      // Each held message was sent twice: once into the crash, once after it.
      expect(twice).toBeGreaterThanOrEqual(CYCLES);
    } finally {
      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 120_000);
});
