import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { statementNameOf } from './prepared.js';
import { isBrokenConnection } from './unavailable.js';

/**
 * The `pg` pool as Kysely's PostgresDialect sees it, made safe against connections that break
 * while in use.
 *
 * - **Every client has an 'error' listener for its whole life.** pg-pool listens on idle clients
 *   only and removes its listener while a client is checked out; a reset or a server-side
 *   termination of a checked-out connection then emitted an unhandled 'error' event, which ends
 *   the process. The error also fails the query in flight (or the next one), which is how the
 *   request using the connection learns of it; the listener only has to exist.
 * - **A broken connection goes back to the pool as broken**, so the pool closes it and opens a new
 *   one for the next request. pg-pool already drops a client whose socket has failed, but not one
 *   whose query hit the client-side read timeout (its socket is open, its state unknown: an answer
 *   may still come, or never) nor one that found itself on a read-only server after a failover.
 *   Kysely releases connections without saying why, so this wrapper remembers the error.
 */
export function resilientPool(pool: pg.Pool, watch: PoolWatch = {}): PostgresPool {
  pool.on('connect', (client) => {
    client.on('error', ignore);
  });
  // An idle client that breaks is removed by pg-pool, which then emits 'error' on the pool.
  pool.on('error', ignore);
  return {
    async connect(): Promise<PostgresPoolClient> {
      if (!watch.acquired) return checkedOut(await pool.connect());
      const started = performance.now();
      const client = await pool.connect();
      watch.acquired((performance.now() - started) / 1000);
      return checkedOut(client);
    },
    end: () => pool.end(),
  };
}

/** Who wants to know how long each checkout waited for a connection (the metrics, when on). */
export interface PoolWatch {
  /** Called with the wait of every connection handed out, in seconds. */
  acquired?: (seconds: number) => void;
}

/** The pool's figures, read without I/O (pg-pool's own counts) plus the checkout hook. */
export interface PoolStats {
  /** Connections open, idle among them, and callers waiting for one. */
  counts(): { open: number; idle: number; waiting: number };
  readonly watch: PoolWatch;
}

// Reported to the request through the failed query; nothing to do at the event itself.
const ignore = (): void => undefined;

function checkedOut(client: pg.PoolClient): PostgresPoolClient {
  let broken: Error | undefined;
  const query = async <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> => {
    try {
      // Hot-path queries (prepared.ts) run as named statements: parsed and planned once per connection.
      const name = statementNameOf(sql);
      const result = name === undefined ? await client.query(sql, parameters as unknown[]) : await client.query({ name, text: sql, values: parameters as unknown[] });
      return result as unknown as PostgresQueryResult<R>;
    } catch (error) {
      if (isBrokenConnection(error)) broken ??= error as Error;
      throw error;
    }
  };
  return {
    query: query as {
      <R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
      <R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    },
    // With an error, pg-pool destroys the client (ending its socket even mid-query) instead of reusing it.
    release: () => client.release(broken),
  };
}
