import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/db/store.js';
import { Dovecot } from './helpers/dovecot.js';
import { message } from './helpers/mail.js';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * A fleet of 3 `ticketing serve` processes on one PostgreSQL store sharing one IMAP mailbox on a
 * real Dovecot (decisions §14): one process at a time holds the mailbox's lease; every message
 * appended becomes exactly one ticket; when the holder stops, another takes the mailbox over and
 * nothing is lost or taken twice.
 */
const USER = 'fleet@acme.example';
const PASSWORD = 'fleet-imap-secret';
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;
const available = Dovecot.available();
if (!available && process.env.CI === 'true') throw new Error('dovecot is not installed (apt-get install dovecot-imapd): the IMAP tests cannot run');

describe.runIf(TEST_STORE === 'postgres' && available)('a fleet of 3 processes sharing one IMAP mailbox (postgres)', () => {
  let database: TestDatabase;
  let dovecot: Dovecot;
  let dataDir: string;
  let env: Record<string, string>;
  let store: Store;
  const children: Array<Child & { address: string }> = [];

  beforeAll(async () => {
    buildCli();
    dovecot = await Dovecot.start({ [USER]: PASSWORD });
    database = await testPostgresDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-imap-fleet-'));
    env = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SIGNING_SECRET: randomBytes(36).toString('base64'),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      MAIL_ALLOW_PRIVATE: 'true',
      MAIL_POLL_INTERVAL_MS: '200',
    };
    store = openStore({ dataDir, databaseUrl: database.url });
  }, 200_000);

  afterAll(async () => {
    for (const child of children) child.proc.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await store?.close();
    database?.drop();
    await dovecot?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function append(raws: string[]): Promise<void> {
    const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: USER, pass: PASSWORD }, logger: false });
    await client.connect();
    try {
      for (const raw of raws) await client.append('INBOX', raw);
    } finally {
      await client.logout();
    }
  }

  const ticketSubjects = async (): Promise<string[]> =>
    (await store.db.selectFrom('tickets').select('subject').where('channel', '=', 'email').execute()).map((r) => r.subject).sort();

  async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const holder = async (): Promise<string | null> =>
    (await store.db.selectFrom('mailboxes').select('lease_owner').where('address', '=', USER).executeTakeFirstOrThrow()).lease_owner;

  it('takes each message once, with one process reading at a time, and another takes over when it stops', async () => {
    const t0 = Date.now();
    const phase = (what: string) => console.info(`[imap-fleet] ${what} after ${Date.now() - t0} ms`);
    const first = spawnServe(env);
    const key = (await waitFor(first.proc.stdout!, ADMIN_KEY, first.out))[1]!;
    children.push({ ...first, address: await listening(first) });
    const created = await fetch(`${children[0]!.address}/v1/mailboxes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address: USER, name: 'Fleet', inbound: { type: 'imap', host: '127.0.0.1', port: dovecot.port, security: 'none', username: USER, password: PASSWORD } }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    for (let i = 0; i < 2; i++) {
      const child = spawnServe(env);
      children.push({ ...child, address: await listening(child) });
    }

    phase('3 processes listening');
    const batch = (from: number, n: number) => Array.from({ length: n }, (_, i) => message({ from: `c${from + i}@customer.example`, subject: `Fleet ${String(from + i).padStart(3, '0')}` }));
    await append(batch(0, 20));
    phase('appended');
    await until(async () => ((await ticketSubjects()).length >= 20 ? true : undefined), '20 tickets');
    phase('20 tickets');
    const owner = await holder();
    expect(owner).not.toBeNull();
    const pid = Number(owner!.split(':')[1]);
    const holding = children.find((c) => c.proc.pid === pid);
    expect(holding, `the lease owner ${owner} is one of the fleet`).toBeDefined();

    // The holder stops (its lease is given back); one of the others reads the mailbox from then on.
    holding!.proc.kill('SIGTERM');
    expect(await holding!.exited).toBe(0);
    phase('the holder stopped');
    await append(batch(20, 10));
    await until(async () => ((await ticketSubjects()).length >= 30 ? true : undefined), '30 tickets');
    phase('30 tickets');
    const next = await holder();
    expect(next).not.toBeNull();
    expect(Number(next!.split(':')[1])).not.toBe(pid);

    // Give every process time to (wrongly) take something again, then count.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await ticketSubjects()).toEqual(Array.from({ length: 30 }, (_, i) => `Fleet ${String(i).padStart(3, '0')}`));
    const outcomes = await store.db.selectFrom('mail_messages').select('outcome').execute();
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(30).fill('created'));
  }, 180_000);
});
