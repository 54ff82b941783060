import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { startWebhookWorker } from '../src/modules/webhooks/webhooks.worker.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import type { ClientInput, ClientOutput, ThroughputResult } from './client.js';
import { bulkBench } from './bulk.js';
import { dashboardBench } from './dashboard.js';
import { formatGetById, getByIdBench } from './get-by-id.js';
import { searchBench } from './search.js';
import { viewsBench } from './views.js';
import { SEARCH_TERM, seed } from './seed.js';
import { deliveryLatency, drained, startReceiver, subscribe, type LatencyFigures } from './webhooks.js';
import { benchEnv, percentile, scratchDatabase, serveProcess } from './common.js';

/**
 * `npm run bench`: seeds a fresh store with 100,000 tickets (BENCH_TICKETS=1000000 for a million)
 * and measures, through HTTP, the latency of a search, a filtered list, a get-by-id and the
 * dashboard, and ticket creates per second; then get-by-id against a bare Fastify route serving
 * the same JSON through the same schema, driven by wrk (bench/get-by-id.ts; BENCH_GET_ONLY=1 runs
 * that part alone, on BENCH_GET_TICKETS = 10,000 tickets). Figures, not a pass/fail test.
 *
 * The store is a temporary SQLite file, or, when DATABASE_URL names PostgreSQL, a scratch database
 * made on that server (`ticketing_bench_...`, dropped afterwards: the one named is never touched).
 * On PostgreSQL creates are also measured through three `ticketing serve` processes at once, as
 * behind a load balancer (with REDIS_URL, if set, for their shared rate limits).
 *
 * Then the search bench (bench/search.ts): each kind of term at 10,000 and BENCH_SEARCH_LARGE
 * tickets (default 100,000; 1000000 for a million). BENCH_SEARCH_ONLY=1 runs that part alone.
 */
const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
if (!Number.isSafeInteger(TICKETS) || TICKETS < 1) throw new Error(`BENCH_TICKETS must be a positive integer, got ${process.env.BENCH_TICKETS}`);
const CUSTOMERS = 2_000;

const log = (text: string) => process.stderr.write(`${text}\n`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
let seedTime = '';

const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;
const storeName = serverUrl ? 'PostgreSQL' : 'SQLite';

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl) : undefined;
  // The bench measures the service, not the limiter: one key sends far more than 2,000 a minute.
  // The bench's webhook receiver listens on 127.0.0.1.
  const env = benchEnv(dataDir, scratch?.url, { HOST: '127.0.0.1', PORT: '0', WEBHOOKS_ALLOW_PRIVATE: 'true' });
  const config = loadConfig(env);
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
  const children: ChildProcess[] = [];
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });

    let started = performance.now();
    log(`seeding ${TICKETS.toLocaleString('en')} tickets and ${CUSTOMERS.toLocaleString('en')} customers...`);
    const step = Math.max(100_000, Math.ceil(TICKETS / 10 / 100_000) * 100_000);
    let reported = 0;
    const seeded = await seed(store, organizationId, { tickets: TICKETS, customers: CUSTOMERS }, (done) => {
      if (done - reported >= step && done < TICKETS) log(`  ${done.toLocaleString('en')} tickets (${seconds(started)})`);
      if (done - reported >= step) reported = done;
    });
    seedTime = seconds(started);
    log(`seeded in ${seedTime} (${seeded.matching.toLocaleString('en')} tickets contain "${SEARCH_TERM}")`);

    app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });

    const creates: ClientInput['creates'] = [{ name: 'one process', baseUrls: [baseUrl] }];
    if (scratch) {
      log('starting three ticketing serve processes on the same database...');
      const processEnv = { ...env, LOG_LEVEL: 'warn', ...(process.env.REDIS_URL ? { REDIS_PREFIX: `ticketing-bench:${randomBytes(4).toString('hex')}:` } : {}) };
      creates.push({ name: 'three processes', baseUrls: await Promise.all([0, 1, 2].map(() => serveProcess(processEnv, children))) });
    }

    started = performance.now();
    log('measuring through HTTP (client in a child process)...');
    const input: ClientInput = {
      baseUrl,
      bareUrl: '',
      key,
      ticketIds: seeded.ticketIds,
      searchTerm: SEARCH_TERM,
      samples: 300,
      warmup: 30,
      connections: 10,
      durationSeconds: 5,
      creates,
      createConnections: 12,
    };
    const output = await runClient(input);
    log(`measured in ${seconds(started)}`);

    // Webhooks: the latency from commit to receiver, then creates while every one is delivered.
    log('measuring webhook deliveries...');
    const receiver = await startReceiver();
    // The bench's own process delivers too, as `ticketing serve` does (server.ts starts this job).
    const worker = startWebhookWorker({ store, config, log: app.log });
    const webhooks: WebhookFigures = { latency: [], loaded: [] };
    try {
      const unsubscribe = await subscribe(baseUrl, key, receiver);
      for (const target of creates) {
        webhooks.latency.push(await deliveryLatency(target.name, target.baseUrls, key, receiver, { samples: 200, gapMs: 20 }));
      }
      for (const target of creates) {
        receiver.latencies.clear();
        const [loaded] = (await runClient({ ...input, createsOnly: true, creates: [{ ...target, name: `${target.name}, webhook on` }] })).creates;
        // Every create the client counted, and any it did not (answered after its run ended).
        const drainMs = await drained(() => receiver.latencies.size, loaded!.succeeded, 120_000).catch(() => Number.NaN);
        for (let size = -1; !Number.isNaN(drainMs) && size !== receiver.latencies.size; ) {
          size = receiver.latencies.size;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        const values = [...receiver.latencies.values()].sort((a, b) => a - b);
        webhooks.loaded.push({ creates: loaded!, drainMs, p50: percentile(values, 50), p95: percentile(values, 95), delivered: values.length });
      }
      await unsubscribe();
    } finally {
      await worker.stop();
      await receiver.close();
    }
    print(output, input, webhooks);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.filter((child) => child.exitCode === null).map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await app?.close();
    await store.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

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

const ms = (value: number) => `${value.toFixed(2)} ms`.padStart(10);

interface WebhookFigures {
  latency: LatencyFigures[];
  loaded: Array<{ creates: ThroughputResult; drainMs: number; p50: number; p95: number; delivered: number }>;
}


function print(output: ClientOutput, input: ClientInput, webhooks: WebhookFigures): void {
  const lines: string[] = [];
  lines.push('');
  lines.push(`ticketing benchmark: ${TICKETS.toLocaleString('en')} tickets, ${storeName}, Node ${process.version}, ${cpus().length} CPU(s)`);
  lines.push(`Seeding took ${seedTime}.`);
  lines.push('');
  lines.push(`Latency, ${input.samples} sequential requests each after ${input.warmup} warm-up:`);
  lines.push(`  ${'request'.padEnd(15)} ${'median'.padStart(10)} ${'p95'.padStart(10)}  ${'items'.padStart(5)}  failed  example`);
  for (const r of output.latency) {
    lines.push(`  ${r.name.padEnd(15)} ${ms(r.median)} ${ms(r.p95)}  ${String(r.items).padStart(5)}  ${String(r.failures).padStart(6)}  GET ${r.path}`);
  }
  lines.push('');
  lines.push(`Ticket creates (POST /v1/tickets), autocannon ${input.createConnections} connections in all x ${input.durationSeconds} s:`);
  lines.push(...table(output.creates));
  lines.push(`  creates/s on ${storeName}: ${output.creates.map((c) => `${c.requestsPerSecond.toFixed(0)} (${c.name})`).join(', ')}`);
  lines.push('');
  lines.push('Webhook delivery latency, commit to receiver (one endpoint on 127.0.0.1, ticket.created):');
  lines.push(`  ${'creates through'.padEnd(22)} ${'events'.padStart(7)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}`);
  for (const l of webhooks.latency) {
    lines.push(`  ${l.name.padEnd(22)} ${`${l.received}/${l.samples}`.padStart(7)} ${`${l.p50} ms`.padStart(8)} ${`${l.p95} ms`.padStart(8)} ${`${l.max} ms`.padStart(8)}`);
  }
  lines.push('  (tickets created one at a time, 20 ms apart)');
  lines.push('');
  lines.push(`Ticket creates with that endpoint subscribed, autocannon ${input.createConnections} connections x ${input.durationSeconds} s:`);
  lines.push(...table(webhooks.loaded.map((l) => l.creates)));
  for (const l of webhooks.loaded) {
    const drain = Number.isNaN(l.drainMs) ? 'not all within 120 s' : `the last ${(l.drainMs / 1000).toFixed(1)} s after the load ended`;
    lines.push(`  ${l.creates.name}: ${l.delivered} tickets delivered, ${drain}; latency p50 ${l.p50} ms, p95 ${l.p95} ms`);
  }
  lines.push('');
  process.stdout.write(`${lines.join('\n')}\n`);
}

function table(rows: ThroughputResult[]): string[] {
  return [
    `  ${'target'.padEnd(22)} ${'req/s'.padStart(9)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}  non-2xx  errors`,
    ...rows.map(
      (t) =>
        `  ${t.name.padEnd(22)} ${t.requestsPerSecond.toFixed(0).padStart(9)} ${`${t.latencyP50} ms`.padStart(7)} ${`${t.latencyP99} ms`.padStart(7)}  ${String(t.non2xx).padStart(7)}  ${String(t.errors).padStart(6)}`,
    ),
  ];
}

/** get-by-id against the bare route (bench/get-by-id.ts), on a scratch database of its own on PostgreSQL. */
async function getById(): Promise<void> {
  const scratch = serverUrl ? await scratchDatabase(serverUrl) : undefined;
  try {
    const figures = await getByIdBench({
      databaseUrl: scratch?.url,
      tickets: Number(process.env.BENCH_GET_TICKETS ?? 10_000),
      rounds: Number(process.env.BENCH_GET_ROUNDS ?? 3),
      seconds: Number(process.env.BENCH_GET_SECONDS ?? 5),
      metrics: process.env.BENCH_GET_METRICS === '1',
    });
    process.stdout.write(`${formatGetById(figures)}\n`);
  } finally {
    await scratch?.drop();
  }
}

/**
 * BENCH_SEARCH_ONLY=1: only the search bench; BENCH_GET_ONLY=1: only get-by-id (bench/get-by-id.ts);
 * BENCH_DASHBOARD_ONLY=1: only the dashboard bench (bench/dashboard.ts); BENCH_BULK_ONLY=1: only
 * the bulk change (bench/bulk.ts); BENCH_VIEWS_ONLY=1: only the views bench (bench/views.ts);
 * otherwise all of them.
 */
async function all(): Promise<void> {
  if (process.env.BENCH_GET_ONLY === '1') return getById();
  if (process.env.BENCH_DASHBOARD_ONLY === '1') return dashboardBench(serverUrl, log);
  if (process.env.BENCH_BULK_ONLY === '1') return bulkBench(serverUrl, log);
  if (process.env.BENCH_VIEWS_ONLY === '1') return viewsBench(serverUrl, log);
  if (process.env.BENCH_SEARCH_ONLY !== '1') {
    await main();
    await getById();
  }
  await searchBench(serverUrl, log);
  if (process.env.BENCH_SEARCH_ONLY !== '1') {
    await dashboardBench(serverUrl, log);
    await viewsBench(serverUrl, log);
    await bulkBench(serverUrl, log);
  }
}

all().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
