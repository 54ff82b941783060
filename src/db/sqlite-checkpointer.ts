import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite in WAL mode copies the log back into the database file now and then (a checkpoint), and
 * a checkpoint waits for the disk twice (the log, then the file). By default the connection that
 * commits when the log passes 1,000 pages does it, inside that commit, so a create would wait for
 * those disk syncs (bench/RESULTS.md#creates). Here a worker thread with a
 * connection of its own checkpoints every `intervalMs` (PASSIVE: it never blocks the writer or
 * the readers, and copies what no reader still needs), so the main thread's commits only append
 * to the log.
 *
 * Durability is unchanged: a commit is in the log when it returns, whoever checkpoints it later
 * (WAL with synchronous = NORMAL: safe against a crash of the process, not of the machine).
 * The main connection keeps a far larger automatic threshold as a safety net
 * (`MAIN_CONNECTION_CHECKPOINT_PAGES`), so the log stays bounded even if this worker stops.
 */
export const MAIN_CONNECTION_CHECKPOINT_PAGES = 20_000;

/** How often the worker checkpoints. */
export const CHECKPOINT_INTERVAL_MS = 500;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  // Busy (another connection checkpointing, a migration holding the file) is tried again next time.
  try { checkpoint.get(); } catch {}
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;

export interface Checkpointer {
  stop(): Promise<void>;
}

/** Starts checkpointing `file` on a worker thread; stop() ends it (and closes its connection). */
export function startCheckpointer(file: string, intervalMs = CHECKPOINT_INTERVAL_MS): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, intervalMs } });
  worker.unref();
  let exited = false;
  const exit = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exit.then(() => (exited = true));
  // A worker that fails leaves the checkpoints to the main connection's threshold.
  worker.on('error', () => undefined);
  return {
    async stop() {
      if (exited) return;
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), 2_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
