import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { benchEnv, scratchDatabase } from './common.js';

/**
 * Raw mail intake (`node dist/bench/mail-intake.js`): BENCH_MAIL_MESSAGES (2,000) messages of about
 * 10 KB each through POST /v1/mailboxes/{id}/messages, in-process, BENCH_MAIL_CONCURRENCY (16) at
 * a time; half open a ticket and half reply to one of those (threaded by In-Reply-To). Prints
 * messages per second. SQLite in a temporary directory, or a scratch database on the PostgreSQL
 * server DATABASE_URL names. Figures, not a pass/fail test.
 */
const MESSAGES = Number(process.env.BENCH_MAIL_MESSAGES ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_MAIL_CONCURRENCY ?? 16);
const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;

const PARAGRAPH = 'The printer on the third floor prints every page twice and then jams; we restarted it and cleaned the rollers. ';

function raw(i: number, replyTo?: string): string {
  const lines = [
    `From: Customer ${i % 500} <customer${i % 500}@customers.example.com>`,
    'To: support@acme.example',
    `Subject: ${replyTo ? 'Re: ' : ''}Printer problem ${i}`,
    `Message-ID: <bench-${i}@customers.example.com>`,
    ...(replyTo ? [`In-Reply-To: <${replyTo}>`] : []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
  ];
  let body = '';
  while (body.length < 10_000) body += `${PARAGRAPH}\r\n`;
  if (replyTo) body += '\r\nOn Mon, Support wrote:\r\n> earlier text\r\n> more earlier text\r\n';
  return `${lines.join('\r\n')}\r\n${body}`;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-mail-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'mail') : undefined;
  const config = loadConfig(benchEnv(dataDir, scratch?.url));
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: config.databaseTimeouts, search: config.search });
  try {
    await migrateToLatest(store.db);
    const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    const org = await createOrganization(store.db, 'Mail bench');
    const { key } = await createApiKey(store.db, { organizationId: org, role: 'admin', name: 'bench' });
    const headers = { authorization: `Bearer ${key}` };
    const box = (await app.inject({ method: 'POST', url: '/v1/mailboxes', headers, payload: { address: 'support@acme.example', name: 'Acme' } })).json<{ id: string }>();
    const post = async (payload: string) => {
      const res = await app.inject({ method: 'POST', url: `/v1/mailboxes/${box.id}/messages`, headers: { ...headers, 'content-type': 'message/rfc822' }, payload });
      if (res.statusCode !== 202) throw new Error(`intake answered ${res.statusCode}: ${res.body}`);
      return res.json<{ outcome: string }>().outcome;
    };
    // Pairs: a new message, then (once it is in) a reply to it.
    const pairs = MESSAGES / 2;
    let next = 0;
    const outcomes = new Map<string, number>();
    const count = (o: string) => outcomes.set(o, (outcomes.get(o) ?? 0) + 1);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < pairs) {
          const i = next++;
          count(await post(raw(2 * i)));
          count(await post(raw(2 * i + 1, `bench-${2 * i}@customers.example.com`)));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await app.close();
    const shown = [...outcomes].map(([o, n]) => `${n} ${o}`).join(', ');
    process.stdout.write(
      `mail intake (${serverUrl ? 'PostgreSQL' : 'SQLite'}): ${MESSAGES} messages of ~10 KB (${shown}) in ${seconds.toFixed(1)} s = ` +
        `${(MESSAGES / seconds).toFixed(0)} messages/s, ${CONCURRENCY} at a time\n`,
    );
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

await main();
