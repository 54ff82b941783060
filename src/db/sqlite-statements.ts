import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared; queries with `in (...)` lists of many lengths stay bounded. */
const CACHE_SIZE = 500;

/**
 * The better-sqlite3 database as Kysely's SQLite dialect sees it, with prepared statements reused.
 * Kysely prepares every query anew, and preparing costs about as much as running a simple query
 * (a fifth of a get-by-id request's time). Statements are cached by SQL text, least recently used
 * first out. A statement that an open iterator is still reading (`busy`) is not shared: that query
 * gets a fresh one. SQLite re-prepares a cached statement by itself after a schema change.
 */
export function withStatementCache(database: BetterSqlite3.Database, size = CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
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
      const statement = database.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > size) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}
