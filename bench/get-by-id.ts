import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { createApiKey } from '../src/auth/keys.service.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { Ticket } from '../src/modules/tickets/tickets.schemas.js';
import { getTicket } from '../src/modules/tickets/tickets.service.js';
import { seed } from './seed.js';
import { backendCpuMicros, cpuMicrosOf, cpuSince, root, startListening } from './common.js';

/**
 * The get-by-id part of `npm run bench`: GET /v1/tickets/{id} of `ticketing serve`
 * against a bare Fastify route that serves the same ticket JSON through the same response schema
 * (`Ticket`), both driven by wrk (1 thread, 50 connections) in a process of its own, in alternating
 * rounds; the figure is each target's median. The service runs as two `ticketing serve`
 * processes on the same store, one at LOG_LEVEL=warn and one at the default level (info: two
 * request lines per request, written to /dev/null here), with the rate limit raised out of the way
 * but still checked. The bare route runs in a third process, so each server has one event loop.
 *
 * Without wrk on the PATH the load comes from autocannon in a child process instead (noted in the
 * output): autocannon costs more CPU per request than wrk, so its ratios are not comparable.
 *
 * BENCH_GET_METRICS=1 replaces the default-level process by one at LOG_LEVEL=warn with METRICS_PORT
 * set (request metrics on), so metrics on and off are measured side by side in the same rounds.
 *
 * BENCH_GET_ONLY=1 runs only this part (`npm run bench`), seeding BENCH_GET_TICKETS (10,000).
 * BENCH_GET_ROUNDS (3) and BENCH_GET_SECONDS (5) set the rounds and their length; BENCH_GET_PROFILE=<dir>
 * makes the service processes write CPU profiles (node --cpu-prof) there.
 */
const log = (text: string) => process.stderr.write(`${text}\n`);
const CONNECTIONS = 50;
const METRICS_TARGET = 'service, warn, METRICS_PORT set';

export interface GetByIdOptions {
  /** A scratch PostgreSQL database (bench/run.ts makes and drops it), or undefined for SQLite. */
  databaseUrl: string | undefined;
  tickets: number;
  rounds: number;
  seconds: number;
  /** The third service process runs at warn with METRICS_PORT set instead of at the default level. */
  metrics?: boolean;
}

export interface GetByIdFigures {
  store: string;
  generator: string;
  tickets: number;
  rounds: number;
  seconds: number;
  /** Median requests per second of each target, and every round's figure. */
  targets: Array<{
    name: string;
    median: number;
    rounds: number[];
    failed: number;
    cpuMicrosPerRequest: number;
    /** The server's CPU time per answered request, each round. */
    cpuRounds: number[];
    /** PostgreSQL: the CPU time of the database's backends per answered request (NaN on SQLite, the bare route). */
    backendCpuMicrosPerRequest: number;
    ratios: number[];
  }>;
}

const hasWrk = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;

/** wrk's Lua script: GET <prefix><random id> with the key, counting non-2xx answers. */
function wrkScript(dir: string, prefix: string, ids: string[], key: string | null): string {
  const file = join(dir, `get-${randomBytes(4).toString('hex')}.lua`);
  writeFileSync(
    file,
    [
      `local ids = {${ids.map((id) => `"${id}"`).join(',')}}`,
      `local n = #ids`,
      key ? `wrk.headers["Authorization"] = "Bearer ${key}"` : '',
      `math.randomseed(42)`,
      `request = function() return wrk.format("GET", "${prefix}" .. ids[math.random(n)]) end`,
    ].join('\n'),
  );
  return file;
}

interface Run {
  requestsPerSecond: number;
  failed: number;
  /** Requests answered in all. */
  requests: number;
  /** CPU time of the server process over the run, in microseconds (user + system, /proc). */
  cpuMicros: number;
  /** CPU time of the PostgreSQL backends of the bench's database over the run (NaN on SQLite). */
  backendCpuMicros?: number;
}

function runWrk(url: string, script: string, seconds: number, pid: number | undefined): Promise<Run> {
  const cpuBefore = cpuMicrosOf(pid);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, '-s', script, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      const rate = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
      if (code !== 0 || rate === undefined) return reject(new Error(`wrk exited with code ${code}:\n${out}`));
      const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
      const socketErrors = /Socket errors:.*/.exec(out)?.[0].match(/\d+/g)?.reduce((sum, n) => sum + Number(n), 0) ?? 0;
      const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
      resolve({ requestsPerSecond: Number(rate), failed: non2xx + socketErrors, requests, cpuMicros: cpuMicrosOf(pid) - cpuBefore });
    });
  });
}

/** The fallback: autocannon in a child process of its own (this file, run with `--autocannon`). */
function runAutocannon(url: string, prefix: string, ids: string[], key: string | null, seconds: number, pid: number | undefined): Promise<Run> {
  const cpuBefore = cpuMicrosOf(pid);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--autocannon'], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve({ ...(JSON.parse(out) as Omit<Run, 'cpuMicros'>), cpuMicros: cpuMicrosOf(pid) - cpuBefore })
        : reject(new Error(`autocannon client exited with code ${code}`)),
    );
    child.stdin.end(JSON.stringify({ url, prefix, ids, key, seconds }));
  });
}

async function autocannonClient(): Promise<void> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const input = JSON.parse(text) as { url: string; prefix: string; ids: string[]; key: string | null; seconds: number };
  const result = await autocannon({
    url: input.url,
    connections: CONNECTIONS,
    duration: input.seconds,
    headers: input.key ? { authorization: `Bearer ${input.key}` } : {},
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${input.prefix}${input.ids[Math.floor(Math.random() * input.ids.length)]}` }) }],
  });
  process.stdout.write(JSON.stringify({ requestsPerSecond: result.requests.average, failed: result.non2xx + result.errors, requests: result['2xx'] + result.non2xx }));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Seeds a store, starts the three servers and measures them in alternating rounds. */
export async function getByIdBench(options: GetByIdOptions): Promise<GetByIdFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-get-'));
  const store = openStore({ dataDir, databaseUrl: options.databaseUrl });
  const children: ChildProcess[] = [];
  let backends: pg.Client | undefined;
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    log(`get by id: seeding ${options.tickets.toLocaleString('en')} tickets...`);
    const seeded = await seed(store, organizationId, { tickets: options.tickets, customers: Math.min(2_000, options.tickets) });
    const ids = seeded.ticketIds.slice(0, 2_000);
    const presented: Record<string, unknown> = {};
    for (const id of ids) presented[id] = await getTicket({ store } as Parameters<typeof getTicket>[0], organizationId, id);
    await store.close();

    const ticketsFile = join(dataDir, 'tickets.json');
    writeFileSync(ticketsFile, JSON.stringify(presented));
    const env = {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      // Raised out of the way, still counted on every request.
      RATE_LIMIT_ADMIN_PER_MINUTE: '1000000000',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl, SIGNING_SECRET: randomBytes(36).toString('base64') } : {}),
    };
    // BENCH_GET_PROFILE=<dir>: the service processes write CPU profiles there when they stop.
    const profile = process.env.BENCH_GET_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_GET_PROFILE}`] : [];
    const serve = [...profile, join(root, 'bin', 'ticketing.js'), 'serve'];
    const [warnUrl, defaultUrl, bareUrl] = await Promise.all([
      startListening(serve, { ...env, LOG_LEVEL: 'warn' }, children),
      // The default level: the one the configuration gives when LOG_LEVEL is unset; or metrics on.
      startListening(serve, options.metrics ? { ...env, LOG_LEVEL: 'warn', METRICS_PORT: '0' } : { ...env, LOG_LEVEL: undefined }, children),
      startListening([fileURLToPath(import.meta.url), '--bare', ticketsFile], {}, children),
    ]);
    const wrk = hasWrk();
    const generator = wrk ? `wrk 1 thread, ${CONNECTIONS} connections` : `autocannon in a child process (wrk not found), ${CONNECTIONS} connections`;
    if (!wrk) log('get by id: wrk is not on the PATH; falling back to autocannon in a child process (its figures are not comparable to wrk\'s)');
    const targets = [
      { name: 'service, LOG_LEVEL=warn', url: warnUrl, prefix: '/v1/tickets/', key },
      { name: 'bare Fastify route', url: bareUrl, prefix: '/bare/tickets/', key: null },
      { name: options.metrics ? METRICS_TARGET : 'service, default level (info)', url: defaultUrl, prefix: '/v1/tickets/', key },
    ];
    const scripts = targets.map((t) => (wrk ? wrkScript(dataDir, t.prefix, ids, t.key) : ''));
    const pids = [children[0]!.pid, children[2]!.pid, children[1]!.pid];
    if (options.databaseUrl) {
      backends = new pg.Client({ connectionString: options.databaseUrl });
      await backends.connect();
    }
    const measure = async (i: number, seconds: number): Promise<Run> => {
      const t = targets[i]!;
      const before = await backendCpuMicros(backends);
      const run = await (wrk ? runWrk(t.url, scripts[i]!, seconds, pids[i]) : runAutocannon(t.url, t.prefix, ids, t.key, seconds, pids[i]));
      return { ...run, backendCpuMicros: t.key ? cpuSince(before, await backendCpuMicros(backends)) : Number.NaN };
    };
    log(`get by id: warming up, then ${options.rounds} rounds of ${options.seconds} s per target (${generator})...`);
    for (let i = 0; i < targets.length; i++) await measure(i, 2);
    const results = targets.map(() => [] as Run[]);
    for (let round = 0; round < options.rounds; round++) {
      // Every other round in reverse order, so no target always runs right after the same one.
      const order = targets.map((_, i) => (round % 2 === 0 ? i : targets.length - 1 - i));
      for (const i of order) results[i]!.push(await measure(i, options.seconds));
    }
    return {
      store: options.databaseUrl ? 'PostgreSQL' : 'SQLite',
      generator,
      tickets: options.tickets,
      rounds: options.rounds,
      seconds: options.seconds,
      targets: targets.map((t, i) => ({
        name: t.name,
        median: median(results[i]!.map((r) => r.requestsPerSecond)),
        rounds: results[i]!.map((r) => r.requestsPerSecond),
        failed: results[i]!.reduce((sum, r) => sum + r.failed, 0),
        cpuMicrosPerRequest: median(results[i]!.map((r) => r.cpuMicros / r.requests)),
        cpuRounds: results[i]!.map((r) => r.cpuMicros / r.requests),
        backendCpuMicrosPerRequest: median(results[i]!.map((r) => (r.backendCpuMicros ?? Number.NaN) / r.requests)),
        // Each round's rate over the bare route's in the same round (measured right before or after).
        ratios: results[i]!.map((r, round) => r.requestsPerSecond / results[1]![round]!.requestsPerSecond),
      })),
    };
  } finally {
    await backends?.end().catch(() => undefined);
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.filter((child) => child.exitCode === null).map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await store.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The figures as printed by `npm run bench`. */
export function formatGetById(f: GetByIdFigures): string {
  const [warn, bare, info] = f.targets;
  // The backends' CPU per request (PostgreSQL on this machine only).
  const pgColumn = f.targets.some((t) => !Number.isNaN(t.backendCpuMicrosPerRequest));
  const ratio = (t: { median: number } | undefined) => (t && bare && bare.median > 0 ? (t.median / bare.median).toFixed(2) : 'n/a');
  const lines = [
    '',
    `GET /v1/tickets/{id} against a bare Fastify route (same JSON, same schema), ${f.store}, ${f.tickets.toLocaleString('en')} tickets, Node ${process.version}, ${cpus().length} CPU(s)`,
    `  ${f.generator}; ${f.rounds} alternating rounds of ${f.seconds} s, medians`,
    `  ${'target'.padEnd(32)} ${'req/s'.padStart(8)} ${'ratio'.padStart(6)} ${'paired'.padStart(6)} ${'CPU/req'.padStart(8)}${pgColumn ? ' PG CPU/req' : ''}  failed  rounds (req/s)`,
    ...f.targets.map(
      (t) =>
        `  ${t.name.padEnd(32)} ${t.median.toFixed(0).padStart(8)} ${(t === bare ? '1.00' : ratio(t)).padStart(6)} ${median(t.ratios).toFixed(2).padStart(6)} ${`${t.cpuMicrosPerRequest.toFixed(0)} us`.padStart(8)}${pgColumn ? (Number.isNaN(t.backendCpuMicrosPerRequest) ? '' : `${t.backendCpuMicrosPerRequest.toFixed(0)} us`).padStart(11) : ''}  ${String(t.failed).padStart(6)}  ${t.rounds.map((r) => r.toFixed(0)).join(' ')}`,
    ),
    `  ratio at LOG_LEVEL=warn ${ratio(warn)}, at the default level ${ratio(info)} (ratio of the medians; paired: median of each round's ratio;`,
    `  CPU/req: the server process's CPU time per answered request, median of the rounds, bare: ${bare ? (bare.cpuMicrosPerRequest / (warn?.cpuMicrosPerRequest ?? NaN)).toFixed(2) : 'n/a'} x the service's at warn${pgColumn ? ';' : ')'}`,
    ...(pgColumn ? ['  PG CPU/req: the CPU time of the PostgreSQL backends of the bench\'s database per answered request, on the same cores)'] : []),
    ...(info?.name === METRICS_TARGET && warn
      ? [
          `  metrics on / off, req/s of each round: ${info.rounds.map((r, i) => (r / warn.rounds[i]!).toFixed(3)).join(' ')}; ` +
            `median ${median(info.rounds.map((r, i) => r / warn.rounds[i]!)).toFixed(3)}`,
          `  metrics on / off, CPU/req of each round: ${info.cpuRounds.map((c, i) => (c / warn.cpuRounds[i]!).toFixed(3)).join(' ')}; ` +
            `median ${median(info.cpuRounds.map((c, i) => c / warn.cpuRounds[i]!)).toFixed(3)}`,
        ]
      : []),
    '',
  ];
  return lines.join('\n');
}

const mode = process.argv[2];
if (mode === '--bare') {
  const tickets = new Map(Object.entries(JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as Record<string, unknown>));
  const app = Fastify({ logger: false });
  app.get('/bare/tickets/:ticket_id', { schema: { response: { 200: Ticket } } }, (request) => tickets.get((request.params as { ticket_id: string }).ticket_id));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.stderr.write(`listening on ${address}\n`);
} else if (mode === '--autocannon') {
  await autocannonClient();
}
