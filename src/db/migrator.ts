import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import * as m0001 from './migrations/0001_create_core_tables.js';
import * as m0002 from './migrations/0002_add_ticket_search_index.js';
import * as m0003 from './migrations/0003_create_attachment_chunks.js';
import * as m0004 from './migrations/0004_add_dashboard_indexes.js';
import type { Database } from './types.js';

/** Every migration, in order. A static list, so the compiled CLI and the tests see the same set. */
const migrations: Record<string, Migration> = {
  '0001_create_core_tables': m0001,
  '0002_add_ticket_search_index': m0002,
  '0003_create_attachment_chunks': m0003,
  '0004_add_dashboard_indexes': m0004,
};

/** Brings the schema up to date; throws if a migration fails. Returns the names applied. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${result.error instanceof Error ? result.error.message : 'unknown error'}`);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
