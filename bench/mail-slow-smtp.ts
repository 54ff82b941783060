import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { createApiKey } from '../src/auth/keys.service.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { benchEnv, percentile, scratchDatabase, serveProcess } from './common.js';

/**
 * Does a slow mail server slow the API? (`node dist/bench/mail-slow-smtp.js`) One `ticketing serve`
 * process whose SMTP_URL is a local smtp-server that takes BENCH_SMTP_DELAY_MS (5,000) to accept
 * each message. A client in this process (the server runs in its own) times, one request at a
 * time, BENCH_SAMPLES (1,000) GETs of a ticket and 100 public comments (each queues a mail):
 * first with an empty outbox, then while the outbox works through BENCH_SLOW_MAILS (200) queued
 * mails, every send held by the slow server. p50 / p95 / p99 of each. SQLite in a temporary
 * directory, or a scratch database on the PostgreSQL server DATABASE_URL names.
 */
const DELAY_MS = Number(process.env.BENCH_SMTP_DELAY_MS ?? 5_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1_000);
const QUEUED = Number(process.env.BENCH_SLOW_MAILS ?? 200);
const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;

async function main(): Promise<void> {
  let received = 0;
  let inFlight = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, callback) => {
      inFlight++;
      stream.on('data', () => undefined);
      stream.on('end', () => {
        setTimeout(() => {
          inFlight--;
          received++;
          callback();
        }, DELAY_MS);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-slow-smtp-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'slowsmtp') : undefined;
  const env = benchEnv(dataDir, scratch?.url, {
    HOST: '127.0.0.1',
    PORT: '0',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_OUTBOX_POLL_INTERVAL_MS: '20',
    MAIL_SEND_TIMEOUT_MS: String(DELAY_MS * 4),
  });
  const children: ChildProcess[] = [];
  const label = serverUrl ? 'PostgreSQL' : 'SQLite';
  try {
    const store = openStore({ dataDir, databaseUrl: scratch?.url });
    await migrateToLatest(store.db);
    const org = await createOrganization(store.db, 'Slow SMTP bench');
    const { key } = await createApiKey(store.db, { organizationId: org, role: 'admin', name: 'bench' });
    await store.close();
    const base = await serveProcess(env, children);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (method: string, path: string, body?: unknown) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${base}${path}`, { method, agent, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        });
        req.on('error', reject);
        req.end(body === undefined ? undefined : JSON.stringify(body));
      });
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await call(method, path, body);
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.body}`);
      return JSON.parse(res.body) as { id: string };
    };
    await ok('POST', '/v1/mailboxes', { address: 'support@acme.example', name: 'Acme' });
    const ticket = await ok('POST', '/v1/tickets', { customer_name: 'Ada', customer_email: 'ada@customer.example', subject: 'Slow mail', description: 'Bench' });

    const timed = async (n: number, run: () => Promise<unknown>): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        await run();
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b);
    };
    const figures = (times: number[]) => `p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms`;
    const measure = async (phase: string) => {
      await timed(100, () => ok('GET', `/v1/tickets/${ticket.id}`));
      const gets = await timed(SAMPLES, () => ok('GET', `/v1/tickets/${ticket.id}`));
      const comments = await timed(100, () => ok('POST', `/v1/tickets/${ticket.id}/comments`, { body: 'Measured reply.', is_internal: true }));
      process.stdout.write(`${label}, ${phase}:\n  GET ticket:   ${figures(gets)}\n  POST comment: ${figures(comments)}\n`);
    };

    await measure('outbox idle');
    // The slow phase: public comments queue mails that the server holds DELAY_MS each.
    for (let i = 0; i < QUEUED; i++) await ok('POST', `/v1/tickets/${ticket.id}/comments`, { body: `Reply ${i}`, is_internal: false });
    // The outbox sends 8 at a time: measure once a full batch is held by the slow server.
    const waitForSends = Date.now() + DELAY_MS * 3;
    while (inFlight < 8 && Date.now() < waitForSends) await new Promise((resolve) => setTimeout(resolve, 20));
    process.stdout.write(`  (${QUEUED} mails queued; the server holds each ${DELAY_MS} ms; ${inFlight} being sent as the measure starts)\n`);
    const held: number[] = [];
    const watch = setInterval(() => held.push(inFlight), 5);
    await measure(`outbox sending to a server that takes ${DELAY_MS / 1000} s a mail`);
    clearInterval(watch);
    process.stdout.write(`  (on average ${(held.reduce((a, b) => a + b, 0) / held.length).toFixed(1)} mails were held by the slow server during the measure)\n`);
    process.stdout.write(`  (${received} mails accepted by the slow server by the end)\n`);
  } finally {
    for (const child of children) child.kill('SIGKILL');
    smtp.close(() => undefined);
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
