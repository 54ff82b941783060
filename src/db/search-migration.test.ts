import { Migrator, sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { listTicketsQuery } from '../modules/tickets/tickets.repository.js';
import { migrations } from './migrator.js';
import { rowPairs } from '../search/search-pairs.js';
import { openStore } from './store.js';

/**
 * SQLite: migration 0009 fills the partitioned search index from the tickets already stored, its
 * triggers keep it in step (a customer renamed), and it goes down to 0002's index and up again.
 */
it('migration 0009 indexes existing tickets, follows a rename, and goes down and up again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ticketing-search-migration-'));
  const store = openStore({ dataDir: dir });
  try {
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    expect((await migrator.migrateTo('0008_create_events_and_webhooks')).error).toBeUndefined();
    const now = new Date().toISOString();
    await store.db.insertInto('organizations').values({ id: 'o1', name: 'O', ticket_counter: 7, created_at: now }).execute();
    await store.db
      .insertInto('customers')
      .values({ id: 'c1', organization_id: 'o1', name: 'Zed Name', email: 'zed@x.io', email_normalized: 'zed@x.io', has_premium_support: 0, is_vip: 0, created_at: now, updated_at: now })
      .execute();
    await store.db
      .insertInto('tickets')
      .values({ id: 't1', organization_id: 'o1', ticket_number: 7, tracking_token: 'tk', customer_id: 'c1', subject: 'Hello printer', description: 'd', status: 'open', priority: 'low', created_at: now, updated_at: now })
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const found = async (text: string) =>
      (await listTicketsQuery(store.db, store.search, 'o1', { search: { text, ticketNumber: null, deadline: Date.now() + 5_000 } }, { limit: 10, offset: 0 }).execute()).map((r) => r.id);
    expect(await found('printer')).toEqual(['t1']);
    expect(await found('zed name')).toEqual(['t1']);
    await store.db.updateTable('customers').set({ name: 'Other Person' }).where('id', '=', 'c1').execute();
    expect(await found('zed name')).toEqual([]);
    expect(await found('other pers')).toEqual(['t1']);
    expect((await migrator.migrateTo('0008_create_events_and_webhooks')).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await found('other pers')).toEqual(['t1']);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * SQLite: migration 0018 counts the word pairs of the texts already stored, its triggers keep the
 * counts in step with later writes, and it goes down (no table, no trigger: writes need no
 * function) and up again (counting what was written meanwhile).
 */
it('migration 0018 counts the pairs of existing texts, follows writes, and goes down and up again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ticketing-search-migration-'));
  const store = openStore({ dataDir: dir });
  try {
    const migrator = new Migrator({ db: store.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    expect((await migrator.migrateTo('0017_add_word_pairs_to_postgres_search_keys')).error).toBeUndefined();
    const now = new Date().toISOString();
    const sentence = 'Please process a refund for last month. ';
    await store.db.insertInto('organizations').values({ id: 'o1', name: 'O', ticket_counter: 0, created_at: now }).execute();
    await store.db
      .insertInto('customers')
      .values({ id: 'c1', organization_id: 'o1', name: 'Zed Name', email: 'zed.name@x.io', email_normalized: 'zed.name@x.io', has_premium_support: 0, is_vip: 0, created_at: now, updated_at: now })
      .execute();
    const ticket = (n: number, description: string) =>
      store.db
        .insertInto('tickets')
        .values({ id: `t${n}`, organization_id: 'o1', ticket_number: n, tracking_token: `tk${n}`, customer_id: 'c1', subject: 'Refund', description, status: 'open', priority: 'low', created_at: now, updated_at: now })
        .execute();
    await ticket(1, `${sentence}Thanks!`);
    await ticket(2, sentence.repeat(2));
    const stored = async () =>
      (await sql<{ pair: number; n: number }>`select pair, n from ticket_search_pairs order by pair`.execute(store.db)).rows.map((r) => [r.pair, r.n]);
    const recounted = async () => {
      const counts = new Map<number, number>();
      const rows = [
        ...(await store.db.selectFrom('tickets').select(['subject as a', 'description as b']).execute()),
        ...(await store.db.selectFrom('customers').select(['name as a', 'email as b']).execute()),
      ];
      for (const row of rows) for (const pair of rowPairs(row.a, row.b)) counts.set(pair, (counts.get(pair) ?? 0) + 1);
      return [...counts].sort(([a], [b]) => a - b);
    };
    const found = async (text: string) =>
      (await listTicketsQuery(store.db, store.search, 'o1', { search: { text, ticketNumber: null, deadline: Date.now() + 5_000 } }, { limit: 10, offset: 0 }).execute()).map((r) => r.id);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await stored()).toEqual(await recounted());
    expect((await stored()).find(([pair]) => pair === [...rowPairs('month please')][0])?.[1]).toBe(1);
    expect(await found(sentence.repeat(3))).toEqual([]);
    await ticket(3, sentence.repeat(3));
    expect(await found(sentence.repeat(3))).toEqual(['t3']);
    await store.db.updateTable('tickets').set({ description: 'Nothing here' }).where('id', '=', 't2').execute();
    await store.db.updateTable('customers').set({ email: 'other.person@x.io' }).where('id', '=', 'c1').execute();
    expect(await stored()).toEqual(await recounted());
    expect((await migrator.migrateTo('0017_add_word_pairs_to_postgres_search_keys')).error).toBeUndefined();
    const left = await sql<{ name: string }>`select name from sqlite_master where name like '%search_pairs%'`.execute(store.db);
    expect(left.rows).toEqual([]);
    await ticket(4, sentence.repeat(3));
    await store.db.deleteFrom('tickets').where('id', '=', 't3').execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    expect(await stored()).toEqual(await recounted());
    expect(await found(sentence.repeat(3))).toEqual(['t4']);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
