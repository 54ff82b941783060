import type { Readable } from 'node:stream';

/** A byte range, inclusive, as Range requests name it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A staged upload untouched for this long is abandoned (a crashed process, a client gone for an
 * hour). Younger ones may be uploads still streaming into another process, so a sweep keeps them.
 */
export const STAGING_TTL_MS = 60 * 60 * 1000;
/** A running server sweeps this often, so a crashed process's leftovers do not wait for a restart. */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Who the bytes belong to; the database backend keeps it on every row (tenancy, sharding). */
export interface StageOptions {
  organizationId: string;
}

/** What `sweep` did. */
export interface SweepResult {
  published: number;
  removed: number;
}

/**
 * Where attachment bytes live. Writing is two-phase so that no crash leaves a row without bytes
 * or bytes without a row: `stage` streams the bytes to a temporary place, the caller commits the
 * database row, then `publish` moves the bytes into place. `sweep` finishes or discards whatever a
 * crash left between the phases.
 *
 * Two backends (STORAGE_BACKEND): `disk` (files under DATA_DIR, one process) and `database` (chunks
 * in the store's own tables, so every process serves every file and deleting a row deletes its
 * bytes in the same transaction). See docs/architecture.md.
 */
export interface BlobStore {
  /** How often a running server calls `sweep` again (null: only at start-up). */
  readonly sweepIntervalMs: number | null;
  /**
   * Streams `source` to a temporary place under `id`; resolves to the byte count written. The
   * database backend needs `options.organizationId` and rejects a stage without it.
   */
  stage(id: string, source: Readable, options?: StageOptions): Promise<number>;
  /** Moves staged bytes into place once their row is committed. */
  publish(id: string): Promise<void>;
  /** Drops staged bytes of an upload that was rejected or whose row was not committed. */
  discard(id: string): Promise<void>;
  /** A readable stream of the stored bytes, or of one range of them. */
  open(id: string, range?: ByteRange): Readable;
  /** Removes stored bytes; ids that have none are ignored. */
  remove(ids: readonly string[]): Promise<void>;
  /**
   * Reconciles storage with the database after a crash: publishes staged blobs whose row exists,
   * deletes staged blobs older than the staging TTL and stored blobs that have no row. Safe while
   * uploads are in flight, in this process or another sharing the storage. `existing` answers
   * which ids have rows.
   */
  sweep(existing: (ids: string[]) => Promise<Set<string>>): Promise<SweepResult>;
}
