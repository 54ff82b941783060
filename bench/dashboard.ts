import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest, migrations } from '../src/db/migrator.js';
import { COMMAND_TIMEOUTS, openStore, type Store } from '../src/db/store.js';
import { compactDashboard } from '../src/modules/dashboard/dashboard.compaction.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { seedDashboard } from './dashboard-seed.js';
import { benchEnv, percentile, scratchDatabase } from './common.js';

/**
 * The dashboard part of `npm run bench`: GET /v1/dashboard p50 and p95 through HTTP at
 * 10,000 and at BENCH_DASHBOARD_LARGE tickets (default 1,000,000) and the ratio of the two, on
 * SQLite, or on PostgreSQL when DATABASE_URL names it (a scratch database each). The tickets are
 * made by the database (bench/dashboard-seed.ts), their deltas compacted, then the requests are
 * sequential, one at a time, from a client in this process. At 10,000 tickets it also measures
 * what the counters cost ticket creates: autocannon (a separate process) against the schema of
 * before the counters (migrations rolled back to 0011: no triggers, the two indexes back) and the
 * current one, alternately, in the same run. BENCH_DASHBOARD_ONLY=1 runs this part alone.
 */
const SAMPLES = 200;
const ROUNDS = 5;
const WARMUP = 20;
const CREATE_SECONDS = 5;
const CREATE_CONNECTIONS = 12;


function get(agent: Agent, url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Creates per second through autocannon in a child process (the same body each time). */
function createsPerSecond(url: string, key: string): Promise<{ rate: number; non2xx: number }> {
  const bin = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));
  const body = JSON.stringify({ customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Printer', description: 'On fire', priority: 'high' });
  const args = [bin, '-c', String(CREATE_CONNECTIONS), '-d', String(CREATE_SECONDS), '-m', 'POST', '-H', `authorization=Bearer ${key}`, '-H', 'content-type=application/json', '-b', body, '--json', `${url}/v1/tickets`];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', () => {
      try {
        const result = JSON.parse(out) as { requests: { average: number }; non2xx: number };
        resolve({ rate: result.requests.average, non2xx: result.non2xx });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

interface Served {
  base: string;
  key: string;
  store: Store;
  seedSeconds: number;
  compactSeconds: number;
  close(): Promise<void>;
}

/** A fresh store seeded with `tickets`, its deltas compacted, served on a port of its own. */
async function serve(tickets: number, serverUrl: string | undefined, log: (text: string) => void): Promise<Served> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-dashboard-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'dashboard') : undefined;
  const env = benchEnv(dataDir, scratch?.url);
  const config = loadConfig(env);
  // The seed's statements run long: the store goes without the request timeouts (as migrations do).
  const store: Store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: COMMAND_TIMEOUTS, search: config.search });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const close = async () => {
    await app?.close();
    await store.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    let started = performance.now();
    await seedDashboard(store, organizationId, tickets, (done) => {
      if (done % 500_000 === 0 && done < tickets) log(`  ${done.toLocaleString('en')} tickets (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    });
    const seedSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await compactDashboard(store);
    const compactSeconds = (performance.now() - started) / 1000;
    // Compacting a million deltas at once leaves as many dead rows in dashboard_deltas, which an
    // index scan steps over until autovacuum (as a running installation would) clears them; the
    // job's steady state is a few seconds' worth. Vacuumed here so the figure is the settled one.
    if (store.dialect === 'postgres') await sql`vacuum analyze dashboard_deltas, dashboard_totals`.execute(store.db);
    log(`  seeded ${tickets.toLocaleString('en')} tickets in ${seedSeconds.toFixed(1)} s, deltas compacted in ${compactSeconds.toFixed(1)} s`);
    app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    return { base, key, store, seedSeconds, compactSeconds, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Creates per second without the counters (migrations rolled back to 0011) and with them, alternately. */
async function createsBeforeAfter(served: Served): Promise<{ before: number[]; after: number[]; non2xx: number }> {
  const migrator = new Migrator({ db: served.store.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const creates = { before: [] as number[], after: [] as number[], non2xx: 0 };
  for (let round = 0; round < 2; round++) {
    const down = await migrator.migrateTo('0011_add_updated_since_indexes');
    if (down.error) throw down.error instanceof Error ? down.error : new Error('rolling back to 0011 failed');
    const before = await createsPerSecond(served.base, served.key);
    await migrateToLatest(served.store.db);
    const after = await createsPerSecond(served.base, served.key);
    creates.before.push(before.rate);
    creates.after.push(after.rate);
    creates.non2xx += before.non2xx + after.non2xx;
  }
  return creates;
}

/** Runs the dashboard bench and prints its table. */
export async function dashboardBench(serverUrl: string | undefined, log: (text: string) => void): Promise<void> {
  const large = Number(process.env.BENCH_DASHBOARD_LARGE ?? 1_000_000);
  if (!Number.isSafeInteger(large) || large < 10_000) throw new Error(`BENCH_DASHBOARD_LARGE must be an integer of at least 10000, got ${process.env.BENCH_DASHBOARD_LARGE}`);
  const storeName = serverUrl ? 'PostgreSQL' : 'SQLite';
  const sizes = [10_000, large];
  const served: Served[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const size of sizes) {
      log(`dashboard bench on ${storeName}: ${size.toLocaleString('en')} tickets...`);
      served.push(await serve(size, serverUrl, log));
    }
    // Both stores served at once and measured in alternating rounds, so a change in the machine's
    // load during the run weighs on both sizes alike.
    const times: number[][] = served.map(() => []);
    const statuses = served.map(() => new Map<number, number>());
    for (const s of served) for (let n = 0; n < WARMUP; n++) await get(agent, `${s.base}/v1/dashboard`, s.key);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, s] of served.entries()) {
        for (let n = 0; n < SAMPLES / ROUNDS; n++) {
          const t0 = performance.now();
          const status = await get(agent, `${s.base}/v1/dashboard`, s.key);
          times[i]!.push(performance.now() - t0);
          statuses[i]!.set(status, (statuses[i]!.get(status) ?? 0) + 1);
        }
      }
    }
    const figures = times.map((list) => list.sort((a, b) => a - b)).map((sorted) => ({ p50: percentile(sorted, 50), p95: percentile(sorted, 95) }));
    log(`dashboard bench on ${storeName}: creates with and without the counters...`);
    const c = await createsBeforeAfter(served[0]!);
    const [small, big] = figures as [{ p50: number; p95: number }, { p50: number; p95: number }];
    const f = (v: number) => `${v.toFixed(2)} ms`.padStart(10);
    const list = (v: number[]) => v.map((x) => x.toFixed(0)).join(', ');
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const lines = [
      '',
      `Dashboard (GET /v1/dashboard), ${storeName}, ${SAMPLES} sequential requests per size in ${ROUNDS} alternating rounds, after ${WARMUP} warm-up:`,
      `  ${'tickets'.padEnd(10)} ${'p50'.padStart(10)} ${'p95'.padStart(10)}  statuses`,
      ...sizes.map((size, i) => `  ${size.toLocaleString('en').padEnd(10)} ${f(figures[i]!.p50)} ${f(figures[i]!.p95)}  ${[...statuses[i]!].map(([st, n]) => `${st}×${n}`).join(' ')}`),
      `  ratio ${large.toLocaleString('en')} / 10,000: p50 ×${(big.p50 / small.p50).toFixed(2)}, p95 ×${(big.p95 / small.p95).toFixed(2)}`,
      `  (${large.toLocaleString('en')} tickets seeded by the database in ${served[1]!.seedSeconds.toFixed(0)} s; their deltas compacted in ${served[1]!.compactSeconds.toFixed(1)} s)`,
      `  creates/s at 10,000 tickets (autocannon ${CREATE_CONNECTIONS} connections x ${CREATE_SECONDS} s, alternating): without counters ${list(c.before)}; with counters ${list(c.after)}` +
        ` (×${(mean(c.after) / mean(c.before)).toFixed(2)}; non-2xx ${c.non2xx})`,
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    agent.destroy();
    for (const s of served) await s.close();
  }
}
