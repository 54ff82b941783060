/**
 * Which errors mean "the store is unavailable right now" (answered 503 with Retry-After, a
 * retryable condition) rather than a bug (500). One list for PostgreSQL, SQLite and the attachment
 * stores, read by the one error handler (src/http/error-handler.ts) and by the readiness check.
 *
 * Errors are recognised by their codes: PostgreSQL's SQLSTATE, better-sqlite3's `SQLITE_*` codes,
 * Node's system error codes. The `pg` client raises a few errors of its own without a code; those
 * are recognised by their (long-stable) messages, and the fault-injection suite
 * (test/resilience.postgres.test.ts) fails should a new version of `pg` change them.
 */

/** SQLSTATEs of a store that cannot serve now; classes are matched by their first two characters. */
const PG_UNAVAILABLE_CLASSES = new Set([
  '08', // connection exception
  '53', // insufficient resources: disk full, out of memory, too many connections
  '58', // system error: I/O error
]);
const PG_UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown: the server is stopping, or pg_terminate_backend()
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '57P05', // idle_session_timeout
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '25P03', // idle_in_transaction_session_timeout
  '25006', // read_only_sql_transaction: a standby, e.g. the old primary after a failover
]);

/** Errors of the `pg` client and pool that carry no code. */
const PG_CLIENT_MESSAGES = [
  'timeout exceeded when trying to connect', // pool: no connection free within connectionTimeoutMillis
  'Connection terminated due to connection timeout',
  'timeout expired', // the client's own connectionTimeoutMillis while opening a connection
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Query read timeout', // query_timeout: the server did not answer in time
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool', // the process is shutting down
  'driver has already been destroyed', // Kysely, the same
];

/** better-sqlite3 after close() (the process is shutting down). */
const SQLITE_CLOSED_MESSAGE = 'The database connection is not open';

const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|PROTOCOL)(_|$)/;

/** Node system errors of a network or a file system that cannot serve now. */
const SYSTEM_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOSPC',
  'EDQUOT',
  'EROFS',
  'EIO',
  'EMFILE',
  'ENFILE',
]);

/** The store cannot write: out of space, read-only, or failing I/O. Readiness reports these. */
const PG_WRITE_FAILURES = new Set(['53100', '25006', '58030']);
const SQLITE_WRITE_FAILURE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN)(_|$)/;
const SYSTEM_WRITE_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The error and the causes it wraps (pg-pool wraps a connect timeout around the socket error). */
function* chain(error: unknown): Generator<ErrorLike> {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    yield current;
    current = (current as ErrorLike).cause;
  }
}

const isSqlState = (code: string): boolean => /^[0-9A-Z]{5}$/.test(code);

// System codes first: EPIPE and EROFS would also pass for SQLSTATEs.
function unavailableCode(code: string): boolean {
  if (SYSTEM_UNAVAILABLE.has(code)) return true;
  if (code.startsWith('SQLITE_')) return SQLITE_UNAVAILABLE.test(code);
  return isSqlState(code) && (PG_UNAVAILABLE_CODES.has(code) || PG_UNAVAILABLE_CLASSES.has(code.slice(0, 2)));
}

/** True when `error` means the store (or the attachment storage) cannot serve right now. */
export function isStoreUnavailable(error: unknown): boolean {
  for (const e of chain(error)) {
    if (typeof e.code === 'string' && unavailableCode(e.code)) return true;
    if (typeof e.message === 'string' && (PG_CLIENT_MESSAGES.includes(e.message) || e.message === SQLITE_CLOSED_MESSAGE)) return true;
  }
  return false;
}

/** True when `error` says the store cannot write (full, read-only, I/O errors), as opposed to being busy or away. */
export function isWriteFailure(error: unknown): boolean {
  for (const e of chain(error)) {
    if (typeof e.code !== 'string') continue;
    if (SYSTEM_WRITE_FAILURES.has(e.code) || PG_WRITE_FAILURES.has(e.code) || SQLITE_WRITE_FAILURE.test(e.code)) return true;
  }
  return false;
}

/**
 * True when a PostgreSQL connection that raised `error` must not be used again: its socket
 * failed, the server ended the session, the client gave up waiting for an answer (the state of the
 * session is then unknown), or the server is read-only (after a failover a new connection may
 * reach the new primary). A plain SQL error (a constraint, a statement timeout) leaves the
 * connection as good as before.
 */
export function isBrokenConnection(error: unknown): boolean {
  if (!isStoreUnavailable(error)) return false;
  const code = (error as ErrorLike).code;
  return code !== '57014' && code !== '55P03';
}
