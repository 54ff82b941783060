import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, runCli, spawnServe, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * The change feed's cursor under concurrent writers on several processes
 * (docs/api-behaviour.md#events): three built `ticketing serve` processes on one PostgreSQL
 * database, all writing at once, while a client follows the feed through all three with nothing but
 * its cursor. PostgreSQL commits concurrent transactions in an order that is not the order they
 * started in (nor their ids' order); a feed ordered by anything but commit order would make this
 * reader skip events that committed late.
 */
const postgres = TEST_STORE === 'postgres';
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

interface FeedEvent {
  id: string;
  cursor: string;
  type: string;
  resource_id: string;
}

describe.runIf(postgres)('the change feed read with its cursor while three processes write', () => {
  let database: TestDatabase;
  const dirs: string[] = [];
  const children: Child[] = [];
  let addresses: string[];
  let key: string;

  beforeAll(async () => {
    buildCli();
    database = await testPostgresDatabase();
    const env = {
      DATABASE_URL: database.url,
      SIGNING_SECRET: randomBytes(36).toString('base64'),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ADMIN_PER_MINUTE: '1000000',
    };
    await runCli(['migrate'], { ...env, DATA_DIR: tempDir() });
    children.push(...[0, 1, 2].map(() => spawnServe({ ...env, DATA_DIR: tempDir() })));
    addresses = await Promise.all(children.map(listening));
    key = children.map((c) => ADMIN_KEY.exec(c.out.text)?.[1]).find((k) => k !== undefined)!;
    expect(key).toBeDefined();
  }, 240_000);

  afterAll(async () => {
    for (const child of children) child.proc.kill('SIGTERM');
    await Promise.all(children.map((c) => c.exited));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    database?.drop();
  });

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'ticketing-feed-'));
    dirs.push(dir);
    return dir;
  }

  const call = async (i: number, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${addresses[i % 3]}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };

  it('sees every event exactly once, in commit order, with nothing but the cursor', async () => {
    const TICKETS = 240;
    const WRITERS = 24;
    let writing = true;
    const seen: FeedEvent[] = [];
    let pagesWhileWriting = 0;

    // The reader: follows the feed through the three processes in turn, as fast as it can.
    const reader = (async () => {
      let cursor = '0';
      for (let i = 0; ; i++) {
        const stillWriting = writing;
        const page = (await call(i, 'GET', `/v1/events?after=${cursor}&limit=50`)) as unknown as { events: FeedEvent[]; next_cursor: string; has_more: boolean };
        seen.push(...page.events);
        cursor = page.next_cursor;
        if (stillWriting) pagesWhileWriting++;
        // Stop once the writers are done and a page read after that reached the end.
        if (!stillWriting && !page.has_more) return;
      }
    })();

    // The writers: each ticket is created, updated and commented on, through different processes.
    let next = 0;
    const writer = async (w: number) => {
      for (let n = next++; n < TICKETS; n = next++) {
        const ticket = await call(n + w, 'POST', '/v1/tickets', {
          customer_name: `Customer ${n % 20}`,
          customer_email: `customer${n % 20}@example.com`,
          subject: `Ticket ${n}`,
          description: 'Written by one of three processes',
        });
        await call(n + w + 1, 'PATCH', `/v1/tickets/${String(ticket.id)}`, { status: 'open', priority: 'high' });
        await call(n + w + 2, 'POST', `/v1/tickets/${String(ticket.id)}/comments`, { body: `Comment on ${n}` });
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writing = false;
    await reader;

    // Every event once, positions 1..N without a gap or a repeat.
    // The first start's admin key, 20 customers, and three events per ticket.
    const expected = 1 + 20 + TICKETS * 3;
    expect(seen.map((e) => Number(e.cursor))).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
    expect(new Set(seen.map((e) => e.id)).size).toBe(expected);
    // Exactly the events the store holds.
    const direct = new pg.Client({ connectionString: database.url });
    await direct.connect();
    try {
      const { rows } = await direct.query<{ id: string }>('select id from events order by position');
      expect(seen.map((e) => e.id)).toEqual(rows.map((r) => r.id));
    } finally {
      await direct.end();
    }
    // Causality holds: a ticket's creation, then its update, then its comment.
    const index = new Map<string, number>();
    seen.forEach((e, i) => index.set(`${e.type} ${e.resource_id}`, i));
    for (const e of seen.filter((x) => x.type === 'ticket.created')) {
      expect(index.get(`ticket.created ${e.resource_id}`)!).toBeLessThan(index.get(`ticket.updated ${e.resource_id}`)!);
    }
    // The reader really read while the writers wrote, not only afterwards.
    expect(pagesWhileWriting).toBeGreaterThan(5);
  }, 180_000);
});
