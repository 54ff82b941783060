import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createMessageIds } from '../src/modules/mail/mail.message-ids.js';
import { startImapWorker } from '../src/modules/mail/mail.imap.worker.js';
import { startMailOutbox } from '../src/modules/mail/mail.outbox.worker.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { Dovecot } from '../test/helpers/dovecot.js';
import { benchEnv, percentile, scratchDatabase } from './common.js';

/**
 * Mail in and out (`node dist/bench/mail-delivery.js`), in-process. (1) The outbox drain rate:
 * BENCH_OUTBOX_MAILS (1,000) public comments queued, then one process's outbox job sends them to
 * a local smtp-server; mails per second from its start to the last `sent`. (2) IMAP append to
 * ticket with IDLE: BENCH_IMAP_MESSAGES (40) messages appended one at a time to a real Dovecot
 * folder (MAIL_POLL_INTERVAL_MS 10 min, so only IDLE can be quick); the time from the append to
 * the ticket being listed, p50 / p95 / max. SQLite in a temporary directory, or a scratch database
 * on the PostgreSQL server DATABASE_URL names. Figures, not a pass/fail test.
 */
const MAILS = Number(process.env.BENCH_OUTBOX_MAILS ?? 1_000);
const APPENDS = Number(process.env.BENCH_IMAP_MESSAGES ?? 40);
const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;
const USER = 'support@acme.example';
const PASSWORD = 'bench-secret';

async function main(): Promise<void> {
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, callback) => {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const dovecot = Dovecot.available() ? await Dovecot.start({ [USER]: PASSWORD }) : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-mail-out-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'mailout') : undefined;
  const config = loadConfig(
    benchEnv(dataDir, scratch?.url, { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_ALLOW_PRIVATE: 'true', MAIL_POLL_INTERVAL_MS: '600000', MAIL_OUTBOX_POLL_INTERVAL_MS: '20' }),
  );
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: config.databaseTimeouts, search: config.search });
  const label = serverUrl ? 'PostgreSQL' : 'SQLite';
  try {
    await migrateToLatest(store.db);
    const blobs = openBlobStore(config, store);
    const app = await buildApp({ config, store, blobs });
    const org = await createOrganization(store.db, 'Mail delivery bench');
    const { key } = await createApiKey(store.db, { organizationId: org, role: 'admin', name: 'bench' });
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
      if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return res.json<Record<string, unknown>>();
    };
    const inbound = dovecot ? { inbound: { type: 'imap', host: '127.0.0.1', port: dovecot.port, security: 'none', username: USER, password: PASSWORD } } : {};
    await call('POST', '/v1/mailboxes', { address: USER, name: 'Acme', ...inbound });

    // (1) The outbox: everything queued first, then drained by one process's job.
    const ticket = await call('POST', '/v1/tickets', { customer_name: 'Ada', customer_email: 'ada@customer.example', subject: 'Bench', description: 'Outbox drain' });
    for (let i = 0; i < MAILS; i++) await call('POST', `/v1/tickets/${ticket.id as string}/comments`, { body: `Reply ${i}: the printer is fixed.`, is_internal: false });
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined, level: 'silent' };
    const started = performance.now();
    const outbox = startMailOutbox({ store, blobs, config, log });
    for (;;) {
      const left = await store.db.selectFrom('mail_outbox').select(store.db.fn.countAll().as('n')).where('status', '!=', 'sent').executeTakeFirstOrThrow();
      if (Number(left.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const seconds = (performance.now() - started) / 1000;
    await outbox.stop();
    process.stdout.write(`outbox drain (${label}): ${MAILS} mails in ${seconds.toFixed(2)} s = ${(MAILS / seconds).toFixed(0)} mails/s (${received} received)\n`);

    // (2) IMAP with IDLE: append, then wait for the ticket.
    if (!dovecot) {
      process.stdout.write('IMAP: dovecot is not installed; skipped\n');
    } else {
      const mailer = { messageIds: createMessageIds(config), publicUrl: config.publicUrl };
      const imap = startImapWorker({ store, blobs, config, mailer, log });
      const client = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: USER, pass: PASSWORD }, logger: false });
      await client.connect();
      const count = async () => Number((await store.db.selectFrom('tickets').select(store.db.fn.countAll().as('n')).where('channel', '=', 'email').executeTakeFirstOrThrow()).n);
      // The first read, after which the job IDLEs on the folder.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const latencies: number[] = [];
      for (let i = 0; i < APPENDS; i++) {
        const before = await count();
        const raw = `From: Customer ${i} <c${i}@customer.example>\r\nTo: ${USER}\r\nSubject: IDLE ${i}\r\nMessage-ID: <idle-bench-${i}-${Date.now()}@customer.example>\r\n\r\nHello.\r\n`;
        const appended = performance.now();
        await client.append('INBOX', raw);
        while ((await count()) === before) await new Promise((resolve) => setTimeout(resolve, 5));
        latencies.push(performance.now() - appended);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.logout();
      await imap.stop();
      latencies.sort((a, b) => a - b);
      const ms = (p: number) => percentile(latencies, p).toFixed(0);
      process.stdout.write(`IMAP append to ticket with IDLE (${label}): ${APPENDS} messages, p50 ${ms(50)} ms, p95 ${ms(95)} ms, max ${ms(100)} ms\n`);
    }
    await app.close();
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
    await dovecot?.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}

await main();
