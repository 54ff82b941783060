import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { statementNameOf } from './prepared.js';

/** Distinct SQL texts kept prepared; queries with `in (...)` lists of many lengths stay bounded. */
const CACHE_SIZE = 500;

/**
 * The better-sqlite3 database as Kysely's SQLite dialect sees it, with prepared statements reused.
 * Kysely prepares every query anew, and preparing costs about as much as running a simple query
 * (bench/RESULTS.md#store). Statements are cached by SQL text, least recently used
 * first out. A statement that an open iterator is still reading (`busy`) is not shared: that query
 * gets a fresh one. SQLite re-prepares a cached statement by itself after a schema change.
 */
export function withStatementCache(database: BetterSqlite3.Database, size = CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, CachedStatement>();
  // The hot queries (prepared.ts names them) read their rows as arrays and make the objects here.
  const hot = (statement: BetterSqlite3.Statement): CachedStatement =>
    statement.reader && statementNameOf(statement.source) !== undefined ? rowsMadeHere(statement) : statement;
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached) {
        if (cached.busy) return database.prepare(sql);
        // Re-inserted, so the map's order is least recently used first.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = hot(database.prepare(sql));
      cache.set(sql, statement);
      if (cache.size > size) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}

/** What the cache holds: a statement, or a hot reader that makes its rows itself. */
type CachedStatement = SqliteStatement & { readonly busy: boolean };

/**
 * A reading statement whose rows better-sqlite3 hands over as arrays (`raw`), made into objects
 * here: better-sqlite3 sets each column of a row object through V8's API, which cost more than
 * the read itself for a ticket's 17 columns; objects filled in the same order in JavaScript share
 * one shape and are cheap. Same objects: a later column of the same name wins, as there.
 */
function rowsMadeHere(statement: BetterSqlite3.Statement): CachedStatement {
  const names = statement.columns().map((column) => column.name);
  statement.raw(true);
  const toObject = (row: unknown[]): Record<string, unknown> => {
    const object: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) object[names[i]!] = row[i];
    return object;
  };
  return {
    reader: true,
    get busy() {
      return statement.busy;
    },
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  };
}
