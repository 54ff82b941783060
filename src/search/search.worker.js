// @ts-check
/*
 * A SQLite search worker thread (search-runner.ts starts `concurrency` of them): a read-only
 * connection to the store's file (WAL lets it read while the main connection writes), the text
 * test, and prepared statements by SQL text. It answers each task (SQL and parameters) with its
 * rows or its error.
 *
 * JavaScript, type-checked from its JSDoc, so that the very same file runs from the sources (the
 * tests: Node 20 cannot load a .ts file in a worker thread, and Vitest does not transform worker
 * threads) and from dist/ (the build copies it): search-runner.ts loads it beside itself, either way.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ file: string; busyTimeoutMs: number; budgetMessage: string }} */
const { file, busyTimeoutMs, budgetMessage } = workerData;
const port = parentPort;
if (!port) throw new Error('search.worker.js runs as a worker thread only');

const db = new Database(file, { readonly: true, fileMustExist: true });
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
// The same text test as the main connection's (searchContains in search.ts): past its deadline it
// throws the budget message, which the runner turns into a timeout.
db.function('search_contains', { deterministic: false }, (value, term, deadline) => {
  if (Date.now() > Number(deadline)) throw new Error(budgetMessage);
  return typeof value === 'string' && value.toLowerCase().includes(String(term)) ? 1 : 0;
});

/** @type {Map<string, import('better-sqlite3').Statement>} */
const statements = new Map();

port.on('message', (/** @type {{ id: number; sql: string; parameters: unknown[] }} */ task) => {
  try {
    let statement = statements.get(task.sql);
    if (!statement) {
      statement = db.prepare(task.sql);
      statements.set(task.sql, statement);
      if (statements.size > 100) statements.delete(/** @type {string} */ (statements.keys().next().value));
    }
    port.postMessage({ id: task.id, rows: statement.all(...task.parameters) });
  } catch (error) {
    const e = /** @type {{ message?: unknown; code?: unknown } | null} */ (error);
    port.postMessage({ id: task.id, error: { message: String(e && e.message), code: e && e.code } });
  }
});
