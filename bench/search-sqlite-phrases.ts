import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { join } from 'node:path';
import { probePieces, searchContains, sqliteTicketSearch } from '../src/search/search.js';
import { termPairs } from '../src/search/search-pairs.js';
import type { Database } from '../src/db/types.js';
import { listTicketsQuery } from '../src/modules/tickets/tickets.repository.js';
import { percentile } from './common.js';

/**
 * SQLite: what a search's statement and its index lookups cost alone, on a data directory the
 * search bench seeded and kept (BENCH_SEARCH_KEEP=1), read-only:
 * `node dist/bench/search-sqlite-phrases.js <data dir> <term> [runs]`. Prints the statement's
 * median and p95 and CPU per run, then the lookup of the term's inner word pairs (migration 0018:
 * how many are in the organization's counts), then each probe (`probePieces`) newest first stopping at its first
 * match in the organization's range, and how many of the organization's entries hold it; with
 * `BENCH_TRIGRAMS=1`, also the rarest of the term's trigrams (the fewest entries any lookup of the
 * term must step over: an absent phrase is sought position by position in every entry holding all
 * its trigrams).
 */
const S = 2 ** 40;

function timed(runs: number, run: () => unknown): { median: number; p95: number; cpu: number } {
  for (let i = 0; i < 10; i++) run();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95), cpu: (used.user + used.system) / runs / 1000 };
}

const ms = (v: number) => `${v.toFixed(3)} ms`;

function main(): void {
  const [dir, text = 'Please process a refund for last month. '.repeat(3), runsArg = '200'] = process.argv.slice(2);
  if (!dir) throw new Error('usage: search-sqlite-phrases <data dir> [term] [runs]');
  const runs = Number(runsArg);
  const raw = new BetterSqlite3(join(dir, 'ticketing.sqlite'), { readonly: true, fileMustExist: true });
  raw.function('search_contains', { deterministic: false }, searchContains);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  const org = raw.prepare('select id from organizations where name = ?').get(process.env.BENCH_ORGANIZATION ?? 'Bench organization') as { id: string };
  const { key } = raw.prepare('select key from ticket_search_organizations where organization_id = ?').get(org.id) as { key: number };
  // As integers (BigInt), as the statement computes them: a JavaScript number is bound as a REAL.
  const [lo, hi] = [BigInt(key) * BigInt(S), BigInt(key) * BigInt(S) + BigInt(S)];
  const query = listTicketsQuery(db, sqliteTicketSearch, org.id, { search: { text, ticketNumber: null, deadline: Date.now() + 3_600_000 } }, { limit: 100, offset: 0 }).compile();
  const statement = raw.prepare(query.sql);
  const rows = statement.all(...query.parameters).length;
  const whole = timed(runs, () => statement.all(...query.parameters));
  process.stdout.write(`statement: ${rows} rows, median ${ms(whole.median)}, p95 ${ms(whole.p95)}, cpu ${ms(whole.cpu)} per run\n`);
  const pairs = termPairs(text.toLowerCase());
  if (pairs.length > 0) {
    const lookup = raw.prepare('select count(*) as n from ticket_search_pairs where organization_key = ? and pair in (select value from json_each(?))');
    const list = JSON.stringify(pairs);
    const t = timed(runs, () => lookup.get(key, list));
    const { n } = lookup.get(key, list) as { n: number };
    process.stdout.write(`word pairs: ${n} of ${pairs.length} in the organization, median ${ms(t.median)}, cpu ${ms(t.cpu)}\n`);
  }
  const probe = raw.prepare('select rowid from ticket_search where ticket_search match ? and rowid >= ? and rowid < ? order by rowid desc limit 1');
  const count = raw.prepare('select count(*) as n from ticket_search where ticket_search match ? and rowid >= ? and rowid < ?');
  const quoted = (phrase: string) => `"${phrase.replace(/"/g, '""')}"`;
  for (const phrase of probePieces(text)) {
    const t = timed(runs, () => probe.all(quoted(phrase), lo, hi));
    const { n } = count.get(quoted(phrase), lo, hi) as { n: number };
    process.stdout.write(`probe ${JSON.stringify(phrase)}: ${n} entries, median ${ms(t.median)}, cpu ${ms(t.cpu)}\n`);
  }
  if (process.env.BENCH_TRIGRAMS === '1') {
    const folded = [...text.toLowerCase()];
    const trigrams = [...new Set(folded.slice(2).map((_, i) => folded.slice(i, i + 3).join('')))];
    const counts = trigrams.map((t) => ({ t, n: (count.get(quoted(t), lo, hi) as { n: number }).n })).sort((a, b) => a.n - b.n);
    const all = (count.get(trigrams.map(quoted).join(' AND '), lo, hi) as { n: number }).n;
    process.stdout.write(`${trigrams.length} trigrams, the rarest: ${counts.slice(0, 6).map(({ t, n }) => `${JSON.stringify(t)} ${n}`).join(', ')}; entries holding all of them: ${all}\n`);
  }
  raw.close();
}

main();
