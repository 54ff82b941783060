import { Migrator } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { listTicketsQuery } from '../modules/tickets/tickets.repository.js';
import { migrations } from './migrator.js';
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
