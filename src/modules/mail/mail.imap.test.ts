import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dovecot } from '../../../test/helpers/dovecot.js';
import { message } from '../../../test/helpers/mail.js';
import { waitFor } from '../../../test/helpers/smtp.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { createMessageIds } from './mail.message-ids.js';
import { startImapWorker, type ImapWorker } from './mail.imap.worker.js';

type Json = Record<string, unknown>;
const USER = 'support@acme.example';
const PASSWORD = 'imap-secret';

// Without Dovecot the suite is skipped on a developer's machine, but under CI it must fail.
const available = Dovecot.available();
if (!available && process.env.CI === 'true') throw new Error('dovecot is not installed (apt-get install dovecot-imapd): the IMAP tests cannot run');

let dovecot: Dovecot;
let t: TestApp;
let box: string;
beforeAll(async () => {
  if (!available) return;
  dovecot = await Dovecot.start({ [USER]: PASSWORD });
  t = await buildTestApp({ MAIL_ALLOW_PRIVATE: 'true', MAIL_POLL_INTERVAL_MS: '600000' });
  const res = await t.request({
    method: 'POST',
    url: '/v1/mailboxes',
    body: { address: USER, name: 'Acme', inbound: { type: 'imap', host: '127.0.0.1', port: dovecot.port, security: 'none', username: USER, password: PASSWORD } },
  });
  expect(res.statusCode, res.body).toBe(201);
  box = res.json<{ id: string }>().id;
});
afterAll(async () => {
  await t?.close();
  await dovecot?.stop();
});

async function imap<T>(work: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: USER, pass: PASSWORD }, logger: false });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.logout();
  }
}

const deliver = (raw: string) => imap((client) => client.append('INBOX', raw));
const worker = (): ImapWorker => startImapWorker({ store: t.store, blobs: t.blobs, config: t.config, mailer: { messageIds: createMessageIds(t.config), publicUrl: t.config.publicUrl }, log: t.app.log });
const subjects = async (): Promise<string[]> => (await t.request({ method: 'GET', url: '/v1/tickets?limit=100' })).json<Array<{ subject: string }>>().map((x) => x.subject).sort();
const mailbox = async (id = box): Promise<Json> => (await t.request({ method: 'GET', url: `/v1/mailboxes/${id}` })).json();

describe.skipIf(!available)('IMAP intake (a real Dovecot)', () => {
  it('takes new messages in, flags them \\Seen and deletes nothing; across restarts nothing is lost or taken twice', async () => {
    await deliver(message({ subject: 'IMAP one' }));
    await deliver(message({ subject: 'IMAP two' }));
    const first = worker();
    await waitFor(async () => (await subjects()).length === 2, 'two tickets');
    await first.stop();
    expect(await subjects()).toEqual(['IMAP one', 'IMAP two']);
    expect(await mailbox()).toMatchObject({ state: 'active', last_error: null });
    expect((await mailbox()).last_checked_at).not.toBeNull();
    const flags = await imap(async (client) => {
      await client.mailboxOpen('INBOX');
      const out: string[][] = [];
      for await (const m of client.fetch('1:*', { flags: true })) out.push([...(m.flags ?? [])]);
      return out;
    });
    expect(flags).toHaveLength(2);
    for (const f of flags) expect(f).toContain('\\Seen');

    // A restart: only the new message is taken.
    await deliver(message({ subject: 'IMAP three' }));
    await t.store.db.updateTable('mailboxes').set({ next_check_at: null }).where('id', '=', box).execute();
    const second = worker();
    await waitFor(async () => (await subjects()).length === 3, 'the third ticket');
    await second.stop();
    expect(await subjects()).toEqual(['IMAP one', 'IMAP three', 'IMAP two']);

    // Progress lost (or a new UIDVALIDITY): everything is read again, and nothing is taken twice.
    await t.store.db.updateTable('mailboxes').set({ imap_uid_validity: '1', imap_last_uid: 0, next_check_at: null }).where('id', '=', box).execute();
    const third = worker();
    await waitFor(async () => {
      const row = await t.store.db.selectFrom('mailboxes').select(['imap_last_uid', 'imap_uid_validity']).where('id', '=', box).executeTakeFirstOrThrow();
      return Number(row.imap_last_uid) === 3 && row.imap_uid_validity !== '1';
    }, 'the folder read again');
    await third.stop();
    expect(await subjects()).toEqual(['IMAP one', 'IMAP three', 'IMAP two']);
  });

  it('with IDLE, mail appended to the folder becomes a ticket within 2 s, without waiting for the poll interval (10 min here)', async () => {
    await t.store.db.updateTable('mailboxes').set({ next_check_at: null }).where('id', '=', box).execute();
    const run = worker();
    try {
      // The first read, after which the process keeps the connection and IDLEs.
      await waitFor(async () => (await mailbox()).last_checked_at !== null && (await t.store.db.selectFrom('mailboxes').select('lease_owner').where('id', '=', box).executeTakeFirstOrThrow()).lease_owner !== null, 'the mailbox watched');
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const subject of ['IDLE one', 'IDLE two']) {
        const appended = Date.now();
        await deliver(message({ subject }));
        await waitFor(async () => (await subjects()).includes(subject), `${subject} as a ticket`, 2_000);
        expect(Date.now() - appended).toBeLessThan(2_000);
      }
      // The connection drops: the mailbox is read again at once (polling), and watched again.
      dovecot.kick(USER);
      await deliver(message({ subject: 'IDLE after a drop' }));
      await waitFor(async () => (await subjects()).includes('IDLE after a drop'), 'the message after the drop', 5_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const appended = Date.now();
      await deliver(message({ subject: 'IDLE again' }));
      await waitFor(async () => (await subjects()).includes('IDLE again'), 'IDLE again as a ticket', 2_000);
      expect(Date.now() - appended).toBeLessThan(2_000);
    } finally {
      await run.stop();
    }
    // Stopping lets the mailbox go, due at once for whichever process polls next.
    const row = await t.store.db.selectFrom('mailboxes').select(['lease_owner', 'next_check_at']).where('id', '=', box).executeTakeFirstOrThrow();
    expect(row.lease_owner).toBeNull();
    expect(Date.parse(String(row.next_check_at))).toBeLessThanOrEqual(Date.now());
  });

  it('a mailbox whose server refuses the password is failing, with the server\'s words, and backs off; resuming clears it', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/mailboxes',
      body: { address: 'wrong@acme.example', name: 'Wrong', inbound: { type: 'imap', host: '127.0.0.1', port: dovecot.port, security: 'none', username: USER, password: 'not-the-password' } },
    });
    const wrong = res.json<{ id: string }>().id;
    const run = worker();
    const failing = await waitFor(async () => {
      const got = await mailbox(wrong);
      return got.state === 'failing' ? got : null;
    }, 'failing');
    await run.stop();
    expect(String(failing.last_error)).toContain('Authentication failed');
    const row = await t.store.db.selectFrom('mailboxes').select(['next_check_at', 'failures']).where('id', '=', wrong).executeTakeFirstOrThrow();
    expect(Number(row.failures)).toBe(1);
    expect(Date.parse(String(row.next_check_at))).toBeGreaterThan(Date.now() + 60_000);
    const resumed = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${wrong}`, body: { state: 'active', inbound: { password: PASSWORD } } });
    expect(resumed.json()).toMatchObject({ state: 'active', last_error: null });
    // It reads the same account as the first mailbox: out of the way of the next test.
    expect((await t.request({ method: 'DELETE', url: `/v1/mailboxes/${wrong}` })).statusCode).toBe(204);
  });

  it('one process of a fleet reads a mailbox: a leased mailbox is left alone', async () => {
    await deliver(message({ subject: 'IMAP leased' }));
    await t.store.db
      .updateTable('mailboxes')
      .set({ next_check_at: null, lease_owner: 'another-process', lease_expires_at: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', box)
      .execute();
    const run = worker();
    expect(await run.runOnce()).toBeGreaterThanOrEqual(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await subjects()).not.toContain('IMAP leased');
    // The lease runs out (the other process died): this one reads it.
    await t.store.db.updateTable('mailboxes').set({ lease_expires_at: new Date(Date.now() - 1).toISOString() }).where('id', '=', box).execute();
    await waitFor(async () => (await subjects()).includes('IMAP leased'), 'taken after the lease ran out');
    await run.stop();
  });
});
