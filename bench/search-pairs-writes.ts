import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { migrations } from '../src/db/migrator.js';
import { openStore, type Store } from '../src/db/store.js';
import { AREAS, DETAILS, FIRST, LAST, OPENERS, PROBLEMS, random } from './seed.js';

/**
 * SQLite: what the word pairs' triggers (migration 0018) cost a write, in CPU of this process per
 * ticket written, each write its own transaction: `node dist/bench/search-pairs-writes.js [tickets
 * per round] [rounds]`. One store, the schema with 0018 and without it (migrated down to 0017) in
 * turn, each round on top of the tickets already there; texts like the creates bench's (4 pairs),
 * the search bench's (about 30 pairs a ticket, few distinct ones) and, as a worst case, from a vocabulary of 50,000 made-up
 * words (nearly every pair new: a count row inserted). Prints the size of the pair counts too.
 */
const PER_ROUND = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 3);

const rnd = random(7);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
const VOCABULARY = Array.from({ length: 50_000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`);

let created = 0;
// What `node dist/bench/creates.js` writes (bench/client.ts).
const createsText = () => ({ subject: `Created by the bench ${++created}`, description: 'Load' });
const benchText = () => ({
  subject: `${pick(AREAS)} ${pick(PROBLEMS)}`,
  description: `${pick(OPENERS)} the ${pick(AREAS)} ${pick(PROBLEMS)}. ${pick(DETAILS)} ${pick(DETAILS)}`,
});
const wideText = () => ({
  subject: Array.from({ length: 6 }, () => pick(VOCABULARY)).join(' '),
  description: Array.from({ length: 30 }, () => pick(VOCABULARY)).join(' '),
});

async function writeRound(store: Store, organizationId: string, customerId: string, start: number, text: () => { subject: string; description: string }): Promise<{ insert: number; patch: number }> {
  const now = new Date().toISOString();
  const ids: string[] = [];
  const t0 = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) {
    const id = randomUUID();
    ids.push(id);
    const n = start + i;
    await store.db.transaction().execute((trx) =>
      trx
        .insertInto('tickets')
        .values({ id, organization_id: organizationId, ticket_number: n, tracking_token: `tk${n}`, customer_id: customerId, ...text(), status: 'open', priority: 'low', created_at: now, updated_at: now })
        .execute(),
    );
  }
  const inserted = process.cpuUsage(t0);
  const t1 = process.cpuUsage();
  for (const id of ids) {
    await store.db.transaction().execute((trx) => trx.updateTable('tickets').set({ description: text().description }).where('id', '=', id).execute());
  }
  const patched = process.cpuUsage(t1);
  return { insert: (inserted.user + inserted.system) / PER_ROUND, patch: (patched.user + patched.system) / PER_ROUND };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-pairs-'));
  const store = openStore({ dataDir });
  try {
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const check = (r: { error?: unknown }) => {
      if (r.error) throw r.error instanceof Error ? r.error : new Error('migration failed');
    };
    check(await migrator.migrateToLatest());
    const now = new Date().toISOString();
    const organizationId = randomUUID();
    await store.db.insertInto('organizations').values({ id: organizationId, name: 'Bench', ticket_counter: 0, created_at: now }).execute();
    const customerId = randomUUID();
    const email = `${pick(FIRST)}.${pick(LAST)}@example.com`.toLowerCase();
    await store.db.insertInto('customers').values({ id: customerId, organization_id: organizationId, name: 'Bench Customer', email, email_normalized: email, has_premium_support: 0, is_vip: 0, created_at: now, updated_at: now }).execute();
    let next = 1;
    const kinds = [['creates bench texts', createsText], ['search bench texts', benchText], ['50,000-word vocabulary', wideText]] as const;
    for (const [name, text] of kinds) {
      const figures: Record<'with' | 'without', { insert: number[]; patch: number[] }> = { with: { insert: [], patch: [] }, without: { insert: [], patch: [] } };
      for (let round = 0; round < ROUNDS; round++) {
        for (const variant of ['without', 'with'] as const) {
          check(variant === 'with' ? await migrator.migrateToLatest() : await migrator.migrateTo('0017_add_word_pairs_to_postgres_search_keys'));
          const r = await writeRound(store, organizationId, customerId, next, text);
          next += PER_ROUND;
          figures[variant].insert.push(r.insert);
          figures[variant].patch.push(r.patch);
        }
      }
      check(await migrator.migrateToLatest());
      const f = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
      process.stdout.write(
        `${name}: CPU per insert (µs) without 0018 ${f(figures.without.insert)}, with ${f(figures.with.insert)}; ` +
          `per description patch without ${f(figures.without.patch)}, with ${f(figures.with.patch)} (${next - 1} tickets; load ${loadavg()[0]!.toFixed(2)})\n`,
      );
    }
    const { rows } = await sql<{ n: number }>`select count(*) as n from ticket_search_pairs`.execute(store.db);
    const n = rows[0]!.n;
    process.stdout.write(`pair counts: ${n} rows for ${next - 1} tickets\n`);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
