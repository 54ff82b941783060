import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { existingAttachmentIds } from '../modules/attachments/attachments.repository.js';
import type { Executor } from '../shared/executor.js';
import type { BlobStore, SweepResult } from './blob-store.js';
import { DatabaseBlobStore } from './database-store.js';
import { DiskBlobStore } from './disk-store.js';
import { logFailure } from '../http/error-handler.js';

/**
 * The attachment store the configuration names (STORAGE_BACKEND): files under DATA_DIR/attachments
 * (`disk`, the default with SQLite) or chunks in the store's own tables (`database`, the default
 * with PostgreSQL). The server, the CLI and the tests all open it here.
 */
export function openBlobStore(config: Pick<Config, 'storageBackend' | 'dataDir'>, store: Pick<Store, 'db'>): BlobStore {
  return config.storageBackend === 'database' ? new DatabaseBlobStore(store.db) : new DiskBlobStore(join(config.dataDir, 'attachments'));
}

/** Reconciles the blob store with the attachment rows (see BlobStore.sweep). */
export function sweepBlobStore(blobs: BlobStore, db: Executor): Promise<SweepResult> {
  return blobs.sweep((ids) => existingAttachmentIds(db, ids));
}

/**
 * Sweeps again every `blobs.sweepIntervalMs` while the app is open, for stores where that is safe:
 * with several processes, one that crashed leaves staged bytes the others must clear. A failed
 * sweep is logged and retried at the next tick; it never affects requests.
 */
export function sweepWhileServing(app: FastifyInstance, blobs: BlobStore, db: Executor): void {
  if (blobs.sweepIntervalMs === null) return;
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepBlobStore(blobs, db)
      .then(
        (result) => {
          if (result.published + result.removed > 0) app.log.info(result, 'attachment storage reconciled');
        },
        (error: unknown) => logFailure(app.log, error, 'attachment storage sweep failed'),
      )
      .finally(() => (running = null));
  }, blobs.sweepIntervalMs).unref();
  // A sweep under way finishes before the store it uses is closed.
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
