import type { Compilable, CompiledQuery } from 'kysely';
import type { Executor } from '../shared/executor.js';

/**
 * SQL texts that PostgreSQL connections run as named prepared statements (pg-pool.ts), with
 * their names: parsed and planned once per connection instead of on every request.
 */
const statementNames = new Map<string, string>();

/** The prepared statement name of this SQL text on PostgreSQL, if it has one. */
export const statementNameOf = (sql: string): string | undefined => statementNames.get(sql);

/**
 * A query of a hot path, built and compiled once per dialect instead of on every call, and named
 * on PostgreSQL. Kysely builds an operation tree and compiles it to SQL on every execution, which
 * costs about as much as a simple indexed read on SQLite; here the tree is built once with
 * placeholder values that each call replaces with its own arguments, in the same positions.
 * The query must not depend on its arguments' values (no `in` lists of varying length, no
 * branches on them); the executor may be the database or a transaction.
 */
export function preparedQuery<A extends unknown[], R>(build: (db: Executor, ...args: A) => Compilable<R>): (db: Executor, ...args: A) => Promise<R[]> {
  const marks = new Map<unknown, number>();
  const placeholders = [] as unknown[];
  const compiledByAdapter = new WeakMap<object, CompiledQuery<R>>();
  return async (db, ...args) => {
    const executor = db.getExecutor();
    let compiled = compiledByAdapter.get(executor.adapter);
    if (!compiled) {
      for (let i = placeholders.length; i < args.length; i++) {
        // Unique strings that no argument can equal by accident.
        const mark = `\u0000prepared-argument-${i}-${Math.random()}`;
        placeholders.push(mark);
        marks.set(mark, i);
      }
      compiled = build(db, ...(placeholders.slice(0, args.length) as A)).compile();
      compiledByAdapter.set(executor.adapter, compiled);
      if (!statementNames.has(compiled.sql)) statementNames.set(compiled.sql, `ticketing_${statementNames.size + 1}`);
    }
    const template = compiled.parameters;
    const parameters = new Array<unknown>(template.length);
    for (let i = 0; i < template.length; i++) {
      const at = marks.get(template[i]);
      parameters[i] = at === undefined ? template[i] : args[at];
    }
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    return result.rows;
  };
}
