import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import type { Database } from '../src/db/types.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { seedPostgresFast } from './search-seed-postgres.js';
import { seed, SEARCH_TERM } from './seed.js';
import { benchEnv, percentile, scratchDatabase } from './common.js';

/**
 * The search part of `npm run bench` (README.md#benchmark): for each kind of term, p50
 * and p95 through HTTP at 10,000 tickets and at BENCH_SEARCH_LARGE tickets (default 100,000; set
 * 1000000 for the million the design is measured at: seeding it takes minutes), and the ratio of
 * the two p95s. On SQLite, or on PostgreSQL when DATABASE_URL names it (a scratch database each).
 * Sequential requests, one at a time, from a client in the same process.
 */
interface TermKind {
  kind: string;
  query: (ctx: { rareEmail: string }) => string;
}

const KINDS: TermKind[] = [
  { kind: 'rare (one customer\'s email)', query: ({ rareEmail }) => `search=${encodeURIComponent(rareEmail)}` },
  { kind: `common ("${SEARCH_TERM}", 3%)`, query: () => `search=${SEARCH_TERM}` },
  { kind: '2 chars, common ("in")', query: () => 'search=in' },
  { kind: '1 char, common ("e")', query: () => 'search=e' },
  { kind: '2 chars, absent ("qz")', query: () => 'search=qz' },
  { kind: 'absent ("zyzzyva")', query: () => 'search=zyzzyva' },
  { kind: 'long repetitive (a×300 b a×199)', query: () => `search=${'a'.repeat(300)}b${'a'.repeat(199)}` },
  { kind: 'long, common trigrams (120 ch)', query: () => `search=${encodeURIComponent('Please process a refund for last month. '.repeat(3))}` },
  { kind: 'search + filters', query: () => `search=${SEARCH_TERM}&status=open&priority=high` },
  { kind: 'deep offset (offset 250)', query: () => `search=${SEARCH_TERM}&offset=250` },
  // The same three with a page that is full at both sizes: above, the page at 10,000 tickets holds
  // fewer tickets than at a million (the rows column), so their ratio also counts the larger page.
  { kind: 'rare, equal pages (limit 5)', query: ({ rareEmail }) => `search=${encodeURIComponent(rareEmail)}&limit=5` },
  { kind: 'search + filters, equal (limit 20)', query: () => `search=${SEARCH_TERM}&status=open&priority=high&limit=20` },
  { kind: 'deep offset, equal (limit 50)', query: () => `search=${SEARCH_TERM}&offset=250&limit=50` },
];

const SAMPLES = 100;
const BENCH_ORGANIZATION = 'Bench organization';
const WARMUP = 10;

interface Figures {
  p50: number;
  p95: number;
  statuses: string;
  /** Tickets on the page answered (one untimed request): a page of 5 costs less than one of 50. */
  rows: number | null;
}

/** The number of tickets a list answer holds (null when the answer is not a list). */
async function rowsOf(url: string, key: string): Promise<number | null> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body: unknown = await res.json();
  return Array.isArray(body) ? body.length : null;
}

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


/**
 * PostgreSQL: a database seeded by an earlier run and kept (BENCH_SEARCH_KEEP=1 prints its name),
 * named by BENCH_SEARCH_DATABASE_10K or BENCH_SEARCH_DATABASE_LARGE: measured without seeding
 * (migrated to the latest first), and kept again. Seeding a million tickets takes about 10 minutes.
 */
async function benchDatabase(serverUrl: string, tickets: number, log: (text: string) => void): Promise<{ url: string; drop: () => Promise<void>; reused: boolean }> {
  const reuse = tickets === 10_000 ? process.env.BENCH_SEARCH_DATABASE_10K : process.env.BENCH_SEARCH_DATABASE_LARGE;
  if (reuse) {
    const url = new URL(serverUrl);
    url.pathname = `/${reuse}`;
    return { url: url.toString(), drop: () => Promise.resolve(), reused: true };
  }
  const scratch = await scratchDatabase(serverUrl, 'search');
  if (process.env.BENCH_SEARCH_KEEP !== '1') return { ...scratch, reused: false };
  const name = new URL(scratch.url).pathname.slice(1);
  return {
    url: scratch.url,
    reused: false,
    drop: () => {
      log(`  kept ${name} (${tickets.toLocaleString('en')} tickets): ${tickets === 10_000 ? 'BENCH_SEARCH_DATABASE_10K' : 'BENCH_SEARCH_DATABASE_LARGE'}=${name} reuses it`);
      return Promise.resolve();
    },
  };
}

async function migrateWithoutTimeout(url: string): Promise<void> {
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

/**
 * SQLite: the data directory of a store seeded by an earlier run and kept (BENCH_SEARCH_KEEP=1
 * prints its path), named by BENCH_SEARCH_DATABASE_10K or BENCH_SEARCH_DATABASE_LARGE: measured
 * without seeding (migrated to the latest first), and kept again. Seeding a million takes 5 minutes.
 */
function benchDataDir(tickets: number, log: (text: string) => void): { dataDir: string; reused: boolean; drop: () => void } {
  const variable = tickets === 10_000 ? 'BENCH_SEARCH_DATABASE_10K' : 'BENCH_SEARCH_DATABASE_LARGE';
  const reuse = process.env[variable];
  if (reuse) return { dataDir: reuse, reused: true, drop: () => undefined };
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-search-'));
  if (process.env.BENCH_SEARCH_KEEP === '1') {
    return { dataDir, reused: false, drop: () => log(`  kept ${dataDir} (${tickets.toLocaleString('en')} tickets): ${variable}=${dataDir} reuses it`) };
  }
  return { dataDir, reused: false, drop: () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function measureAt(tickets: number, serverUrl: string | undefined, log: (text: string) => void): Promise<Map<string, Figures>> {
  const scratch = serverUrl ? await benchDatabase(serverUrl, tickets, log) : undefined;
  // PostgreSQL keeps its databases itself (benchDatabase); the data directory then holds no store.
  const files = serverUrl
    ? ((dir: string) => ({ dataDir: dir, reused: false, drop: () => rmSync(dir, { recursive: true, force: true }) }))(mkdtempSync(join(tmpdir(), 'ticketing-bench-search-')))
    : benchDataDir(tickets, log);
  const { dataDir } = files;
  const reused = scratch?.reused ?? files.reused;
  const env = benchEnv(dataDir, scratch?.url);
  const config = loadConfig(env);
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: config.databaseTimeouts, search: config.search });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // A kept database may predate a migration that rebuilds an index over its million tickets:
    // minutes, past the store's statement timeout, so through a connection without one.
    if (scratch?.reused) await migrateWithoutTimeout(scratch.url);
    await migrateToLatest(store.db);
    let organizationId: string;
    if (reused) {
      const found = await store.db.selectFrom('organizations').select('id').where('name', '=', BENCH_ORGANIZATION).executeTakeFirstOrThrow();
      organizationId = found.id;
      log(`  reusing ${scratch ? new URL(scratch.url).pathname.slice(1) : dataDir}`);
    } else {
      // Another organization (as many tickets, up to 100,000), none of which the measured one can see.
      const other = await createOrganization(store.db, 'Other organization');
      organizationId = await createOrganization(store.db, BENCH_ORGANIZATION);
      const started = performance.now();
      // PostgreSQL through the database itself (search-seed-postgres.ts): a million through Kysely
      // takes about 40 minutes there.
      const seedOne = scratch ? (_: unknown, org: string, counts: { tickets: number; customers: number }) => seedPostgresFast(scratch.url, org, counts) : seed;
      await seedOne(store, other, { tickets: Math.min(tickets, 100_000), customers: 2_000 });
      await seedOne(store, organizationId, { tickets, customers: 2_000 });
      log(`  seeded ${tickets.toLocaleString('en')} tickets (and the other organization's) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    const rare = await store.db.selectFrom('customers').select('email').where('organization_id', '=', organizationId).orderBy('email').limit(1).offset(1000).executeTakeFirstOrThrow();
    app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const out = new Map<string, Figures>();
    for (const kind of KINDS) {
      const url = `${base}/v1/tickets?${kind.query({ rareEmail: rare.email })}`;
      for (let i = 0; i < WARMUP; i++) await get(agent, url, key);
      const times: number[] = [];
      const statuses = new Map<number, number>();
      for (let i = 0; i < SAMPLES; i++) {
        const t0 = performance.now();
        const status = await get(agent, url, key);
        times.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
      times.sort((a, b) => a - b);
      const rows = await rowsOf(url, key);
      out.set(kind.kind, { p50: percentile(times, 50), p95: percentile(times, 95), statuses: [...statuses].map(([s, n]) => `${s}×${n}`).join(' '), rows });
    }
    return out;
  } finally {
    agent.destroy();
    await app?.close();
    await store.close();
    await scratch?.drop();
    files.drop();
  }
}

/** Runs the search bench and prints its table. */
export async function searchBench(serverUrl: string | undefined, log: (text: string) => void): Promise<void> {
  const large = Number(process.env.BENCH_SEARCH_LARGE ?? 100_000);
  if (!Number.isSafeInteger(large) || large < 10_000) throw new Error(`BENCH_SEARCH_LARGE must be an integer of at least 10000, got ${process.env.BENCH_SEARCH_LARGE}`);
  const storeName = serverUrl ? 'PostgreSQL' : 'SQLite';
  log(`search bench on ${storeName}: 10,000 tickets...`);
  const small = await measureAt(10_000, serverUrl, log);
  log(`search bench on ${storeName}: ${large.toLocaleString('en')} tickets...`);
  const big = await measureAt(large, serverUrl, log);
  const f = (v: number) => `${v.toFixed(2)}`.padStart(8);
  const lines = [
    '',
    `Search latency by kind of term, ${storeName}, ${SAMPLES} sequential requests each after ${WARMUP} warm-up (ms; rows: tickets on the page at each size; statuses of the large run):`,
    `  ${'term'.padEnd(34)} ${'p50 10k'.padStart(8)} ${'p95 10k'.padStart(8)} ${`p50 ${large / 1000}k`.padStart(8)} ${`p95 ${large / 1000}k`.padStart(8)} ${'p95 ratio'.padStart(9)} ${'rows'.padStart(7)}  statuses`,
  ];
  for (const kind of KINDS) {
    const a = small.get(kind.kind)!;
    const b = big.get(kind.kind)!;
    lines.push(`  ${kind.kind.padEnd(34)} ${f(a.p50)} ${f(a.p95)} ${f(b.p50)} ${f(b.p95)} ${`×${(b.p95 / a.p95).toFixed(2)}`.padStart(9)} ${`${a.rows ?? '-'}/${b.rows ?? '-'}`.padStart(7)}  ${b.statuses} (10k: ${a.statuses})`);
  }
  lines.push('');
  process.stdout.write(`${lines.join('\n')}\n`);
}
