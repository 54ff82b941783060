import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { COMMAND_TIMEOUTS, openStore, type Store } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { slaPoliciesOf } from '../src/modules/sla/sla.policy-cache.js';
import { startSlaSweeper, type SlaSweeperDeps } from '../src/modules/sla/sla.sweeper.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { backendCpuMicros, benchEnv, cpuSince, percentile } from './common.js';
import { seedDashboard } from './dashboard-seed.js';
import { clearClocks, installWrittenClock, POLICY, seedClocks, type ExpectedClock } from './sla-seed.js';

/**
 * The SLA deadlines bench (issue 24): `node dist/bench/sla.js` after `npm run build`.
 *
 * For each size (BENCH_SLA_SMALL tickets, default 10,000, then BENCH_SLA_TICKETS, default
 * 1,000,000; BENCH_SLA_SMALL=0 skips the small one), a store of that many tickets of which
 * BENCH_SLA_CLOCKS (10,000) have a running SLA clock whose warning and breach both fall in a window
 * of BENCH_SLA_MINUTES (3) starting BENCH_SLA_LEAD_S (60) seconds after the clocks are written
 * (bench/sla-seed.ts); the other tickets, made by the database (bench/dashboard-seed.ts), have no
 * policy and so no clock. The sweeper runs as `ticketing serve` runs it (`startSlaSweeper`, the
 * store opened with the same options, SLA_SWEEP_INTERVAL_MS from the environment) in a process of
 * its own doing nothing else, so its CPU time (process.cpuUsage: all its threads, SQLite's work
 * included) is the sweeper's. On PostgreSQL (DATABASE_URL) the database's backends' CPU (/proc)
 * is read too.
 *
 * Figures: per event, lateness = the instant its row was inserted (a trigger of the bench's own,
 * bench/sla-seed.ts) - its SLA instant: count, p50/p95/p99/max; every instant of the window fired
 * exactly once (none missing, none twice, none early); the sweeper's CPU per minute while idle
 * (before the window) and over the window (plus BENCH_SLA_GRACE_S, 10 s), and per event; the
 * ratio of the window's CPU per minute, largest size over smallest (target ≤ 2). Then the plan of
 * the sweeper's due-tickets read at each size.
 *
 * Each size's tickets are seeded once and kept under BENCH_SLA_DIR (/tmp/ticketing-bench-sla; on
 * PostgreSQL a database `ticketing_bench_sla_<size>`); each run replaces only the clock tickets
 * and SLA events. BENCH_SLA_PROFILE=<dir>: the sweeper's process writes a CPU profile there
 * (node --cpu-prof). BENCH_SLA_SEED_ONLY=1 only seeds; BENCH_SLA_DROP=1 removes the stores afterwards.
 */
const DIR = process.env.BENCH_SLA_DIR ?? '/tmp/ticketing-bench-sla';
const CLOCKS = Number(process.env.BENCH_SLA_CLOCKS ?? 10_000);
const MINUTES = Number(process.env.BENCH_SLA_MINUTES ?? 3);
const LEAD_MS = Number(process.env.BENCH_SLA_LEAD_S ?? 60) * 1000;
/** How long after its start the sweeper's CPU counts as idle (its modules and worker threads loaded). */
const WARM_MS = 5_000;
const GRACE_MS = Number(process.env.BENCH_SLA_GRACE_S ?? 10) * 1000;
const log = (text: string) => process.stderr.write(`${text}\n`);
const sleepUntil = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms - Date.now())));

interface Seeded {
  tickets: number;
  dataDir: string;
  databaseUrl: string | undefined;
  organizationId: string;
  customerId: string;
}

const storeOf = (s: Pick<Seeded, 'dataDir' | 'databaseUrl'>, timeouts = COMMAND_TIMEOUTS) => {
  const config = loadConfig(benchEnv(s.dataDir, s.databaseUrl));
  return { config, store: openStore({ dataDir: s.dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts, search: config.search }) };
};

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const databaseName = (tickets: number) => `ticketing_bench_sla_${tickets}`;

/** The store of `tickets` tickets (the clock tickets not yet among them), seeded now unless kept. */
async function seeded(tickets: number, serverUrl: string | undefined): Promise<Seeded> {
  const label = `${serverUrl ? 'postgres' : 'sqlite'}-${tickets}`;
  const marker = join(DIR, `${label}.json`);
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as Seeded;
  const dataDir = join(DIR, label);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  let databaseUrl: string | undefined;
  if (serverUrl) {
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName(tickets)}`;
    databaseUrl = url.toString();
    await adminQuery(serverUrl, `drop database if exists "${databaseName(tickets)}" with (force)`);
    await adminQuery(serverUrl, `create database "${databaseName(tickets)}"`);
  }
  const base = Math.max(0, tickets - CLOCKS);
  log(`sla bench: seeding ${label} (${base.toLocaleString('en')} tickets without a clock)...`);
  const started = performance.now();
  const { store, config } = storeOf({ dataDir, databaseUrl });
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'SLA bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    await seedDashboard(store, organizationId, base, (done) => {
      if (done % 250_000 === 0) log(`  ${done.toLocaleString('en')} tickets (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    });
    const customer = await store.db.selectFrom('customers').select('id').where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
    // The policy through the API, as an administrator makes it.
    const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    try {
      const res = await app.inject({ method: 'POST', url: '/v1/sla-policies', headers: { authorization: `Bearer ${key}` }, payload: POLICY });
      if (res.statusCode !== 201) throw new Error(`creating the SLA policy: ${res.statusCode} ${res.body}`);
    } finally {
      await app.close();
    }
    await installWrittenClock(store);
    const result: Seeded = { tickets, dataDir, databaseUrl, organizationId, customerId: customer.id };
    writeFileSync(marker, JSON.stringify(result));
    log(`  seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return result;
  } finally {
    await store.close();
  }
}

/** The sweeper's process: this file with `--sweeper`, answering `cpu` with its process.cpuUsage(). */
function startSweeperProcess(s: Seeded): Promise<{ child: ChildProcess; cpu: () => Promise<number> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...benchEnv(s.dataDir, s.databaseUrl) };
  if (!s.databaseUrl) delete env.DATABASE_URL;
  const profile = process.env.BENCH_SLA_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SLA_PROFILE}`] : [];
  const child = fork(fileURLToPath(import.meta.url), ['--sweeper'], { env, execArgv: profile, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting: Array<(micros: number) => void> = [];
  return new Promise((resolve, reject) => {
    child.on('message', (message: { ready?: true; cpu?: number }) => {
      if (message.ready) resolve({ child, cpu: () => new Promise((r) => (waiting.push(r), child.send('cpu'))) });
      if (message.cpu !== undefined) waiting.shift()?.(message.cpu);
    });
    child.once('exit', (code) => reject(new Error(`the sweeper process exited with code ${code}`)));
  });
}

async function sweeperMain(): Promise<void> {
  const config = loadConfig(process.env);
  const store = openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: config.databaseTimeouts, search: config.search });
  const say = (level: string) => (obj: unknown, msg?: string) => process.stderr.write(`sweeper ${level}: ${msg ?? ''} ${JSON.stringify(obj)}\n`);
  const sweeperLog = { level: 'warn', info: () => undefined, warn: say('warn'), error: say('error') } as unknown as SlaSweeperDeps['log'];
  const sweeper = startSlaSweeper({ store, config, log: sweeperLog });
  process.on('message', (message: string) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system });
    } else if (message === 'stop') {
      void sweeper
        .stop()
        .then(() => store.close())
        .then(() => process.exit(0));
    }
  });
  process.send!({ ready: true });
}

interface SizeResult {
  tickets: number;
  clocks: number;
  events: number;
  expected: number;
  missing: number;
  duplicates: number;
  early: number;
  wrongInstant: number;
  lateness: { p50: number; p95: number; p99: number; max: number };
  idleCpuMsPerMinute: number;
  windowCpuMsPerMinute: number;
  cpuMsPerMinuteByMinute: number[];
  cpuMicrosPerEvent: number;
  pgBackendCpuMsPerMinute: number;
  load: string;
}

/** Reads the SLA events with the instant each row was written, and checks them against what was due. */
async function checkEvents(store: Store, expected: Map<string, ExpectedClock>, until: number) {
  const rows = await store.db
    .selectFrom('events')
    .leftJoin(sql<{ event_id: string; written_ms: number }>`bench_sla_written`.as('w'), 'w.event_id', 'events.id')
    .select(['events.ticket_id', 'events.type', 'events.occurred_at', 'w.written_ms'])
    .where('events.type', 'in', ['sla.warning', 'sla.breached'])
    .execute();
  const seen = new Map<string, number>();
  const lateness: number[] = [];
  let early = 0;
  let wrongInstant = 0;
  for (const row of rows) {
    const clock = expected.get(row.ticket_id ?? '');
    const instant = Date.parse(String(row.occurred_at instanceof Date ? row.occurred_at.toISOString() : row.occurred_at));
    const want = clock && (row.type === 'sla.warning' ? clock.warnAt : clock.dueAt);
    if (want !== instant) wrongInstant++;
    const key = `${row.ticket_id}:${row.type}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
    const late = Number(row.written_ms) - instant;
    if (late < 0) early++;
    lateness.push(late);
  }
  let due = 0;
  let missing = 0;
  for (const [id, clock] of expected) {
    for (const [type, at] of [['sla.warning', clock.warnAt], ['sla.breached', clock.dueAt]] as const) {
      if (at > until) continue;
      due++;
      if (!seen.has(`${id}:${type}`)) missing++;
    }
  }
  const duplicates = [...seen.values()].reduce((sum, n) => sum + (n > 1 ? n - 1 : 0), 0);
  lateness.sort((a, b) => a - b);
  const p = (q: number) => percentile(lateness, q);
  return { events: rows.length, expected: due, missing, duplicates, early, wrongInstant, lateness: { p50: p(50), p95: p(95), p99: p(99), max: lateness.at(-1) ?? Number.NaN } };
}

/** The plan of the sweeper's read of due tickets (sla.sweeper.repository.ts `dueTickets`). */
async function explainDue(store: Store): Promise<string> {
  const now = new Date().toISOString();
  const query = store.db.selectFrom('tickets').select(['organization_id', 'id']).where('next_sla_deadline_at', '<=', now).orderBy('next_sla_deadline_at').limit(200).compile();
  const prefix = store.dialect === 'postgres' ? 'explain (analyze, buffers, costs off) ' : 'explain query plan ';
  const result = await sql.raw<Record<string, unknown>>(prefix + query.sql.replace(/\$1|\?/, `'${now}'`).replace(/\$2|\?/, '200')).execute(store.db);
  return result.rows.map((row) => String(row['QUERY PLAN'] ?? row.detail)).join('\n    ');
}

async function runSize(s: Seeded): Promise<SizeResult> {
  const firstNumber = Math.max(0, s.tickets - CLOCKS) + 1;
  const { store } = storeOf(s);
  let windowStart = 0;
  let windowEnd = 0;
  let expected: Map<string, ExpectedClock>;
  try {
    await migrateToLatest(store.db);
    await clearClocks(store, s.organizationId, firstNumber);
    windowStart = Date.now() + LEAD_MS;
    windowEnd = windowStart + MINUTES * 60_000;
    const set = await slaPoliciesOf(store.db, s.organizationId);
    const t0 = performance.now();
    expected = await seedClocks(store, set, s.organizationId, s.customerId, firstNumber, CLOCKS, { start: windowStart, end: windowEnd });
    // What the seeding left in SQLite's write-ahead log goes into the file now, not under the sweeper.
    if (store.dialect === 'postgres') await sql`analyze tickets`.execute(store.db);
    else await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    log(`  ${CLOCKS.toLocaleString('en')} clock tickets written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await store.close();
  }
  if (Date.now() > windowStart - WARM_MS - 10_000) throw new Error('writing the clock tickets took longer than BENCH_SLA_LEAD_S allows: raise it');
  const backends = s.databaseUrl ? new pg.Client({ connectionString: s.databaseUrl }) : undefined;
  await backends?.connect();
  const sweeper = await startSweeperProcess(s);
  try {
    // Idle: the sweeper polls an index with nothing due yet (from WARM_MS after start, past its loading).
    await sleepUntil(Date.now() + WARM_MS);
    const idleFrom = { at: Date.now(), cpu: await sweeper.cpu() };
    await sleepUntil(windowStart);
    const start = { at: Date.now(), cpu: await sweeper.cpu(), pg: await backendCpuMicros(backends) };
    const idleMsPerMinute = (start.cpu - idleFrom.cpu) / 1000 / ((start.at - idleFrom.at) / 60_000);
    const byMinute: number[] = [];
    let last = start;
    const end = windowEnd + GRACE_MS;
    while (Date.now() < end) {
      await sleepUntil(Math.min(end, last.at + 60_000));
      const now = { at: Date.now(), cpu: await sweeper.cpu(), pg: start.pg };
      byMinute.push((now.cpu - last.cpu) / 1000 / ((now.at - last.at) / 60_000));
      log(`    minute ${byMinute.length}: sweeper CPU ${byMinute.at(-1)!.toFixed(0)} ms/min (load ${loadavg()[0]!.toFixed(2)})`);
      last = now;
    }
    const pgAfter = await backendCpuMicros(backends);
    const minutes = (last.at - start.at) / 60_000;
    const windowMsPerMinute = (last.cpu - start.cpu) / 1000 / minutes;
    const { store: reader } = storeOf(s);
    try {
      const checked = await checkEvents(reader, expected, windowEnd);
      const load = loadavg().map((l) => l.toFixed(2)).join(' ');
      log(`  plan of the due read: ${await explainDue(reader)}`);
      return {
        tickets: s.tickets,
        clocks: CLOCKS,
        ...checked,
        idleCpuMsPerMinute: idleMsPerMinute,
        windowCpuMsPerMinute: windowMsPerMinute,
        cpuMsPerMinuteByMinute: byMinute,
        cpuMicrosPerEvent: (last.cpu - start.cpu) / Math.max(1, checked.events),
        pgBackendCpuMsPerMinute: cpuSince(start.pg, pgAfter) / 1000 / minutes,
        load,
      };
    } finally {
      await reader.close();
    }
  } finally {
    sweeper.child.send('stop');
    await new Promise((resolve) => sweeper.child.once('exit', resolve));
    await backends?.end();
  }
}

function format(r: SizeResult): string {
  const f = (n: number) => (Number.isNaN(n) ? 'n/a' : n.toFixed(0));
  return [
    `${r.tickets.toLocaleString('en')} tickets, ${r.clocks.toLocaleString('en')} running clocks (load ${r.load}):`,
    `  events ${r.events} of ${r.expected} due; missing ${r.missing}, duplicates ${r.duplicates}, early ${r.early}, wrong instant ${r.wrongInstant}`,
    `  lateness ms: p50 ${f(r.lateness.p50)}, p95 ${f(r.lateness.p95)}, p99 ${f(r.lateness.p99)}, max ${f(r.lateness.max)}`,
    `  sweeper CPU ms/min: idle ${r.idleCpuMsPerMinute.toFixed(1)}, window ${f(r.windowCpuMsPerMinute)} (by minute ${r.cpuMsPerMinuteByMinute.map(f).join(' / ')}), ${f(r.cpuMicrosPerEvent)} µs per event` +
      (Number.isNaN(r.pgBackendCpuMsPerMinute) ? '' : `; PostgreSQL backends ${f(r.pgBackendCpuMsPerMinute)} ms/min`),
  ].join('\n');
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL || undefined;
  const small = Number(process.env.BENCH_SLA_SMALL ?? 10_000);
  const large = Number(process.env.BENCH_SLA_TICKETS ?? 1_000_000);
  const sizes = [...new Set([small, large].filter((n) => n > 0))];
  mkdirSync(DIR, { recursive: true });
  const results: SizeResult[] = [];
  for (const tickets of sizes) {
    const s = await seeded(tickets, serverUrl);
    if (process.env.BENCH_SLA_SEED_ONLY === '1') continue;
    log(`sla bench: ${serverUrl ? 'PostgreSQL' : 'SQLite'}, ${tickets.toLocaleString('en')} tickets, window ${MINUTES} min from ${LEAD_MS / 1000} s...`);
    const result = await runSize(s);
    log(format(result));
    results.push(result);
  }
  const lines = ['', `SLA deadlines (${serverUrl ? 'PostgreSQL' : 'SQLite'}, ${CLOCKS.toLocaleString('en')} clocks, ${MINUTES} min window):`, ...results.map(format)];
  if (results.length === 2) {
    const ratio = results[1]!.windowCpuMsPerMinute / results[0]!.windowCpuMsPerMinute;
    lines.push(`sweeper CPU per minute, ${results[1]!.tickets.toLocaleString('en')} over ${results[0]!.tickets.toLocaleString('en')} tickets: ×${ratio.toFixed(2)} (target ≤ 2)`);
  }
  process.stdout.write(`${lines.join('\n')}\n${JSON.stringify(results)}\n`);
  if (process.env.BENCH_SLA_DROP === '1') {
    for (const tickets of sizes) {
      rmSync(join(DIR, `${serverUrl ? 'postgres' : 'sqlite'}-${tickets}`), { recursive: true, force: true });
      rmSync(join(DIR, `${serverUrl ? 'postgres' : 'sqlite'}-${tickets}.json`), { force: true });
      if (serverUrl) await adminQuery(serverUrl, `drop database if exists "${databaseName(tickets)}" with (force)`);
    }
  }
}

if (process.argv[2] === '--sweeper') await sweeperMain();
else await main();
