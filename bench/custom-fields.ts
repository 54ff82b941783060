import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { listTicketsQuery } from '../src/modules/tickets/tickets.repository.js';
import { benchEnv, percentile, scratchDatabase } from './common.js';

/**
 * `node dist/bench/custom-fields.js` (after `npm run build`): how long a page of
 * `GET /v1/tickets?custom_fields[plan]=<value>` takes to read, through the value table
 * (ticket_field_values, what the list uses), for a rare value (1 ticket in 1,000) and a common
 * one (1 in 2), on an organization of BENCH_TICKETS tickets (default 50,000). With DATABASE_URL
 * naming PostgreSQL (a scratch database), also the alternative: the ticket's custom_fields as
 * jsonb with a GIN index (jsonb_path_ops), `@>` newest first.
 */
const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;
const TICKETS = Number(process.env.BENCH_TICKETS ?? 50_000);
const RUNS = 30;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'fields') : undefined;
  const config = loadConfig(benchEnv(dataDir, scratch?.url));
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
  try {
    await migrateToLatest(store.db);
    const org = await createOrganization(store.db, 'Bench organization');
    const now = new Date().toISOString();
    const customer = randomUUID();
    await store.db
      .insertInto('customers')
      .values({ id: customer, organization_id: org, name: 'C', email: 'c@x.io', email_normalized: 'c@x.io', has_premium_support: 0, is_vip: 0, created_at: now, updated_at: now })
      .execute();
    const field = randomUUID();
    await store.db.insertInto('ticket_fields').values({ id: field, organization_id: org, key: 'plan', label: 'Plan', type: 'text', options: null, required: 0, created_at: now, updated_at: now }).execute();
    const planOf = (i: number) => (i % 1000 === 0 ? 'rare' : i % 2 === 0 ? 'common' : 'other');
    for (let start = 0; start < TICKETS; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, TICKETS - start) }, (_, j) => {
        const i = start + j;
        return {
          id: randomUUID(), organization_id: org, ticket_number: i + 1, tracking_token: randomUUID(), customer_id: customer,
          subject: `s ${i}`, description: 'd', status: 'new' as const, priority: 'low' as const, category: null, created_at: now, updated_at: now,
          custom_fields: JSON.stringify({ plan: planOf(i) }),
        };
      });
      await store.db.insertInto('tickets').values(rows).execute();
      await store.db
        .insertInto('ticket_field_values')
        .values(rows.map((r, j) => ({ id: randomUUID(), organization_id: org, field_id: field, ticket_id: r.id, ticket_number: r.ticket_number, value_text: planOf(start + j), value_number: null })))
        .execute();
    }
    await sql`analyze`.execute(store.db);
    const time = async (run: () => Promise<unknown>): Promise<string> => {
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = process.hrtime.bigint();
        await run();
        ms.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      ms.sort((a, b) => a - b);
      return `median ${percentile(ms, 50).toFixed(2)} ms, p90 ${percentile(ms, 90).toFixed(2)} ms`;
    };
    const page = { limit: 25, offset: 0 };
    const label = scratch ? 'PostgreSQL' : 'SQLite';
    for (const value of ['rare', 'common']) {
      const query = listTicketsQuery(store.db, store.search, org, { customFields: [{ fieldId: field, value: { text: value } }] }, page);
      console.log(`${label}, ${TICKETS} tickets, custom_fields[plan]=${value}, value table: ${await time(() => query.execute())}`);
    }
    if (scratch) {
      await sql`create index tickets_custom_fields_gin on tickets using gin ((custom_fields::jsonb) jsonb_path_ops)`.execute(store.db);
      await sql`analyze tickets`.execute(store.db);
      for (const value of ['rare', 'common']) {
        const probe = JSON.stringify({ plan: value });
        const run = () =>
          sql`select id from tickets where organization_id = ${org} and custom_fields::jsonb @> ${probe}::jsonb order by ticket_number desc limit 25`.execute(store.db);
        console.log(`${label}, ${TICKETS} tickets, custom_fields[plan]=${value}, jsonb + GIN: ${await time(run)}`);
      }
    }
  } finally {
    await store.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
