import type { Kysely, Transaction } from 'kysely';
import { dialectOf } from '../db/dialect.js';
import type { Database } from '../db/types.js';

/** What repository functions take first: the database or an open transaction (owned by a service). */
export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * The query with `for update` on PostgreSQL, so the rows it reads stay as read until the
 * transaction ends; SQLite has no row locks and needs none (one writer at a time holds the store).
 */
export function forUpdate<Q extends { forUpdate(): Q }>(db: Executor, query: Q, lock = true): Q {
  return lock && dialectOf(db) === 'postgres' ? query.forUpdate() : query;
}
