import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/store.js';
import { message } from './helpers/mail.js';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * kill -9 while raw mail is being taken in, again and again; then every message is posted once
 * more: each became exactly one ticket or one comment, none lost (no claim left without its
 * ticket, answered `duplicate` for ever) and none doubled. Real `ticketing serve` processes.
 */
const CYCLES = 5;
const WORKERS = 3;
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

interface Answer {
  outcome: string;
  ticket_id: string | null;
  comment_id: string | null;
}

describe(`kill -9 during mail intake, ${CYCLES} times (${TEST_STORE})`, () => {
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let dataDir: string;
  let key = '';
  let mailboxId = '';
  const posted: string[] = [];
  let cut = 0;

  beforeAll(async () => {
    buildCli();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-mail-kill-'));
    env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', RATE_LIMIT_ADMIN_PER_MINUTE: '1000000' };
    if (TEST_STORE === 'postgres') {
      database = await testPostgresDatabase();
      env.DATABASE_URL = database.url;
      env.SIGNING_SECRET = randomBytes(36).toString('base64');
    }
  }, 200_000);

  afterAll(() => {
    database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<Child & { address: string }> {
    const child = spawnServe(env);
    if (!key) key = (await waitFor(child.proc.stdout!, ADMIN_KEY, child.out))[1]!;
    return { ...child, address: await listening(child) };
  }

  async function post(address: string, raw: string): Promise<Answer> {
    const res = await fetch(`${address}/v1/mailboxes/${mailboxId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'message/rfc822' },
      body: raw,
    });
    const body = (await res.json()) as Answer;
    expect(res.status, JSON.stringify(body)).toBeLessThan(300);
    return body;
  }

  /** One sender: a new thread, then a reply to it, until the process dies under it. */
  async function worker(address: string, name: string): Promise<void> {
    for (let i = 0; ; i++) {
      const id = `${name}-${i}@customer.example`;
      const first = message({ from: `Sender ${name} <${name}@customer.example>`, subject: `${name} ${i}`, messageId: id });
      posted.push(first);
      await post(address, first);
      const reply = message({ from: `Sender ${name} <${name}@customer.example>`, subject: `Re: ${name} ${i}`, inReplyTo: `<${id}>`, body: 'And again.' });
      posted.push(reply);
      await post(address, reply);
    }
  }

  it('makes every message exactly one ticket or comment', async () => {
    const first = await start();
    const box = await fetch(`${first.address}/v1/mailboxes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ address: 'support@acme.example', name: 'Acme Support' }),
    });
    expect(box.status).toBe(201);
    mailboxId = ((await box.json()) as { id: string }).id;
    first.proc.kill('SIGTERM');
    await first.exited;

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await start();
      const workers = Array.from({ length: WORKERS }, (_, w) =>
        worker(server.address, `c${cycle}w${w}`).catch((error: unknown) => {
          // The process died under the request: its outcome is unknown until it is posted again.
          if (!(error instanceof TypeError)) throw error;
          cut++;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
      server.proc.kill('SIGKILL');
      await server.exited;
      await Promise.all(workers);
    }
    console.info(`[mail-kill] ${TEST_STORE}: ${CYCLES} kills, ${posted.length} messages posted, ${cut} requests cut by a kill`);

    const server = await start();
    try {
      // Each message again: it is a duplicate of what it made, or it is made now.
      for (const raw of posted) {
        const again = await post(server.address, raw);
        expect(['created', 'appended', 'duplicate'], raw).toContain(again.outcome);
        expect(again.ticket_id, raw).not.toBeNull();
      }
    } finally {
      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }

    const store = openStore({ dataDir, databaseUrl: env.DATABASE_URL });
    try {
      const rows = await store.db.selectFrom('mail_messages').select(['outcome', 'ticket_id', 'comment_id']).execute();
      expect(rows).toHaveLength(posted.length);
      expect(rows.filter((r) => r.ticket_id === null)).toEqual([]);
      const createdRows = rows.filter((r) => r.outcome === 'created');
      const appendedRows = rows.filter((r) => r.outcome === 'appended');
      expect(createdRows.length + appendedRows.length).toBe(posted.length);
      // One ticket per opening message, and no ticket without its message.
      const tickets = await store.db.selectFrom('tickets').select('id').where('channel', '=', 'email').execute();
      expect(tickets.map((t) => t.id).sort()).toEqual(createdRows.map((r) => r.ticket_id!).sort());
      const comments = await store.db.selectFrom('comments').select('id').where('channel', '=', 'email').execute();
      expect(comments.map((c) => c.id).sort()).toEqual(appendedRows.map((r) => r.comment_id!).sort());
    } finally {
      await store.close();
    }
  }, 240_000);
});
