import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/api-keys.service.js';
import { loadConfig } from '../src/config.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { createCommitStats } from '../src/modules/tickets/tickets.service.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import type { ClientInput, ClientOutput } from './client.js';
import { benchEnv, scratchDatabase, serveProcess } from './common.js';

/**
 * `node dist/bench/creates.js` (after `npm run build`): ticket creates per second alone, the same
 * load as the creates section of `npm run bench` (12 connections, 5 s, bench/client.ts), on a fresh
 * store: SQLite, or a scratch database on the PostgreSQL server DATABASE_URL names (there also
 * through three `ticketing serve` processes). BENCH_CREATE_SECONDS changes the duration;
 * BENCH_CREATE_ROUNDS runs the load that many times and prints each.
 */
const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;
const seconds = Number(process.env.BENCH_CREATE_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_CREATE_ROUNDS ?? 1);

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
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
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
      const output = await runClient(input);
      for (const c of output.creates) {
        process.stdout.write(
          `creates/s ${scratch ? 'PostgreSQL' : 'SQLite'}, ${c.name}, round ${round}: ${c.requestsPerSecond.toFixed(0)} ` +
            `(p50 ${c.latencyP50} ms, p99 ${c.latencyP99} ms, non-2xx ${c.non2xx}, errors ${c.errors})\n`,
        );
      }
      const stats = createCommitStats(store);
      if (stats) process.stdout.write(`  one process's group commits so far: ${stats.items} creates in ${stats.batches} transactions (largest ${stats.largest})\n`);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.filter((child) => child.exitCode === null).map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await app?.close();
    await store.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
