import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, runCli, spawnServe, type Child } from './helpers/processes.js';
import { requireRedis, TEST_REDIS_URL } from './helpers/redis.js';
import { openStream, type SseMessage } from './helpers/sse.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * The live stream across the processes of a fleet (docs/api-behaviour.md#live-stream-and-presence):
 * two built `ticketing serve` processes on one PostgreSQL database and one Redis. A change made
 * through one shows on a stream of the other (it polls the feed's head), and so does presence
 * (Redis pub/sub).
 */
const postgres = TEST_STORE === 'postgres';
const redis = postgres && (await requireRedis('live.multi-process'));
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

describe.runIf(postgres && redis)('the live stream across two processes', () => {
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
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: `ticketing-test-${randomUUID()}:`,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
    };
    await runCli(['migrate'], { ...env, DATA_DIR: tempDir() });
    children.push(...[0, 1].map(() => spawnServe({ ...env, DATA_DIR: tempDir() })));
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
    const dir = mkdtempSync(join(tmpdir(), 'ticketing-live-'));
    dirs.push(dir);
    return dir;
  }

  const call = async (i: number, method: string, path: string, body: unknown): Promise<Response> =>
    fetch(`${addresses[i]}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('shows a change made through one process on a stream of the other within a second', async () => {
    const s = await openStream(addresses[1]!, { authorization: `Bearer ${key}` });
    try {
      expect(s.status).toBe(200);
      const started = Date.now();
      const res = await call(0, 'POST', '/v1/tickets', { subject: 'Across', description: 'x', customer_name: 'C', customer_email: 'across@example.com' });
      expect(res.status).toBe(201);
      const ticketId = ((await res.json()) as { id: string }).id;
      await s.next((m) => m.event === 'change' && (JSON.parse(m.data) as { resource_id: string }).resource_id === ticketId, 3_000);
      expect(Date.now() - started).toBeLessThan(1_500);

      // Presence set through process 0 shows on process 1's stream.
      const put = await call(0, 'PUT', `/v1/tickets/${ticketId}/presence`, { state: 'viewing' });
      expect(put.status).toBe(204);
      const isPresence = (m: SseMessage) => m.event === 'presence' && (JSON.parse(m.data) as { ticket_id: string }).ticket_id === ticketId;
      const seen = await s.next(isPresence, 3_000);
      expect((JSON.parse(seen.data) as { users: Array<{ state: string; type: string }> }).users).toMatchObject([{ state: 'viewing', type: 'api_key' }]);
    } finally {
      s.close();
    }
  });
});
