import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { isPostgresUrl, type DialectName } from './dialect.js';
import { withStatementCache } from './sqlite-statements.js';
import { postgresTicketSearch, sqliteTicketSearch, type TicketSearch } from './search.js';
import type { Database } from './types.js';

/** The store: a Kysely instance plus the few pieces that differ between dialects. */
export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  search: TicketSearch;
  close(): Promise<void>;
}

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Connections in the PostgreSQL pool (default 10); SQLite has one connection. */
  poolSize?: number | undefined;
}

/** Opens the store named by the configuration: SQLite in the data directory unless told otherwise. */
export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl && isPostgresUrl(options.databaseUrl)) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  const file = options.databaseUrl?.replace(/^sqlite:(\/\/)?/, '') || join(options.dataDir, 'ticketing.sqlite');
  if (file !== ':memory:') mkdirSync(options.dataDir, { recursive: true });
  const database = new BetterSqlite3(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  return { db, dialect: 'sqlite', search: sqliteTicketSearch, close: () => db.destroy() };
}

const INT8_OID = 20;

/**
 * node-postgres hands back `bigint` (int8) columns and `count(*)` as strings, since they can exceed
 * 2^53. Every int8 here (ticket numbers, counters, sizes, cents, counts) stays far below that, and
 * the code expects numbers exactly as SQLite gives them, so they are parsed to numbers; a value
 * that would lose precision is an error rather than a silently wrong number.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is beyond the safe integer range`);
  return value;
}

const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown =>
    oid === INT8_OID && format !== 'binary' ? parseInt8 : (pg.types.getTypeParser(oid, format) as unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * PostgreSQL through a `pg` pool. Timestamps are text columns holding the same ISO 8601 strings as
 * on SQLite (see the migrations), so rows, and therefore responses, are identical on both stores.
 * The parsers are set on this pool only, not globally on the `pg` module.
 */
function openPostgres(connectionString: string, poolSize: number): Store {
  const pool = new pg.Pool({ connectionString, max: poolSize, types: typeParsers, application_name: 'ticketing' });
  // An idle connection that the server drops (restart, failover) emits 'error' on the pool; without
  // a listener that would crash the process. The pool discards that connection and opens another.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', search: postgresTicketSearch, close: () => db.destroy() };
}
