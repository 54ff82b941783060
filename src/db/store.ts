import BetterSqlite3 from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { isPostgresUrl, type DialectName } from './dialect.js';
import { resilientPool, type PoolStats, type PoolWatch } from './pg-pool.js';
import { MAIN_CONNECTION_CHECKPOINT_PAGES, startCheckpointer } from './sqlite-checkpointer.js';
import { withStatementCache } from './sqlite-statements.js';
import { postgresTicketSearch, searchContains, sqliteTicketSearch, type TicketSearch } from '../search/search.js';
import { registerSearchPairs } from '../search/search-pairs.js';
import {
  DEFAULT_SEARCH_OPTIONS,
  mainThreadSearchRunner,
  postgresSearchRunner,
  sqliteSearchRunner,
  type SearchOptions,
  type SearchRunner,
} from '../search/search-runner.js';
import { StoreHealth } from './store-health.js';
import type { Database } from './types.js';

/** The store: a Kysely instance plus the few pieces that differ between dialects. */
export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  search: TicketSearch;
  /** Where searches run: bounded in time, in number and per organization (search-runner.ts). */
  searches: SearchRunner;
  /** The SQLite file (null on PostgreSQL or in memory): readiness checks the space left beside it. */
  file: string | null;
  /** Write failures seen by requests, for the readiness check. */
  health: StoreHealth;
  /**
   * A number that changes whenever any connection, in any process, may have changed an API key's
   * validity (revoked, expiry, scopes, deleted), read without a query round trip: the key cache's
   * freshness check (src/auth/key-cache.ts). Null where no such cheap signal exists (PostgreSQL):
   * keys are then read from the store on every request.
   */
  apiKeysVersion: (() => number) | null;
  /**
   * SQLite: statements that read `apiKeysVersion` in their own read transaction, so a cached key's
   * freshness and the record a request answers with are one read (the version alone cost a quarter
   * of a primary-key read). Null where apiKeysVersion is.
   */
  versionedReads: VersionedReads | null;
  /** PostgreSQL: the connection pool's figures, for the metrics. Null on SQLite (one connection, no pool). */
  pool: PoolStats | null;
  close(): Promise<void>;
}

/** A synchronous statement that also reads the API keys' version (Store.versionedReads). */
export type VersionedStatement = (...parameters: unknown[]) => { version: number; row: unknown[] | undefined };

export interface VersionedReads {
  /**
   * Prepares `select <columns> from <table> t ...` (SQLite; the table aliased `t`, its join
   * condition in place of `...`, at most one row, whose first column is never null) to run as one
   * statement with the version: `row` is the selected columns as an array, or undefined when
   * nothing matched; `version` is apiKeysVersion as of the same read transaction.
   */
  prepare(columns: readonly string[], table: string, on: string): VersionedStatement;
  /**
   * Runs `reads` (calls of prepared versioned statements) in one read transaction, so they share
   * one snapshot (one version) and one transaction start (a lone read needs no group: its
   * statement is its own transaction).
   */
  group<T>(reads: () => T): T;
  /** Read transactions the versioned statements ran in, the reads they answered, the largest group. */
  readonly stats: VersionedReadStats;
}

export interface VersionedReadStats {
  transactions: number;
  reads: number;
  largest: number;
}

/**
 * Bounds on every wait for PostgreSQL (docs/operations.md#timeouts); 0 means no bound. SQLite waits
 * only for its write lock, at most `SQLITE_BUSY_TIMEOUT_MS`.
 */
export interface StoreTimeouts {
  /** Longest wait for a new connection to be opened (a server that is down or silent). */
  connectMs: number;
  /**
   * Longest wait for a connection of the pool when all are in use (a burst larger than the pool,
   * or connections stuck on a silent server). Longer than `connectMs`: a busy but healthy store
   * should queue a burst, not refuse it.
   */
  poolMs: number;
  /** The server cancels a statement running longer (`statement_timeout`). */
  statementMs: number;
  /**
   * The client stops waiting for an answer after this and discards the connection: a server or
   * network that went silent. Above `statementMs`, so a slow statement is cancelled by the server
   * first and its connection kept.
   */
  queryMs: number;
  /** The server ends a session left idle inside a transaction longer (`idle_in_transaction_session_timeout`). */
  idleInTransactionMs: number;
  /** TCP keepalive probes start after a connection has been idle this long, so a dead peer is noticed. */
  keepAliveMs: number;
}

/** No bound on statements (one-shot commands: migrations, export, import); connections still bounded. */
export const COMMAND_TIMEOUTS: StoreTimeouts = { connectMs: 10_000, poolMs: 0, statementMs: 0, queryMs: 0, idleInTransactionMs: 0, keepAliveMs: 10_000 };

/** How long a SQLite statement waits for another connection's write lock before failing SQLITE_BUSY (then 503). */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** Connections in the PostgreSQL pool (default 10); SQLite has one connection. */
  poolSize?: number | undefined;
  /** PostgreSQL timeouts (default: COMMAND_TIMEOUTS); the server passes the configured ones. */
  timeouts?: StoreTimeouts | undefined;
  /** How searches run (default: DEFAULT_SEARCH_OPTIONS); the server passes the configured ones. */
  search?: SearchOptions | undefined;
}

/** Opens the store named by the configuration: SQLite in the data directory unless told otherwise. */
export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl && isPostgresUrl(options.databaseUrl)) {
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.timeouts ?? COMMAND_TIMEOUTS, options.search ?? DEFAULT_SEARCH_OPTIONS);
  }
  const file = options.databaseUrl?.replace(/^sqlite:(\/\/)?/, '') || join(options.dataDir, 'ticketing.sqlite');
  if (file !== ':memory:') mkdirSync(options.dataDir, { recursive: true });
  const database = new BetterSqlite3(file);
  // First, so that the pragmas below wait for a process that is creating the same file right now.
  database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // Statement journals (and sorts) in memory, not in temporary files: each write statement of a
  // create wrote its journal to a file, the most system calls of a create after the log's own.
  database.pragma('temp_store = MEMORY');
  // PostgreSQL's name, so set-based SQL that makes records (events of a cascade) is the same on both.
  database.function('gen_random_uuid', { deterministic: false }, () => randomUUID());
  // The search's text test (search.ts); the worker threads' connections register the same.
  database.function('search_contains', { deterministic: false }, searchContains);
  // What the word pairs' triggers call on every write of a ticket's or customer's text (0018).
  registerSearchPairs(database);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  const path = file === ':memory:' ? null : resolve(file);
  // Checkpoints on a worker thread, not inside the commits of the main connection (sqlite-checkpointer.ts).
  const checkpointer = path ? startCheckpointer(path) : undefined;
  if (checkpointer) database.pragma(`wal_autocheckpoint = ${MAIN_CONNECTION_CHECKPOINT_PAGES}`);
  const searchOptions = options.search ?? DEFAULT_SEARCH_OPTIONS;
  // Worker threads need a file to open; an in-memory store searches on the main thread.
  const searches =
    path && searchOptions.concurrency > 0
      ? sqliteSearchRunner(path, searchOptions, SQLITE_BUSY_TIMEOUT_MS)
      : mainThreadSearchRunner(db, searchOptions);
  const close = async () => {
    await searches.close();
    await checkpointer?.stop();
    await db.destroy();
  };
  const versions = sqliteApiKeysVersion(database);
  return {
    db,
    dialect: 'sqlite',
    search: sqliteTicketSearch,
    searches,
    file: path,
    health: new StoreHealth(),
    apiKeysVersion: versions.current,
    versionedReads: versions.reads,
    pool: null,
    close,
  };
}

/** The columns whose change can make a key refused or change what it may do (not last_used_at). */
const KEY_VALIDITY_COLUMNS = 'revoked_at, expires_at, scopes, role, organization_id, key_hash, holder_user_id';

/**
 * The API keys' version on SQLite, two signals in one number:
 *
 * - `PRAGMA data_version` changes whenever another connection (another process, `ticketing keys
 *   revoke`) commits anything to the file; read through a prepared statement, it costs no I/O.
 * - temporary triggers on this connection count its own changes to keys (a revoke through the API,
 *   a user's keys revoked with them, a cascade), which data_version does not report. They fire
 *   inside the changing statement, so before its commit: the cache forgets the key at once.
 *
 * The triggers are created on first use (the store is opened before it is migrated); until they
 * exist, and if they cannot be created, every read is a new version, so nothing is ever cached.
 */
function sqliteApiKeysVersion(database: BetterSqlite3.Database): { current: () => number; reads: VersionedReads } {
  let version = 0;
  let lastDataVersion: unknown = null;
  let installed = false;
  database.function('ticketing_api_keys_changed', { deterministic: false }, () => {
    version++;
    return null;
  });
  const dataVersion = database.prepare('pragma data_version').pluck();
  const install = () => {
    try {
      database.exec(`
        create temp trigger if not exists ticketing_api_keys_updated after update of ${KEY_VALIDITY_COLUMNS} on main.api_keys
        begin select ticketing_api_keys_changed(); end;
        create temp trigger if not exists ticketing_api_keys_deleted after delete on main.api_keys
        begin select ticketing_api_keys_changed(); end;`);
      installed = true;
    } catch {
      // Not migrated yet: try again next time.
    }
  };
  /** The version given data_version as just read (`read` reads it, unless the triggers are missing). */
  const versionAt = (read: () => unknown): number => {
    if (!installed) {
      install();
      if (!installed) return ++version;
    }
    const current = read();
    if (current !== lastDataVersion) {
      lastDataVersion = current;
      version++;
    }
    return version;
  };
  const readDataVersion = () => dataVersion.get();
  const stats: VersionedReadStats = { transactions: 0, reads: 0, largest: 0 };
  /** Reads so far in the group being run (null outside a group). */
  let grouped: number | null = null;
  // Deferred: the read transaction starts at the group's first read. Inside a transaction already
  // open on this connection, better-sqlite3 makes it a savepoint.
  const inOneTransaction = database.transaction((reads: () => unknown) => reads());
  const reads: VersionedReads = {
    stats,
    group<T>(run: () => T): T {
      stats.transactions++;
      grouped = 0;
      try {
        return inOneTransaction(run) as T;
      } finally {
        if (grouped > stats.largest) stats.largest = grouped!;
        grouped = null;
      }
    },
    prepare(columns, table, on) {
      // One statement, so one read transaction: data_version is read in the same snapshot as the row.
      const statement = database
        .prepare(`select d.data_version, ${columns.map((c) => `t.${c}`).join(', ')} from pragma_data_version d left join ${table} t on ${on}`)
        .raw(true);
      return (...parameters) => {
        stats.reads++;
        if (grouped === null) {
          stats.transactions++;
          if (stats.largest < 1) stats.largest = 1;
        } else grouped++;
        const row = statement.get(parameters) as unknown[];
        const version = versionAt(() => row[0]);
        if (row[1] === null) return { version, row: undefined };
        row.shift();
        return { version, row };
      };
    },
  };
  return { current: () => versionAt(readDataVersion), reads };
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

const orUndefined = (ms: number): number | undefined => (ms > 0 ? ms : undefined);

/** A `pg` client class whose connection attempts give up after `connectMs`, whatever the pool's own timeout. */
function clientWithConnectTimeout(connectMs: number): typeof pg.Client {
  return class extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(typeof config === 'object' ? { ...config, connectionTimeoutMillis: orUndefined(connectMs) } : config);
    }
  };
}

/**
 * PostgreSQL through a `pg` pool. Timestamps are text columns holding the same ISO 8601 strings as
 * on SQLite (see the migrations), so rows, and therefore responses, are identical on both stores.
 * The parsers are set on this pool only, not globally on the `pg` module.
 *
 * Nothing waits without bound (docs/operations.md#timeouts): getting a connection, a statement on
 * the server, the answer on the client, a transaction left idle, a peer that vanished (keepalive).
 * The server-side settings travel in the startup message, so they hold from the first statement
 * of every connection, new ones after a failover included. A connection that breaks fails only
 * the request using it and is replaced (pg-pool.ts).
 */
function openPostgres(connectionString: string, poolSize: number, timeouts: StoreTimeouts, search: SearchOptions): Store {
  const pool = new pg.Pool({
    connectionString,
    max: poolSize,
    types: typeParsers,
    application_name: 'ticketing',
    // pg-pool bounds both the wait for a free connection and the opening of a new one by this;
    // the opening alone gets the shorter `connectMs`, through the client class below.
    connectionTimeoutMillis: orUndefined(Math.max(timeouts.poolMs, timeouts.connectMs)),
    Client: clientWithConnectTimeout(timeouts.connectMs),
    statement_timeout: orUndefined(timeouts.statementMs),
    query_timeout: orUndefined(timeouts.queryMs),
    idle_in_transaction_session_timeout: orUndefined(timeouts.idleInTransactionMs),
    keepAlive: timeouts.keepAliveMs > 0,
    keepAliveInitialDelayMillis: timeouts.keepAliveMs,
  });
  const watch: PoolWatch = {};
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: resilientPool(pool, watch) }) });
  // Searches hold at most half the pool (and at least one connection), whatever is configured.
  const searches = postgresSearchRunner(db, { ...search, concurrency: Math.max(1, Math.min(search.concurrency, Math.floor(poolSize / 2))) });
  const stats: PoolStats = { counts: () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }), watch };
  return {
    db,
    dialect: 'postgres',
    search: postgresTicketSearch,
    searches,
    file: null,
    health: new StoreHealth(),
    apiKeysVersion: null,
    versionedReads: null,
    pool: stats,
    close: () => db.destroy(),
  };
}
