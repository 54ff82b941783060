import { sql } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import type { Executor } from '../../shared/executor.js';

/**
 * The cheapest round trip the store can make: proves a connection can be had and answers, and on
 * PostgreSQL that it would accept writes. A standby (in recovery: e.g. what the service reaches
 * after a failover) and sessions read-only by default (`default_transaction_read_only`) fail with
 * 25006 read_only_sql_transaction, as a write would; the pool then discards that connection
 * (db/pg-pool.ts), so a later check gets a new one and sees the store writable again once it is
 * (a read-only session stays read-only for its whole life). SQLite's failed writes are seen by the
 * requests that make them (StoreHealth).
 */
export async function pingStore(db: Executor, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`select 1`.execute(db);
    return;
  }
  await sql`do $$ begin
    if pg_is_in_recovery() or current_setting('transaction_read_only') = 'on' then
      raise exception 'the store is read-only' using errcode = '25006';
    end if;
  end $$`.execute(db);
}
