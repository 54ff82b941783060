import { readFileSync } from 'node:fs';
import { CompiledQuery, sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/db/store.js';
import { checkConditions, type ConditionField, type Conditions } from '../src/modules/views/conditions.js';
import { compileConditions } from '../src/modules/views/conditions.compile.js';
import { countTicketsQuery, viewTicketsQuery } from '../src/modules/views/views.repository.js';
import { benchEnv } from './common.js';
import { THREE, VIEWS } from './views.js';

/**
 * `node dist/bench/views-explain.js <marker.json>` (a store bench/views.ts seeded): the plan and the
 * time of each view's count, and of the 3-condition view's first page, on that store.
 */
const marker = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { dataDir: string; databaseUrl?: string };
const config = loadConfig(benchEnv(marker.dataDir, marker.databaseUrl));
const store = openStore({ dataDir: marker.dataDir, databaseUrl: config.databaseUrl, poolSize: 2, search: config.search });
const org = (await store.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow()).id;
const fields = await store.db.selectFrom('ticket_fields').select(['id', 'key', 'type', 'options']).where('organization_id', '=', org).execute();
const byKey = new Map<string, ConditionField>(fields.map((f) => [f.key, { id: f.id, type: f.type, options: f.options ? (JSON.parse(f.options) as string[]) : [] }]));
const ctx = { organizationId: org, me: null, fieldIds: new Map(fields.map((f) => [f.key, f.id])), now: new Date() };
async function explain(query: CompiledQuery): Promise<string> {
  const prefix = store.dialect === 'postgres' ? 'explain (analyze, costs off, timing off) ' : 'explain query plan ';
  const rows = (await store.db.executeQuery<Record<string, string>>(CompiledQuery.raw(prefix + query.sql, [...query.parameters]))).rows;
  return rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n    ');
}
for (const view of [...VIEWS, THREE]) {
  const where = compileConditions(checkConditions(view.conditions as Conditions, 'c', byKey), { ...ctx, semiJoin: view !== THREE && process.env.SEMI !== '0' });
  const query = view === THREE ? viewTicketsQuery(store.db, org, where, { by: 'created_at', order: 'desc' }, { limit: 100, offset: 0 }).compile() : countTicketsQuery(store.db, org, where).compile();
  const t0 = performance.now();
  await store.db.executeQuery(query);
  console.log(`${view.name}: ${(performance.now() - t0).toFixed(1)} ms\n    ${await explain(query)}`);
}
await sql`select 1`.execute(store.db);
await store.close();
