import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Executor } from '../shared/executor.js';
import { preparedQuery } from './prepared.js';
import { withStatementCache } from './sqlite-statements.js';

interface Db {
  items: { id: number; name: string };
}

describe('the SQLite statement cache', () => {
  let raw: BetterSqlite3.Database;
  let db: Kysely<Db>;
  /** A fresh in-memory database behind the cache (and Kysely over it); resolves to the cache. */
  const open = (size?: number) => {
    raw = new BetterSqlite3(':memory:');
    const database = withStatementCache(raw, size);
    db = new Kysely<Db>({ dialect: new SqliteDialect({ database }) });
    return database;
  };
  afterEach(async () => {
    await db.destroy();
  });

  it('prepares a query once and reuses it, with new parameters each time', async () => {
    const database = open();
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    await db.insertInto('items').values([{ id: 1, name: 'one' }, { id: 2, name: 'two' }]).execute();
    const byId = (id: number) => db.selectFrom('items').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(1)).toEqual({ name: 'one' });
    expect(await byId(2)).toEqual({ name: 'two' });
    const text = 'select "name" from "items" where "id" = ?';
    expect(database.prepare(text)).toBe(database.prepare(text));
  });

  it('gives a query its own statement while the cached one is still being iterated', async () => {
    const database = open();
    raw.exec("create table items (id integer primary key); insert into items values (1), (2), (3)");
    // Kysely holds its one SQLite connection while a stream is open, so this cannot happen through
    // it; the cache must still never hand out a statement that is mid-iteration.
    const text = 'select id from items order by id';
    const iterating = database.prepare(text);
    const seen: unknown[] = [];
    for (const row of iterating.iterate([])) {
      const again = database.prepare(text);
      expect(again).not.toBe(iterating);
      expect(again.all([])).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
      seen.push(row);
    }
    expect(seen).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(database.prepare(text)).toBe(iterating);
  });

  it('gives the rows of a hot query (prepared.ts), which it reads as arrays, as the same objects', async () => {
    open();
    raw.exec("create table items (id integer primary key, name text); insert into items values (1, 'one'), (2, null), (3, 'three')");
    const build = (d: Kysely<Db>, from: number) => d.selectFrom('items').select(['id', 'name', sql<number>`id * 2`.as('twice')]).where('id', '>=', from).orderBy('id');
    const hot = preparedQuery((d: Executor, from: number) => build(d as unknown as Kysely<Db>, from));
    const expected = [{ id: 2, name: null, twice: 4 }, { id: 3, name: 'three', twice: 6 }];
    expect(await hot(db as unknown as Executor, 2)).toEqual(expected);
    expect(await hot(db as unknown as Executor, 2)).toEqual(expected); // the cached statement, again
    expect(await build(db, 2).execute()).toEqual(expected);
    // Duplicate names: the later column wins, as better-sqlite3's own objects do.
    const twice = preparedQuery((d: Executor) => ({ compile: () => sql<{ a: number }>`select 1 as a, 2 as a`.compile(d) }));
    expect(await twice(db as unknown as Executor)).toEqual(raw.prepare('select 1 as a, 2 as a').all());
  });

  it('keeps at most its size, dropping the least recently used', async () => {
    const database = open(2);
    const a = database.prepare('select 1');
    database.prepare('select 2');
    expect(database.prepare('select 1')).toBe(a); // now the most recently used
    database.prepare('select 3'); // pushes out `select 2`
    const b = database.prepare('select 2');
    expect(database.prepare('select 2')).toBe(b);
    expect(database.prepare('select 1')).not.toBe(a); // pushed out by `select 2` coming back
  });

  it('sees a schema change made after a statement was cached', async () => {
    open();
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    await db.insertInto('items').values({ id: 1, name: 'one' }).execute();
    expect(await sql`select * from items`.execute(db).then((r) => r.rows)).toEqual([{ id: 1, name: 'one' }]);
    await sql`alter table items add column note text`.execute(db);
    expect(await sql`select * from items`.execute(db).then((r) => r.rows)).toEqual([{ id: 1, name: 'one', note: null }]);
  });
});
