import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { COMMAND_TIMEOUTS, openStore, type Store } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { benchEnv } from './common.js';
import { seedViews } from './views-seed.js';

/**
 * The views part of `npm run bench` (BENCH_VIEWS_ONLY=1 runs it alone): p50 and p95 through HTTP,
 * measured by wrk (a separate process, one connection, WRK_SECONDS each) at 10,000 and at
 * BENCH_VIEWS_LARGE tickets (default 1,000,000), on SQLite, or on PostgreSQL when DATABASE_URL
 * names it, of
 *   - a tag filter, `GET /v1/tickets?tag=vip` (1 ticket in 20);
 *   - a custom field filter, `GET /v1/tickets?custom_fields[plan]=enterprise` (1 in 10);
 *   - a 3-condition view's tickets (status new/open, tag billing, seats >= 100; newest first);
 *   - `GET /v1/views/counts` for 10 views, without the counts cache (VIEWS_COUNTS_MAX_AGE_MS=0)
 *     and with it (30 s: after the first request, from memory).
 * A figure of which wrk completes fewer than 3 answers is of 3 sequential requests instead (median, slowest).
 * Each size is seeded once (bench/views-seed.ts) and kept, with what the bench needs to find it,
 * under BENCH_VIEWS_DIR (default /tmp/ticketing-bench-views): a SQLite file there, or a PostgreSQL
 * database `ticketing_bench_views_<size>` on the server named. Later runs reuse it;
 * BENCH_VIEWS_DROP=1 drops both afterwards; BENCH_VIEWS_SEED_ONLY=1 only seeds.
 */
const WRK_SECONDS = Number(process.env.BENCH_VIEWS_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_VIEWS_ROUNDS ?? 2);
const DIR = process.env.BENCH_VIEWS_DIR ?? '/tmp/ticketing-bench-views';

/** The 10 views of the counts: a support team's usual queues. */
const NOW = new Date().toISOString();
export const VIEWS: Array<{ name: string; conditions: unknown }> = [
  { name: 'New and open', conditions: { all: [{ field: 'status', operator: 'in', value: ['new', 'open'] }] } },
  { name: 'Pending', conditions: { all: [{ field: 'status', operator: 'is', value: 'pending' }] } },
  { name: 'Urgent, not solved', conditions: { all: [{ field: 'priority', operator: 'is', value: 'urgent' }, { field: 'status', operator: 'in', value: ['new', 'open', 'pending'] }] } },
  { name: 'VIP', conditions: { all: [{ field: 'tags', operator: 'includes_any', value: ['vip'] }] } },
  { name: 'VIP billing', conditions: { all: [{ field: 'tags', operator: 'includes_all', value: ['billing', 'vip'] }] } },
  { name: 'Enterprise', conditions: { all: [{ field: 'custom_fields.plan', operator: 'is', value: 'enterprise' }] } },
  { name: '100-150 seats', conditions: { all: [{ field: 'custom_fields.seats', operator: 'between', value: [100, 150] }] } },
  { name: 'Unassigned', conditions: { all: [{ field: 'assigned_user_id', operator: 'is', value: null }, { field: 'status', operator: 'in', value: ['new', 'open'] }] } },
  { name: 'Overdue', conditions: { all: [{ field: 'due_date', operator: 'before', value: NOW }, { field: 'status', operator: 'in', value: ['new', 'open', 'pending'] }] } },
  { name: 'Last 24 hours', conditions: { all: [{ field: 'created_at', operator: 'within_last_hours', value: 24 }] } },
];
/** The view whose tickets are measured: three conditions of three kinds. */
export const THREE = {
  name: 'Open billing, 100+ seats',
  conditions: {
    all: [
      { field: 'status', operator: 'in', value: ['new', 'open'] },
      { field: 'tags', operator: 'includes_any', value: ['billing'] },
      { field: 'custom_fields.seats', operator: 'gte', value: 100 },
    ],
  },
};

interface Seeded {
  tickets: number;
  dataDir: string;
  databaseUrl: string | undefined;
  key: string;
  threeViewId: string;
}

function databaseUrlOf(serverUrl: string, tickets: number): string {
  const url = new URL(serverUrl);
  url.pathname = `/ticketing_bench_views_${tickets}`;
  return url.toString();
}

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const storeOf = (seeded: Pick<Seeded, 'dataDir' | 'databaseUrl'>, timeouts?: typeof COMMAND_TIMEOUTS): { store: Store; config: ReturnType<typeof loadConfig> } => {
  const config = loadConfig(benchEnv(seeded.dataDir, seeded.databaseUrl));
  return { config, store: openStore({ dataDir: seeded.dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: timeouts ?? config.databaseTimeouts, search: config.search }) };
};

/** The seeded store of `tickets`, made now unless an earlier run left it (its marker file). */
async function seeded(tickets: number, serverUrl: string | undefined, log: (text: string) => void): Promise<Seeded> {
  const label = `${serverUrl ? 'postgres' : 'sqlite'}-${tickets}`;
  const marker = join(DIR, `${label}.json`);
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8')) as Seeded;
  const dataDir = join(DIR, label);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = serverUrl ? databaseUrlOf(serverUrl, tickets) : undefined;
  if (serverUrl) {
    await adminQuery(serverUrl, `drop database if exists "ticketing_bench_views_${tickets}" with (force)`);
    await adminQuery(serverUrl, `create database "ticketing_bench_views_${tickets}"`);
  }
  log(`views bench: seeding ${label}...`);
  // The seed's statements run long: the store goes without the request timeouts (as migrations do).
  const { store, config } = storeOf({ dataDir, databaseUrl }, COMMAND_TIMEOUTS);
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    await seedViews(store, organizationId, tickets, log);
    // The views through the API, as a user would save them.
    const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    try {
      let threeViewId = '';
      for (const view of [...VIEWS, THREE]) {
        const res = await app.inject({ method: 'POST', url: '/v1/views', headers: { authorization: `Bearer ${key}` }, payload: { ...view, shared: true } });
        if (res.statusCode !== 201) throw new Error(`saving view ${view.name}: ${res.statusCode} ${res.body}`);
        threeViewId = res.json<{ id: string }>().id;
      }
      const result: Seeded = { tickets, dataDir, databaseUrl, key, threeViewId };
      writeFileSync(marker, JSON.stringify(result));
      return result;
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
  }
}

/** p50 and p95 (ms) of `url` by wrk: one thread, one connection, WRK_SECONDS. */
function wrk(url: string, key: string): Promise<{ p50: number; p95: number; requests: number; non2xx: number }> {
  const script = join(DIR, 'p95.lua');
  writeFileSync(
    script,
    `done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %d\\n", latency:percentile(50), latency:percentile(95), summary.requests, summary.errors.status))
end
`,
  );
  const args = ['-t1', '-c1', `-d${WRK_SECONDS}s`, '--timeout', '30s', '-H', `authorization: Bearer ${key}`, '-s', script, url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', () => {
      const m = /RESULT (\d+) (\d+) (\d+) (\d+)/.exec(out);
      if (!m) return reject(new Error(`wrk printed no result:\n${out}`));
      resolve({ p50: Number(m[1]) / 1000, p95: Number(m[2]) / 1000, requests: Number(m[3]), non2xx: Number(m[4]) });
    });
  });
}

const FALLBACK = 3;

async function sequential(url: string, key: string): Promise<{ p50: number; p95: number; requests: number; non2xx: number }> {
  const times: number[] = [];
  let non2xx = 0;
  for (let i = 0; i < FALLBACK; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    if (res.status >= 300) non2xx++;
    times.push(performance.now() - t0);
  }
  if (non2xx > 0) throw new Error(`${url}: ${non2xx} non-2xx answers`);
  times.sort((a, b) => a - b);
  return { p50: times[1]!, p95: times[2]!, requests: FALLBACK, non2xx };
}

interface Served {
  seeded: Seeded;
  /** Without the counts cache, and with it (30 s). */
  bases: { off: string; on: string };
  close(): Promise<void>;
}

async function serve(s: Seeded): Promise<Served> {
  const { store, config } = storeOf(s);
  // A store seeded before a later migration (an index) gets it now.
  await migrateToLatest(store.db);
  const apps: Array<Awaited<ReturnType<typeof buildApp>>> = [];
  const bases: string[] = [];
  for (const maxAge of [0, 30_000]) {
    const app = await buildApp({ config: { ...config, viewsCountsMaxAgeMs: maxAge }, store, blobs: openBlobStore(config, store) });
    apps.push(app);
    bases.push(await app.listen({ host: '127.0.0.1', port: 0 }));
  }
  return {
    seeded: s,
    bases: { off: bases[0]!, on: bases[1]! },
    close: async () => {
      for (const app of apps) await app.close();
      await store.close();
    },
  };
}

const QUERIES: Array<{ name: string; path: (s: Seeded) => string; cached?: boolean }> = [
  { name: 'tag filter (?tag=vip)', path: () => '/v1/tickets?tag=vip' },
  { name: 'custom field (plan=enterprise)', path: () => '/v1/tickets?custom_fields%5Bplan%5D=enterprise' },
  { name: '3-condition view tickets', path: (s) => `/v1/views/${s.threeViewId}/tickets` },
  { name: 'counts, 10 views, no cache', path: () => '/v1/views/counts' },
  { name: 'counts, 10 views, cache', path: () => '/v1/views/counts', cached: true },
];

export async function viewsBench(serverUrl: string | undefined, log: (text: string) => void): Promise<void> {
  const large = Number(process.env.BENCH_VIEWS_LARGE ?? 1_000_000);
  const storeName = serverUrl ? 'PostgreSQL' : 'SQLite';
  const sizes = [10_000, large];
  mkdirSync(DIR, { recursive: true });
  const all: Seeded[] = [];
  for (const size of sizes) all.push(await seeded(size, serverUrl, log));
  if (process.env.BENCH_VIEWS_SEED_ONLY === '1') return;
  const served: Served[] = [];
  try {
    for (const s of all) served.push(await serve(s));
    const p95s = new Map<string, number[]>();
    const p50s = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const q of QUERIES) {
        for (const s of served) {
          log(`views bench on ${storeName}, round ${round + 1}: ${q.name} at ${s.seeded.tickets.toLocaleString('en')}...`);
          // With the cache, its first request counts (as without it); the figure is of the answers after it.
          if (q.cached) await fetch(`${s.bases.on}${q.path(s.seeded)}`, { headers: { authorization: `Bearer ${s.seeded.key}` } }).then((res) => res.arrayBuffer());
          const url = `${q.cached ? s.bases.on : s.bases.off}${q.path(s.seeded)}`;
          let r = await wrk(url, s.seeded.key);
          if (r.non2xx > 0) throw new Error(`${q.name}: ${r.non2xx} non-2xx answers`);
          // Answers slower than wrk's run: FALLBACK sequential requests timed here, their median and slowest.
          if (r.requests < FALLBACK) r = await sequential(url, s.seeded.key);
          const k = `${q.name}|${s.seeded.tickets}`;
          p95s.set(k, [...(p95s.get(k) ?? []), r.p95]);
          p50s.set(k, [...(p50s.get(k) ?? []), r.p50]);
        }
      }
    }
    const f = (v: number[]) => v.map((x) => x.toFixed(1)).join(' / ');
    const best = (v: number[]) => Math.min(...v);
    const lines = [
      '',
      `Views, ${storeName}, wrk 1 connection x ${WRK_SECONDS} s per figure, ${ROUNDS} rounds (p95 of each round; ms):`,
      `  ${'query'.padEnd(32)} ${'10,000 p50'.padStart(12)} ${'10,000 p95'.padStart(14)} ${`${large.toLocaleString('en')} p50`.padStart(14)} ${`${large.toLocaleString('en')} p95`.padStart(16)}  ratio (best p95)`,
      ...QUERIES.map((q) => {
        const [a, b] = sizes.map((size) => `${q.name}|${size}`) as [string, string];
        return `  ${q.name.padEnd(32)} ${f(p50s.get(a)!).padStart(12)} ${f(p95s.get(a)!).padStart(14)} ${f(p50s.get(b)!).padStart(14)} ${f(p95s.get(b)!).padStart(16)}  ×${(best(p95s.get(b)!) / best(p95s.get(a)!)).toFixed(2)}`;
      }),
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const s of served) await s.close();
    if (process.env.BENCH_VIEWS_DROP === '1') {
      for (const s of all) {
        rmSync(s.dataDir, { recursive: true, force: true });
        rmSync(join(DIR, `${serverUrl ? 'postgres' : 'sqlite'}-${s.tickets}.json`), { force: true });
        if (serverUrl) await adminQuery(serverUrl, `drop database if exists "ticketing_bench_views_${s.tickets}" with (force)`);
      }
    }
  }
}
