import { describe, expect, it } from 'vitest';
import { isBrokenConnection, isStoreUnavailable, isWriteFailure } from './unavailable.js';

/**
 * The classification the one error handler and the readiness check rely on. The faults that can be
 * produced for real are proven end to end (test/resilience.*.test.ts, src/modules/health); this
 * table also covers codes a test cannot provoke on a shared server (too_many_connections, a server
 * starting up, a disk full on PostgreSQL's side).
 */
const error = (code: string | undefined, message = 'x', cause?: unknown) => Object.assign(new Error(message, { cause }), { code });

describe('isStoreUnavailable', () => {
  it.each([
    ['53300 too_many_connections', error('53300')],
    ['53100 disk_full', error('53100')],
    ['57P01 admin_shutdown', error('57P01')],
    ['57P03 cannot_connect_now', error('57P03')],
    ['08006 connection_failure', error('08006')],
    ['57014 statement timeout', error('57014')],
    ['25006 read-only transaction', error('25006')],
    ['SQLITE_BUSY', error('SQLITE_BUSY')],
    ['SQLITE_BUSY_SNAPSHOT', error('SQLITE_BUSY_SNAPSHOT')],
    ['SQLITE_FULL', error('SQLITE_FULL')],
    ['SQLITE_IOERR_WRITE', error('SQLITE_IOERR_WRITE')],
    ['SQLITE_READONLY', error('SQLITE_READONLY')],
    ['ECONNREFUSED', error('ECONNREFUSED')],
    ['ENOSPC from the disk storage', error('ENOSPC')],
    ['EROFS (looks like a SQLSTATE, is not one)', error('EROFS')],
    ['a pool connect timeout', error(undefined, 'timeout exceeded when trying to connect')],
    ['a query read timeout', error(undefined, 'Query read timeout')],
    ['a connection attempt timing out', error(undefined, 'timeout expired')],
    ['a wrapped cause', error(undefined, 'Connection terminated due to connection timeout', error('ETIMEDOUT'))],
    ['a closed SQLite connection', new TypeError('The database connection is not open')],
  ])('%s is unavailable', (_name, e) => {
    expect(isStoreUnavailable(e)).toBe(true);
  });

  it.each([
    ['23505 unique_violation', error('23505')],
    ['42P01 undefined_table', error('42P01')],
    ['SQLITE_CONSTRAINT_UNIQUE', error('SQLITE_CONSTRAINT_UNIQUE')],
    ['SQLITE_ERROR', error('SQLITE_ERROR')],
    ['SQLITE_CORRUPT (not transient)', error('SQLITE_CORRUPT')],
    ['ENOENT', error('ENOENT')],
    ['a plain bug', new TypeError('undefined is not a function')],
  ])('%s is not', (_name, e) => {
    expect(isStoreUnavailable(e)).toBe(false);
  });
});

describe('isWriteFailure and isBrokenConnection', () => {
  it('write failures are space, read-only and I/O; busy and away are not', () => {
    for (const code of ['SQLITE_FULL', 'SQLITE_READONLY_DBMOVED', 'SQLITE_IOERR', '53100', '25006', 'ENOSPC', 'EROFS']) expect(isWriteFailure(error(code)), code).toBe(true);
    for (const code of ['SQLITE_BUSY', '57P01', 'ECONNRESET', '23505']) expect(isWriteFailure(error(code)), code).toBe(false);
  });

  it('a statement timeout keeps its connection; a reset, a read timeout or a read-only server does not', () => {
    expect(isBrokenConnection(error('57014'))).toBe(false);
    expect(isBrokenConnection(error('23505'))).toBe(false);
    expect(isBrokenConnection(error('ECONNRESET'))).toBe(true);
    expect(isBrokenConnection(error(undefined, 'Query read timeout'))).toBe(true);
    expect(isBrokenConnection(error('25006'))).toBe(true);
  });
});
