import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../src/auth/keys.service.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { startTriggerWorker } from '../src/modules/automations/triggers.worker.js';
import { createMessageIds } from '../src/modules/mail/mail.message-ids.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { startSearchIndexJob } from '../src/search/search-index.job.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { backendCpuMicros, benchEnv, cpuSince, scratchDatabase } from './common.js';

/**
 * What two SLA policies and five active triggers cost a create, without a network, a load
 * generator or a second process in the way (on a shared machine the rates of bench/creates.ts swing
 * more between runs than between the settings). One process, one store, two organizations: one
 * plain, one with the policies and triggers of `BENCH_SLA_POLICIES=2 BENCH_CREATE_TRIGGERS=5` in
 * bench/creates.ts (policies: urgent tickets, then every ticket; triggers on ticket.created that
 * match no create). The trigger worker runs throughout, as in `ticketing serve`. Batches of
 * POST /v1/tickets (app.inject, 12 at a time, so the creates are grouped as under load) alternate
 * between the organizations; each batch with the triggers ends when the worker has followed its
 * events. Prints each batch's CPU per create (this process, and on PostgreSQL the backends') and
 * the medians. `node dist/bench/creates-overhead.js` after `npm run build`; `DATABASE_URL` for a
 * scratch database on that PostgreSQL server; BENCH_AB_ROUNDS (default 10 pairs), BENCH_AB_BATCH
 * (default 1200 creates); BENCH_SLA_POLICIES (2) and BENCH_CREATE_TRIGGERS (5) to measure one alone.
 */
const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 10);
const size = Number(process.env.BENCH_AB_BATCH ?? 1200);
const policies = Number(process.env.BENCH_SLA_POLICIES ?? 2);
const triggers = Number(process.env.BENCH_CREATE_TRIGGERS ?? 5);
const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;

const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-ab-'));
const scratch = serverUrl ? await scratchDatabase(serverUrl, 'ab') : undefined;
const config = loadConfig(benchEnv(dataDir, scratch?.url, { LOG_LEVEL: 'warn' }));
const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
let app: FastifyInstance | undefined;
let worker: { runOnce(): Promise<number>; stop(): Promise<void> } | undefined;
let searchIndexJob: { stop(): Promise<void> } | undefined;
try {
  await migrateToLatest(store.db);
  app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
  const plain = await keyOf('Plain organization');
  const ruled = await keyOf('Organization with SLA policies and triggers');
  const post = async (key: string, url: string, payload: object) => {
    const res = await app!.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload });
    if (res.statusCode !== 201) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`);
  };
  const targets = ['low', 'medium', 'high', 'urgent'].map((priority) => ({ priority, first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 480, warning_minutes: 15 }));
  for (let i = 0; i < policies; i++) {
    const conditions = i === 0 ? { all: [{ field: 'priority', operator: 'is', value: 'urgent' }] } : {};
    await post(ruled, '/v1/sla-policies', { name: `Policy ${i}`, position: i, conditions, targets });
  }
  for (let i = 0; i < triggers; i++) {
    const conditions = { all: [{ field: 'priority', operator: 'is', value: 'urgent' }, { field: 'tags', operator: 'includes_any', value: [`rule-${i}`] }] };
    await post(ruled, '/v1/triggers', { name: `Rule ${i}`, on: ['ticket.created', 'ticket.updated'], conditions, actions: [{ field: 'add_tags', value: [`rule-${i}`] }] });
  }
  // As `ticketing serve` does: on PostgreSQL the search index's pending list is merged by this job.
  searchIndexJob = startSearchIndexJob({ store, log: app.log });
  worker = startTriggerWorker({ store, mailer: { messageIds: createMessageIds(config), publicUrl: config.publicUrl }, log: app.log });

  let n = 0;
  const batch = async (key: string, follow: boolean): Promise<{ cpu: number; backends: number; perSecond: number }> => {
    const backendsBefore = scratch ? await backendCpuMicros(scratch.url) : undefined;
    const started = process.cpuUsage();
    const t0 = performance.now();
    let left = size;
    const loop = async () => {
      while (left-- > 0) {
        const i = n++;
        await post(key, '/v1/tickets', { customer_name: `Bench ${i % 500}`, customer_email: `bench${i % 500}@example.com`, subject: `Created by the bench ${i}`, description: 'Load' });
      }
    };
    await Promise.all(Array.from({ length: 12 }, loop));
    // The worker's share of these creates: it has followed their events when this resolves.
    if (follow) await worker!.runOnce();
    const ms = performance.now() - t0;
    const used = process.cpuUsage(started);
    const backends = backendsBefore && scratch ? cpuSince(backendsBefore, await backendCpuMicros(scratch.url)) : Number.NaN;
    return { cpu: (used.user + used.system) / size, backends: backends / size, perSecond: (size * 1000) / ms };
  };
  await batch(plain, false);
  await batch(ruled, true);
  const off: Array<Awaited<ReturnType<typeof batch>>> = [];
  const on: Array<Awaited<ReturnType<typeof batch>>> = [];
  for (let round = 0; round < rounds; round++) {
    // Every other pair in the other order.
    if (round % 2 === 0) {
      off.push(await batch(plain, false));
      on.push(await batch(ruled, true));
    } else {
      on.push(await batch(ruled, true));
      off.push(await batch(plain, false));
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const show = (name: string, rows: typeof off) =>
    `  ${name}: CPU per create ${median(rows.map((r) => r.cpu)).toFixed(0)} us (${rows.map((r) => r.cpu.toFixed(0)).join(' ')})` +
    (scratch ? `, backends ${median(rows.map((r) => r.backends)).toFixed(0)} us (${rows.map((r) => r.backends.toFixed(0)).join(' ')})` : '') +
    `, creates/s ${median(rows.map((r) => r.perSecond)).toFixed(0)} (${rows.map((r) => r.perSecond.toFixed(0)).join(' ')})\n`;
  const ratios = on.map((r, i) => (r.cpu + (scratch ? r.backends : 0)) / (off[i]!.cpu + (scratch ? off[i]!.backends : 0)));
  process.stdout.write(
    `creates with ${policies} SLA policies and ${triggers} triggers against none (app.inject, ${scratch ? 'PostgreSQL' : 'SQLite'}, ${rounds} pairs of ${size}; medians, then each batch):\n` +
      show('none', off) +
      show('policies and triggers', on) +
      `  paired ratios of CPU per create${scratch ? ' (process and backends)' : ''} ${ratios.map((r) => r.toFixed(2)).join(' ')}; median ${median(ratios).toFixed(2)}; ` +
      `load average ${loadavg()[0]!.toFixed(2)}\n`,
  );
} finally {
  await worker?.stop();
  await searchIndexJob?.stop();
  await app?.close();
  await store.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

async function keyOf(name: string): Promise<string> {
  const organizationId = await createOrganization(store.db, name);
  return (await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' })).key;
}
