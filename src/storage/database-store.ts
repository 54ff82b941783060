import type { Kysely } from 'kysely';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database } from '../db/types.js';
import { nowIso } from '../shared/time.js';
import { STAGING_TTL_MS, SWEEP_INTERVAL_MS, type BlobStore, type ByteRange, type StageOptions, type SweepResult } from './blob-store.js';
import {
  deleteBlobs,
  deleteStagedBlob,
  findBlob,
  insertBlob,
  insertChunk,
  publishBlob,
  publishStagedBlobsWithRows,
  readChunk,
  removeStagedBlobsBefore,
  setBlobSize,
  touchBlob,
} from './blobs.repository.js';

/** Bytes per chunk row: big enough that a 30 MiB file is ~120 rows, small enough to hold one per request. */
export const CHUNK_BYTES = 256 * 1024;
// Keeps `id in (...)` well under the bound-parameter limits of SQLite and PostgreSQL.
const DELETE_BATCH = 500;

export interface DatabaseBlobStoreOptions {
  chunkBytes?: number;
  stagingTtlMs?: number;
  sweepIntervalMs?: number;
}

/**
 * Attachment bytes in the store's own tables (migration 0003), in fixed-size chunks. Bytes are
 * written chunk by chunk as the upload arrives and read chunk by chunk as the client consumes
 * them, so a request holds at most about two chunks in memory whatever the file size. Nothing
 * here holds a transaction open while a client is sending or receiving.
 */
export class DatabaseBlobStore implements BlobStore {
  readonly sweepIntervalMs: number;
  private readonly chunkBytes: number;
  private readonly stagingTtlMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    options: DatabaseBlobStoreOptions = {},
  ) {
    this.chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
    this.stagingTtlMs = options.stagingTtlMs ?? STAGING_TTL_MS;
    this.sweepIntervalMs = options.sweepIntervalMs ?? SWEEP_INTERVAL_MS;
  }

  async stage(id: string, source: Readable, options?: StageOptions): Promise<number> {
    const organizationId = options?.organizationId;
    if (!organizationId) {
      source.destroy();
      throw new Error('The database blob store needs the organization id of the bytes it stages');
    }
    let created = false;
    // The parent row is committed on its own before the first chunk (the chunks need it), and no
    // transaction stays open while the client sends. The pipeline is attached at once, so an error
    // the source raises meanwhile (a rejected signature, the size limit) is already handled.
    const sink = new ChunkWriter(
      this.chunkBytes,
      async () => {
        const now = nowIso();
        await insertBlob(this.db, {
          id,
          organization_id: organizationId,
          attachment_id: null,
          size_bytes: 0,
          chunk_bytes: this.chunkBytes,
          created_at: now,
          updated_at: now,
        });
        created = true;
      },
      async (seq, data) => {
        await insertChunk(this.db, id, organizationId, seq, data);
        await touchBlob(this.db, id, nowIso());
      },
    );
    try {
      await pipeline(source, sink);
      await setBlobSize(this.db, id, sink.bytes);
      return sink.bytes;
    } catch (error) {
      // A row insert may still be in flight; once it has settled, the delete takes every chunk
      // with it (a chunk inserted after the delete fails its foreign key instead).
      await sink.settled();
      if (created) await deleteStagedBlob(this.db, id).catch(() => undefined);
      throw error;
    }
  }

  async publish(id: string): Promise<void> {
    await publishBlob(this.db, id);
    // Still staged means the attachment row was deleted (with its ticket) before the bytes could
    // be linked to it: nothing will ever ask for them.
    await deleteStagedBlob(this.db, id);
  }

  async discard(id: string): Promise<void> {
    await deleteStagedBlob(this.db, id);
  }

  open(id: string, range?: ByteRange): Readable {
    // Not object mode: the stream buffers bytes, so it asks for one more chunk only as the client drains it.
    return Readable.from(this.chunksOf(id, range), { objectMode: false });
  }

  private async *chunksOf(id: string, range?: ByteRange): AsyncGenerator<Buffer> {
    const blob = await findBlob(this.db, id);
    if (!blob) throw new Error(`No stored bytes for attachment ${id}`);
    if (blob.size === 0) return;
    const start = range?.start ?? 0;
    const end = Math.min(range?.end ?? blob.size - 1, blob.size - 1);
    // Only the chunks that hold the range are read; the first and last are sliced.
    for (let seq = Math.floor(start / blob.chunkBytes); seq <= Math.floor(end / blob.chunkBytes); seq++) {
      const data = await readChunk(this.db, id, seq);
      const base = seq * blob.chunkBytes;
      const from = Math.max(start - base, 0);
      const to = Math.min(end - base + 1, blob.chunkBytes);
      if (!data || data.length < to) throw new Error(`Stored bytes of attachment ${id} are incomplete at chunk ${seq}`);
      yield Buffer.from(data.buffer, data.byteOffset + from, to - from);
    }
  }

  async remove(ids: readonly string[]): Promise<void> {
    // Published blobs have already gone with their attachment rows; this catches staged ones.
    for (let i = 0; i < ids.length; i += DELETE_BATCH) await deleteBlobs(this.db, ids.slice(i, i + DELETE_BATCH));
  }

  /**
   * Publishes every staged blob whose attachment row exists (a crash between the commit and the
   * publish), then deletes staged blobs not written to for the staging TTL (uploads that never
   * committed; one still streaming, here or in another process, touches its blob every chunk).
   * Published blobs cannot be orphaned: they are deleted with their rows. `existing` is not needed:
   * the attachment rows are in the same database.
   */
  async sweep(): Promise<SweepResult> {
    const published = await publishStagedBlobsWithRows(this.db);
    const removed = await removeStagedBlobsBefore(this.db, new Date(Date.now() - this.stagingTtlMs).toISOString());
    return { published, removed };
  }
}

/**
 * Cuts a byte stream into rows of exactly `chunkBytes` (the last may be shorter) and hands each to
 * `flush` in order (after `start` has finished), one at a time: the next write is not accepted until the row is stored, which
 * is what slows a fast client down to the database's pace.
 */
class ChunkWriter extends Writable {
  bytes = 0;
  private seq = 0;
  private buffer: Buffer;
  private filled = 0;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly chunkBytes: number,
    private readonly start: () => Promise<void>,
    private readonly flush: (seq: number, data: Buffer) => Promise<void>,
  ) {
    super();
    this.buffer = Buffer.allocUnsafe(chunkBytes);
  }

  /** Runs `start` before the first write; writes wait (and the source is held back) until it is done. */
  override _construct(callback: (error?: Error | null) => void): void {
    this.run(this.start, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.bytes += chunk.length;
    this.run(async () => {
      let offset = 0;
      while (offset < chunk.length) {
        const n = Math.min(chunk.length - offset, this.chunkBytes - this.filled);
        chunk.copy(this.buffer, this.filled, offset, offset + n);
        this.filled += n;
        offset += n;
        if (this.filled === this.chunkBytes) await this.emitChunk();
      }
    }, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.run(async () => {
      if (this.filled > 0) await this.emitChunk();
    }, callback);
  }

  /** Resolves once no row is being written. */
  settled(): Promise<void> {
    return this.pending;
  }

  private run(work: () => Promise<void>, callback: (error?: Error | null) => void): void {
    this.pending = work().then(
      () => callback(),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  private async emitChunk(): Promise<void> {
    const data = this.buffer.subarray(0, this.filled);
    this.buffer = Buffer.allocUnsafe(this.chunkBytes);
    this.filled = 0;
    await this.flush(this.seq++, data);
  }
}
