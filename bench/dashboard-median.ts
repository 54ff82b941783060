import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { COMMAND_TIMEOUTS, openStore } from '../src/db/store.js';
import type { Database } from '../src/db/types.js';
import { compactDashboard } from '../src/modules/dashboard/dashboard.compaction.js';
import { resolutionMsAtRanks } from '../src/modules/dashboard/dashboard.median.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { benchEnv, scratchDatabase } from './common.js';
import { seedDashboard } from './dashboard-seed.js';

/**
 * `node dist/bench/dashboard-median.js` (after `npm run build`): the dashboard's median resolution
 * time alone, from the resolution-time histogram (migration 0015) and by sorting the 30-day window
 * (the query it replaced), on the dashboard bench's seed at 10,000 and BENCH_DASHBOARD_LARGE
 * (default 1,000,000) tickets; SQLite, or a scratch database on the PostgreSQL server DATABASE_URL
 * names. Prints per call the wall time and the process's CPU time (on PostgreSQL the server's work
 * is in the wall time only), and checks both give the same value.
 */
const serverUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const sizes = [10_000, Number(process.env.BENCH_DASHBOARD_LARGE ?? 1_000_000)];
const CALLS = 100;

for (const size of sizes) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-median-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'median') : undefined;
  const config = loadConfig(benchEnv(dataDir, scratch?.url));
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: COMMAND_TIMEOUTS, search: config.search });
  try {
    await migrateToLatest(store.db);
    const org = await createOrganization(store.db, 'Median bench');
    await seedDashboard(store, org, size);
    await compactDashboard(store);
    await sql.raw(store.dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(store.db);
    const now = new Date().toISOString();
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from tickets where organization_id = ${org} and resolved_at >= ${since}`.execute(store.db);
    const n = Number(rows[0]!.n);
    const middle = Math.floor((n - 1) / 2);
    const ranks = n % 2 ? [middle] : [middle, middle + 1];
    const seconds =
      store.dialect === 'sqlite'
        ? sql`(julianday(resolved_at) - julianday(created_at)) * 86400.0`
        : sql`extract(epoch from (cast(resolved_at as timestamptz) - cast(created_at as timestamptz)))`;
    const sorting = async (db: Kysely<Database>) =>
      (await sql<{ s: number | string }>`select ${seconds} as s from tickets where organization_id = ${org} and resolved_at >= ${since} order by s limit ${ranks.length} offset ${middle}`.execute(db)).rows.map((r) =>
        Math.round(Number(r.s) * 1000),
      );
    const histogram = (db: Kysely<Database>) => resolutionMsAtRanks(db, store.dialect, org, () => [], since, now, ranks);
    const figures: string[] = [];
    let values = '';
    for (const [name, median] of [['sorting', sorting], ['histogram', histogram], ['sorting', sorting], ['histogram', histogram]] as const) {
      for (let i = 0; i < 5; i++) await store.db.transaction().execute(median);
      const cpu = process.cpuUsage();
      const started = performance.now();
      let result: number[] = [];
      for (let i = 0; i < CALLS; i++) result = await store.db.transaction().execute(median);
      const used = process.cpuUsage(cpu);
      figures.push(`${name} ${((performance.now() - started) / CALLS).toFixed(3)} ms wall, ${((used.user + used.system) / 1000 / CALLS).toFixed(3)} ms CPU`);
      if (values && values !== result.join(',')) throw new Error(`the medians differ: ${values} and ${result.join(',')}`);
      values = result.join(',');
    }
    process.stdout.write(`median, ${store.dialect}, ${size.toLocaleString('en')} tickets (${n.toLocaleString('en')} resolved in 30 days, middle ${values} ms): ${figures.join('; ')}\n`);
  } finally {
    await store.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
