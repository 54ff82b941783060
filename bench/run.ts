import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/api-keys.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { DiskBlobStore } from '../src/storage/disk-store.js';
import type { ClientInput, ClientOutput } from './client.js';
import { SEARCH_TERM, seed } from './seed.js';

/**
 * `npm run bench`: seeds a fresh store with 100,000 tickets and measures, through HTTP, the
 * latency of a search, a filtered list and a get-by-id, then the requests per second of
 * get-by-id against a bare Fastify route in the same process. Figures, not a pass/fail test.
 */
const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const CUSTOMERS = 2_000;

const log = (text: string) => process.stderr.write(`${text}\n`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-'));
  // The bench measures the service, not the limiter: one key sends far more than 2,000 a minute.
  const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_ADMIN_PER_MINUTE: '1000000000' });
  const store = openStore({ dataDir, databaseUrl: undefined });
  const bare = Fastify({ logger: false });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });

    let started = performance.now();
    log(`seeding ${TICKETS.toLocaleString('en')} tickets and ${CUSTOMERS.toLocaleString('en')} customers...`);
    const seeded = await seed(store, organizationId, { tickets: TICKETS, customers: CUSTOMERS });
    log(`seeded in ${seconds(started)} (${seeded.matching.toLocaleString('en')} tickets contain "${SEARCH_TERM}")`);

    app = await buildApp({ config, store, blobs: new DiskBlobStore(join(dataDir, 'attachments')) });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    bare.get('/bare', () => ({ status: 'ok', message: 'constant' }));
    const bareUrl = `${await bare.listen({ host: '127.0.0.1', port: 0 })}/bare`;

    started = performance.now();
    log('measuring through HTTP (client in a child process)...');
    const input: ClientInput = {
      baseUrl,
      bareUrl,
      key,
      ticketIds: seeded.ticketIds,
      searchTerm: SEARCH_TERM,
      samples: 300,
      warmup: 30,
      connections: 10,
      durationSeconds: 5,
    };
    const output = await runClient(input);
    log(`measured in ${seconds(started)}`);
    print(output, input);
  } finally {
    await app?.close();
    await bare.close();
    await store.close();
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

function print(output: ClientOutput, input: ClientInput): void {
  const lines: string[] = [];
  lines.push('');
  lines.push(`ticketing benchmark: ${TICKETS.toLocaleString('en')} tickets, SQLite, Node ${process.version}, ${cpus().length} CPU(s)`);
  lines.push('');
  lines.push(`Latency, ${input.samples} sequential requests each after ${input.warmup} warm-up:`);
  lines.push(`  ${'request'.padEnd(15)} ${'median'.padStart(10)} ${'p95'.padStart(10)}  ${'items'.padStart(5)}  failed  example`);
  for (const r of output.latency) {
    lines.push(`  ${r.name.padEnd(15)} ${ms(r.median)} ${ms(r.p95)}  ${String(r.items).padStart(5)}  ${String(r.failures).padStart(6)}  GET ${r.path}`);
  }
  lines.push('');
  lines.push(`Throughput, autocannon ${input.connections} connections x ${input.durationSeconds} s:`);
  lines.push(`  ${'target'.padEnd(22)} ${'req/s'.padStart(9)} ${'p50'.padStart(7)} ${'p99'.padStart(7)}  non-2xx  errors`);
  for (const t of output.throughput) {
    lines.push(
      `  ${t.name.padEnd(22)} ${t.requestsPerSecond.toFixed(0).padStart(9)} ${`${t.latencyP50} ms`.padStart(7)} ${`${t.latencyP99} ms`.padStart(7)}  ${String(t.non2xx).padStart(7)}  ${String(t.errors).padStart(6)}`,
    );
  }
  const [service, bareRoute] = output.throughput;
  if (service && bareRoute && bareRoute.requestsPerSecond > 0) {
    lines.push(`  get by id runs at ${((service.requestsPerSecond / bareRoute.requestsPerSecond) * 100).toFixed(0)}% of the bare route's rate`);
  }
  lines.push('');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
