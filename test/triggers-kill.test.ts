import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor as waitForText, type Child } from './helpers/processes.js';
import { waitFor } from './helpers/smtp.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * kill -9 while triggers are being applied: real `ticketing serve` processes. Two triggers on
 * ticket.created each write one internal note, so a (event, trigger) applied twice would show as
 * a second note. After the restarts every ticket has exactly one note of each trigger.
 */
const CYCLES = 2;
const TICKETS = 40;
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

describe(`kill -9 while triggers run (${TEST_STORE})`, () => {
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let dataDir: string;
  let key = '';

  beforeAll(async () => {
    buildCli();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-triggers-kill-'));
    env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error' };
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
    return res.json();
  };
  const notesOf = async (address: string, id: string) => ((await call(address, 'GET', `/v1/tickets/${id}/comments?limit=100`)) as Array<{ body: string }>).map((c) => c.body).sort();

  it('applies each (event, trigger) exactly once across crashes', async () => {
    let server = await start();
    for (const name of ['A', 'B']) {
      await call(server.address, 'POST', '/v1/triggers', { name, on: ['ticket.created'], conditions: {}, actions: [{ field: 'comment', value: { body: `note ${name}`, is_internal: true } }] });
    }
    const ids: string[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const made = await Promise.all(
        Array.from({ length: TICKETS }, (_, i) =>
          call(server.address, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${cycle}-${i}@customer.example`, subject: `S ${i}`, description: 'D' }),
        ),
      );
      const batch = made.map((t) => (t as { id: string }).id);
      ids.push(...batch);
      // Killed as soon as the worker is seen at work, with most of the batch still to do.
      await waitFor(async () => (await notesOf(server.address, batch[0]!)).length > 0 || (await notesOf(server.address, batch[1]!)).length > 0, 'the first trigger run', 20_000);
      server.proc.kill('SIGKILL');
      await server.exited;
      server = await start();
    }
    try {
      // The dead process's lease runs out (15 s), then the log is followed on.
      for (const id of ids) {
        const notes = await waitFor(async () => {
          const list = await notesOf(server.address, id);
          return list.length >= 2 ? list : null;
        }, `both notes of ${id}`, 60_000);
        expect(notes, id).toEqual(['note A', 'note B']);
      }
    } finally {
      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 180_000);
});
