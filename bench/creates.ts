import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { startSearchIndexJob } from '../src/search/search-index.job.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { createCommitStats, createsWrittenAlone } from '../src/modules/tickets/tickets.create-batch.js';
import { createMessageIds } from '../src/modules/mail/mail.message-ids.js';
import { startTriggerWorker } from '../src/modules/automations/triggers.worker.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import type { ClientInput, ClientOutput } from './client.js';
import { backendCpuMicros, benchEnv, cpuSince, scratchDatabase, serveProcess } from './common.js';

/**
 * `node dist/bench/creates.js` (after `npm run build`): ticket creates per second alone, the same
 * load as the creates section of `npm run bench` (12 connections, 5 s, bench/client.ts), on a fresh
 * store: SQLite, or a scratch database on the PostgreSQL server DATABASE_URL names (there also
 * through three `ticketing serve` processes). BENCH_CREATE_SECONDS changes the duration;
 * BENCH_CREATE_ROUNDS runs the load that many times and prints each. BENCH_CREATE_TRIGGERS=5 makes
 * that many active triggers on ticket.created first and runs the trigger worker beside the requests,
 * as `ticketing serve` does (BENCH_CREATE_TRIGGERS_MATCHING of them match every create and tag it).
 * BENCH_SLA_POLICIES=2 first creates two SLA policies (the first for urgent tickets only, the second
 * for every ticket, with targets for each priority and warnings), so every create is matched and gets its clocks.
 */
const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;
const seconds = Number(process.env.BENCH_CREATE_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_CREATE_ROUNDS ?? 1);
const triggers = Number(process.env.BENCH_CREATE_TRIGGERS ?? 0);
const matching = Number(process.env.BENCH_CREATE_TRIGGERS_MATCHING ?? 0);

function runClient(input: ClientInput): Promise<ClientOutput> {
  return new Promise((resolve, reject) => {
    const client = fork(fileURLToPath(new URL('./client.js', import.meta.url)), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let output: ClientOutput | undefined;
    client.once('message', (message) => (output = message as ClientOutput));
    client.once('error', reject);
    client.once('exit', (code) => (output && code === 0 ? resolve(output) : reject(new Error(`benchmark client exited with code ${code}`))));
    client.send(input);
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl) : undefined;
  const env = benchEnv(dataDir, scratch?.url, { HOST: '127.0.0.1', PORT: '0' });
  const config = loadConfig(env);
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
  const children: ChildProcess[] = [];
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let searchIndexJob: { stop(): Promise<void> } | undefined;
  let triggerWorker: { stop(): Promise<void> } | undefined;
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    // As `ticketing serve` does (server.ts): on PostgreSQL the search index's pending list is merged
    // by this job, not by the creates (its CPU counts in this process's and the backends').
    searchIndexJob = startSearchIndexJob({ store, log: app.log });
    await createSlaPolicies(baseUrl, key, Number(process.env.BENCH_SLA_POLICIES ?? 0));
    for (let i = 0; i < triggers; i++) {
      const conditions = i < matching ? {} : { all: [{ field: 'priority', operator: 'is', value: 'urgent' }, { field: 'tags', operator: 'includes_any', value: [`rule-${i}`] }] };
      const res = await fetch(`${baseUrl}/v1/triggers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Rule ${i}`, on: ['ticket.created', 'ticket.updated'], conditions, actions: [{ field: 'add_tags', value: [`rule-${i}`] }] }),
      });
      if (res.status !== 201) throw new Error(`trigger: ${res.status} ${await res.text()}`);
    }
    if (triggers > 0) {
      triggerWorker = startTriggerWorker({ store, mailer: { messageIds: createMessageIds(config), publicUrl: config.publicUrl }, log: app.log });
      process.stdout.write(`${triggers} active triggers (${matching} matching every create), the trigger worker running\n`);
    }
    const creates: ClientInput['creates'] = [{ name: 'one process', baseUrls: [baseUrl] }];
    if (scratch && process.env.BENCH_CREATE_PROCESSES !== '1') {
      const processEnv = { ...env, LOG_LEVEL: 'warn' };
      creates.push({ name: 'three processes', baseUrls: await Promise.all([0, 1, 2].map(() => serveProcess(processEnv, children))) });
    }
    const input: ClientInput = {
      baseUrl, bareUrl: baseUrl, key, ticketIds: [], searchTerm: '', samples: 0, warmup: 0, connections: 10,
      durationSeconds: seconds, creates, createConnections: 12, createsOnly: true,
    };
    for (let round = 1; round <= rounds; round++) {
      // CPU time per create, a figure the other work on a shared machine disturbs far less than
      // the rate: this process's (it serves the one-process run), and on a PostgreSQL server on
      // this machine, its backends' for this database (both runs, when there are three processes).
      const cpuBefore = process.cpuUsage();
      const serverBefore = scratch ? await backendCpuMicros(scratch.url) : undefined;
      const output = await runClient(input);
      const cpu = process.cpuUsage(cpuBefore);
      const serverCpu = serverBefore && scratch ? cpuSince(serverBefore, await backendCpuMicros(scratch.url)) : Number.NaN;
      for (const c of output.creates) {
        process.stdout.write(
          `creates/s ${scratch ? 'PostgreSQL' : 'SQLite'}, ${c.name}, round ${round}: ${c.requestsPerSecond.toFixed(0)} ` +
            `(p50 ${c.latencyP50} ms, p99 ${c.latencyP99} ms, non-2xx ${c.non2xx}, errors ${c.errors})\n`,
        );
      }
      const one = output.creates[0]!;
      const all = output.creates.reduce((sum, c) => sum + c.succeeded, 0);
      process.stdout.write(
        `  CPU per create: serving process ${((cpu.user + cpu.system) / Math.max(1, one.succeeded)).toFixed(0)} us (one-process run)` +
          (scratch ? `, PostgreSQL backends ${Number.isNaN(serverCpu) ? 'n/a' : `${(serverCpu / Math.max(1, all)).toFixed(0)} us (all runs)`}` : '') +
          `; load average ${loadavg()[0]!.toFixed(2)}\n`,
      );
      const stats = createCommitStats(store);
      if (stats) {
        process.stdout.write(
          `  one process's group commits so far: ${stats.items} creates in ${stats.batches} transactions (largest ${stats.largest}), ` +
            `${createsWrittenAlone(store)} written again alone after their group failed\n`,
        );
      }
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.filter((child) => child.exitCode === null).map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await searchIndexJob?.stop();
    await triggerWorker?.stop();
    await app?.close();
    await store.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `count` SLA policies through the API: the first for urgent tickets, the others for all. */
async function createSlaPolicies(baseUrl: string, key: string, count: number): Promise<void> {
  const targets = ['low', 'medium', 'high', 'urgent'].map((priority) => ({ priority, first_response_minutes: 60, next_response_minutes: 120, resolution_minutes: 480, warning_minutes: 15 }));
  for (let i = 0; i < count; i++) {
    const conditions = i === 0 ? { all: [{ field: 'priority', operator: 'is', value: 'urgent' }] } : {};
    const res = await fetch(`${baseUrl}/v1/sla-policies`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Policy ${i}`, position: i, conditions, targets }),
    });
    if (res.status !== 201) throw new Error(`SLA policy: ${res.status} ${await res.text()}`);
  }
  if (count > 0) process.stdout.write(`${count} SLA policies active\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
