import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { postgresTicketSearch } from '../src/search/search.js';
import type { Database } from '../src/db/types.js';
import { listTicketsQuery, type TicketFilters } from '../src/modules/tickets/tickets.repository.js';
import { ticketNumberOf } from '../src/modules/tickets/tickets.service.js';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the exact statements a search runs, on a database the search bench
 * seeded and kept (BENCH_SEARCH_KEEP=1): `node dist/bench/search-explain.js <database url> <term>
 * [limit] [offset] [status] [priority]`. Prints the plan of the statement the service runs.
 */
async function main(): Promise<void> {
  const [url, text = 'refund', limit = '100', offset = '0', status, priority] = process.argv.slice(2);
  if (!url) throw new Error('usage: search-explain <database url> <term> [limit] [offset] [status] [priority]');
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    const org = await db.selectFrom('organizations').select('id').where('name', '=', 'Bench organization').executeTakeFirstOrThrow();
    const filters: TicketFilters = {
      search: { text, ticketNumber: ticketNumberOf(text), deadline: Date.now() + 60_000 },
      ...(status ? { status: status as TicketFilters['status'] } : {}),
      ...(priority ? { priority: priority as TicketFilters['priority'] } : {}),
    };
    const page = { limit: Number(limit), offset: Number(offset) };
    const query = listTicketsQuery(db, postgresTicketSearch, org.id, filters, page).compile();
    // Twice: the second run is the one to read (caches warm, as a served search's are).
    for (const run of [1, 2]) {
      const explain = CompiledQuery.raw(`explain (analyze, buffers, costs off) ${query.sql}`, [...query.parameters]);
      const rows = (await db.executeQuery<{ 'QUERY PLAN': string }>(explain)).rows.map((r) => r['QUERY PLAN']);
      if (run === 2) process.stdout.write(`${rows.join('\n')}\n`);
    }
  } finally {
    await db.destroy();
  }
}

await main();
