import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/db/store.js';
import { deadlinesOf, type SlaState } from '../src/modules/sla/sla.clock.js';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, spawnServe, waitFor as waitForText, type Child } from './helpers/processes.js';
import { waitFor } from './helpers/smtp.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * kill -9 of the SLA sweeper: two `ticketing serve` processes (a fleet) sweep with one lease; the
 * one holding it is killed while deadlines come due, then every process is down while more pass.
 * In the end each warning and each breach is in the event log exactly once, none lost, none
 * doubled. The deadlines are moved to the next seconds in the store (targets are in minutes).
 */
const TICKETS = 24;
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

describe(`kill -9 while SLA deadlines fire (${TEST_STORE})`, () => {
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let dataDir: string;
  let key = '';
  let store: Store;

  beforeAll(async () => {
    buildCli();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-sla-kill-'));
    env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', SLA_SWEEP_INTERVAL_MS: '100' };
    if (TEST_STORE === 'postgres') {
      database = await testPostgresDatabase();
      env.DATABASE_URL = database.url;
      env.SIGNING_SECRET = randomBytes(36).toString('base64');
    }
  }, 200_000);

  afterAll(async () => {
    await store?.close();
    database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<Child & { address: string }> {
    const child = spawnServe(env);
    if (!key) key = (await waitForText(child.proc.stdout!, ADMIN_KEY, child.out, 120_000))[1]!;
    // Starting takes long on a loaded machine: more time than `listening` gives.
    return { ...child, address: (await waitForText(child.proc.stderr!, /listening on (http:\/\/[\d.]+:\d+)/, child.err, 120_000))[1]! };
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

  /** Moves each ticket's clocks so their instants fall from `from` ms on, `step` ms apart. */
  async function dueSoon(ids: string[], from: number, step: number): Promise<void> {
    for (const [i, id] of ids.entries()) {
      const row = await store.db.selectFrom('tickets').select('sla').where('id', '=', id).executeTakeFirstOrThrow();
      const state = JSON.parse(row.sla!) as SlaState;
      const due = Date.now() + from + i * step;
      for (const [metric, clock] of Object.entries(state.clocks)) {
        const at = due + (metric === 'resolution' ? step / 2 : 0);
        Object.assign(clock, { due_at: new Date(at).toISOString(), warn_at: new Date(at - step / 4).toISOString() });
      }
      await store.db.updateTable('tickets').set({ sla: JSON.stringify(state), ...deadlinesOf(state) }).where('id', '=', id).execute();
    }
  }

  const pending = async () => (await store.db.selectFrom('tickets').select('id').where('next_sla_deadline_at', 'is not', null).execute()).length;
  const holderPid = async () => {
    const lease = await store.db.selectFrom('job_leases').select(['owner', 'expires_at']).where('name', '=', 'sla-sweeper').executeTakeFirst();
    return lease && Date.parse(lease.expires_at) > Date.now() ? Number(lease.owner.split(':')[1]) : undefined;
  };

  it('writes every warning and breach exactly once across crashes and a full stop', async () => {
    let a = await start();
    let b = await start();
    store = openStore({ dataDir, databaseUrl: env.DATABASE_URL });
    await call(a.address, 'POST', '/v1/sla-policies', {
      name: 'All',
      conditions: { all: [] },
      targets: [{ priority: 'medium', first_response_minutes: 60, resolution_minutes: 120, warning_minutes: 30 }],
    });
    const ids: string[] = [];
    for (let i = 0; i < TICKETS; i++) {
      const ticket = await call(i % 2 ? a.address : b.address, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${i}@example.com`, subject: 'S', description: 'D' });
      ids.push(ticket.id as string);
    }
    // Half come due over the next 3 seconds while the lease holder is killed twice...
    await dueSoon(ids.slice(0, TICKETS / 2), 500, 250);
    for (let round = 0; round < 2; round++) {
      const pid = await waitFor(holderPid, 'a lease holder', 10_000);
      const victim = a.proc.pid === pid ? a : b;
      victim.proc.kill('SIGKILL');
      await victim.exited;
      if (victim === a) a = await start();
      else b = await start();
    }
    // ...the other half pass while every process is down.
    a.proc.kill('SIGKILL');
    b.proc.kill('SIGKILL');
    await Promise.all([a.exited, b.exited]);
    await dueSoon(ids.slice(TICKETS / 2), 100, 100);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    a = await start();
    try {
      // The dead processes' lease runs out (5 s), then the sweep catches up.
      await waitFor(async () => ((await pending()) === 0 ? true : null), 'every deadline fired', 30_000);
      const rows = await store.db.selectFrom('events').select(['ticket_id', 'type', 'data']).where('type', 'like', 'sla.%').execute();
      const counts = new Map<string, number>();
      for (const row of rows) {
        const metric = (JSON.parse(row.data) as { object: { metric: string } }).object.metric;
        const k = `${row.ticket_id} ${row.type} ${metric}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      for (const id of ids) {
        for (const type of ['sla.warning', 'sla.breached']) {
          for (const metric of ['first_response', 'resolution']) expect(counts.get(`${id} ${type} ${metric}`), `${id} ${type} ${metric}`).toBe(1);
        }
      }
      expect(rows).toHaveLength(TICKETS * 4);
    } finally {
      a.proc.kill('SIGTERM');
      expect(await a.exited).toBe(0);
    }
  }, 400_000);
});
