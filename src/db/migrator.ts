import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { dialectOf } from './dialect.js';
import * as m0001 from './migrations/0001_create_core_tables.js';
import * as m0002 from './migrations/0002_add_ticket_search_index.js';
import * as m0003 from './migrations/0003_create_attachment_chunks.js';
import * as m0004 from './migrations/0004_add_dashboard_indexes.js';
import * as m0006 from './migrations/0006_track_organization_storage_usage.js';
import * as m0008 from './migrations/0008_create_events_and_webhooks.js';
import * as m0009 from './migrations/0009_partition_ticket_search_by_organization.js';
import * as m0010 from './migrations/0010_create_idempotency_keys.js';
import * as m0011 from './migrations/0011_add_updated_since_indexes.js';
import * as m0012 from './migrations/0012_create_dashboard_counters.js';
import * as m0013 from './migrations/0013_drop_dashboard_scan_indexes.js';
import * as m0014 from './migrations/0014_partition_postgres_search_by_organization.js';
import * as m0015 from './migrations/0015_add_resolution_time_histogram.js';
import * as m0017 from './migrations/0017_add_word_pairs_to_postgres_search_keys.js';
import * as m0018 from './migrations/0018_add_word_pairs_to_sqlite_search.js';
import * as m0019 from './migrations/0019_batch_postgres_search_index_inserts.js';
import * as m0020 from './migrations/0020_keep_credentials_out_of_events.js';
import * as m0021 from './migrations/0021_keep_webhook_response_bodies.js';
import * as m0022 from './migrations/0022_add_user_passwords_and_sessions.js';
import * as m0023 from './migrations/0023_add_ticket_tags.js';
import * as m0024 from './migrations/0024_create_ticket_fields.js';
import * as m0025 from './migrations/0025_create_mailboxes.js';
import * as m0026 from './migrations/0026_add_email_channel.js';
import * as m0027 from './migrations/0027_create_mail_outbox.js';
import * as m0028 from './migrations/0028_track_customer_email_bounces.js';
import * as m0029 from './migrations/0029_track_imap_mailboxes.js';
import * as m0030 from './migrations/0030_create_views.js';
import * as m0031 from './migrations/0031_create_macros.js';
import * as m0032 from './migrations/0032_create_bulk_jobs.js';
import * as m0033 from './migrations/0033_create_business_hours.js';
import * as m0034 from './migrations/0034_add_sla_policies.js';
import * as m0035 from './migrations/0035_create_triggers_and_automations.js';
import * as m0036 from './migrations/0036_link_comment_attachments.js';
import * as m0037 from './migrations/0037_index_runs_and_jobs_by_age.js';
import * as m0038 from './migrations/0038_add_view_count_indexes.js';
import type { Database } from './types.js';

/** Every migration, in order. A static list, so the compiled CLI and the tests see the same set. */
export const migrations: Record<string, Migration> = {
  '0001_create_core_tables': m0001,
  '0002_add_ticket_search_index': m0002,
  '0003_create_attachment_chunks': m0003,
  '0004_add_dashboard_indexes': m0004,
  '0006_track_organization_storage_usage': m0006,
  '0008_create_events_and_webhooks': m0008,
  '0009_partition_ticket_search_by_organization': m0009,
  '0010_create_idempotency_keys': m0010,
  '0011_add_updated_since_indexes': m0011,
  '0012_create_dashboard_counters': m0012,
  '0013_drop_dashboard_scan_indexes': m0013,
  '0014_partition_postgres_search_by_organization': m0014,
  '0015_add_resolution_time_histogram': m0015,
  '0017_add_word_pairs_to_postgres_search_keys': m0017,
  '0018_add_word_pairs_to_sqlite_search': m0018,
  '0019_batch_postgres_search_index_inserts': m0019,
  '0020_keep_credentials_out_of_events': m0020,
  '0021_keep_webhook_response_bodies': m0021,
  '0022_add_user_passwords_and_sessions': m0022,
  '0023_add_ticket_tags': m0023,
  '0024_create_ticket_fields': m0024,
  '0025_create_mailboxes': m0025,
  '0026_add_email_channel': m0026,
  '0027_create_mail_outbox': m0027,
  '0028_track_customer_email_bounces': m0028,
  '0029_track_imap_mailboxes': m0029,
  '0030_create_views': m0030,
  '0031_create_macros': m0031,
  '0032_create_bulk_jobs': m0032,
  '0033_create_business_hours': m0033,
  '0034_add_sla_policies': m0034,
  '0035_create_triggers_and_automations': m0035,
  '0036_link_comment_attachments': m0036,
  '0037_index_runs_and_jobs_by_age': m0037,
  '0038_add_view_count_indexes': m0038,
};

/** How long a process waits for another one's SQLite migrations before giving up. */
const SQLITE_MIGRATION_WAIT_MS = 120_000;

/**
 * Brings the schema up to date; throws if a migration fails. Returns the names applied. Safe when
 * several processes start at once on the same store: one migrates, the others wait for it and
 * then find nothing left to do (PostgreSQL: Kysely's advisory lock; SQLite: see migrateSqlite).
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const result = dialectOf(db) === 'sqlite' ? await migrateSqlite(db) : await migrator(db).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${result.error instanceof Error ? result.error.message : 'unknown error'}`);
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

function migrator(db: Kysely<Database>, options: { disableTransactions?: boolean } = {}): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) }, ...options });
}

const isBusy = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
};

/**
 * Kysely takes no lock on SQLite (it counts on a single connection), so two processes starting on
 * an empty data directory raced: both saw no migration table, and one failed with "table already
 * exists" or "database is locked" (a read transaction cannot become a write transaction once
 * another connection has written). Here the whole run — creating Kysely's own tables, reading what
 * was applied, applying the rest — is one transaction that takes SQLite's write lock with its first
 * statement (`BEGIN IMMEDIATE`): another process waits for it (the busy timeout, then again here)
 * and then reads an up-to-date schema. SQLite's locks are released by the operating system when a
 * process dies, so a crashed migration never leaves a stale lock. DDL is transactional in SQLite:
 * a failed run leaves nothing behind.
 */
async function migrateSqlite(db: Kysely<Database>): Promise<MigrationResultSet> {
  const deadline = Date.now() + SQLITE_MIGRATION_WAIT_MS;
  for (;;) {
    try {
      return await db.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection);
        let result: MigrationResultSet;
        try {
          result = await migrator(connection, { disableTransactions: true }).migrateToLatest();
        } catch (error) {
          await sql`rollback`.execute(connection);
          throw error;
        }
        await sql.raw(result.error ? 'rollback' : 'commit').execute(connection);
        return result;
      });
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await sleep(50 + Math.random() * 100);
    }
  }
}
