import type { Readable } from 'node:stream';

/** A byte range, inclusive, as Range requests name it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where attachment bytes live. Writing is two-phase so that no crash leaves a row without a file
 * or a file without a row: `stage` streams the bytes to a temporary place, the caller commits the
 * database row, then `publish` moves the bytes into place. `sweep` at start finishes or discards
 * whatever a crash left between the phases.
 */
export interface BlobStore {
  /** Streams `source` to a temporary place under `id`; resolves to the byte count written. */
  stage(id: string, source: Readable): Promise<number>;
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
   * deletes staged and stored blobs that have no row. `existing` answers which ids have rows.
   */
  sweep(existing: (ids: string[]) => Promise<Set<string>>): Promise<{ published: number; removed: number }>;
}
