import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import type { DialectName } from './dialect.js';
import { sqliteTicketSearch, type TicketSearch } from './search.js';
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
}

/** Opens the store named by the configuration: SQLite in the data directory unless told otherwise. */
export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    throw new Error('DATABASE_URL names PostgreSQL, which this version does not support yet; unset it to use SQLite');
  }
  const file = options.databaseUrl?.replace(/^sqlite:(\/\/)?/, '') || join(options.dataDir, 'ticketing.sqlite');
  if (file !== ':memory:') mkdirSync(options.dataDir, { recursive: true });
  const database = new BetterSqlite3(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { db, dialect: 'sqlite', search: sqliteTicketSearch, close: () => db.destroy() };
}
