import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { STAGING_TTL_MS, SWEEP_INTERVAL_MS, type BlobStore, type ByteRange, type SweepResult } from './blob-store.js';

const ID = /^[0-9a-f-]{36}$/;
// Ids per `existing` call: well under the bound-parameter limits of SQLite and PostgreSQL.
const BATCH = 500;

export interface DiskBlobStoreOptions {
  stagingTtlMs?: number;
  sweepIntervalMs?: number;
}

const isMissing = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Attachment bytes on local disk: `files/<ab>/<id>` for stored blobs, `staging/<id>` while an
 * upload is in flight. Names are attachment ids, never the uploaded filename.
 */
export class DiskBlobStore implements BlobStore {
  readonly sweepIntervalMs: number;
  private readonly stagingTtlMs: number;
  private readonly filesDir: string;
  private readonly stagingDir: string;

  constructor(root: string, options: DiskBlobStoreOptions = {}) {
    this.stagingTtlMs = options.stagingTtlMs ?? STAGING_TTL_MS;
    this.sweepIntervalMs = options.sweepIntervalMs ?? SWEEP_INTERVAL_MS;
    this.filesDir = join(root, 'files');
    this.stagingDir = join(root, 'staging');
    mkdirSync(this.filesDir, { recursive: true });
    mkdirSync(this.stagingDir, { recursive: true });
  }

  private path(id: string): string {
    if (!ID.test(id)) throw new Error('invalid blob id');
    return join(this.filesDir, id.slice(0, 2), id);
  }

  private stagedPath(id: string): string {
    if (!ID.test(id)) throw new Error('invalid blob id');
    return join(this.stagingDir, id);
  }

  async stage(id: string, source: Readable): Promise<number> {
    const target = this.stagedPath(id);
    let bytes = 0;
    source.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    const sink = createWriteStream(target, { flags: 'wx' });
    let opened = false;
    sink.once('open', () => {
      opened = true;
    });
    try {
      await pipeline(source, sink);
    } catch (error) {
      // A source that fails at once can beat the file's open: wait for it to close, or the file is
      // created after the removal and left behind.
      if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
      // Only a file this call created: one it could not open (EEXIST: the same id staged by another
      // writer, as two recoveries of one mail are) is that writer's, about to be published.
      if (opened) await rm(target, { force: true });
      throw error;
    }
    return bytes;
  }

  async publish(id: string): Promise<void> {
    const target = this.path(id);
    mkdirSync(join(target, '..'), { recursive: true });
    try {
      await rename(this.stagedPath(id), target);
    } catch (error) {
      // A sweep (this process or another sharing the directory) saw the committed row and moved it first.
      if (!isMissing(error) || !(await exists(target))) throw error;
    }
  }

  async discard(id: string): Promise<void> {
    await rm(this.stagedPath(id), { force: true });
  }

  open(id: string, range?: ByteRange): Readable {
    return createReadStream(this.path(id), range ? { start: range.start, end: range.end } : {});
  }

  async remove(ids: readonly string[]): Promise<void> {
    await Promise.all(ids.map((id) => rm(this.path(id), { force: true })));
  }

  /**
   * Staged files with a row are published (the crash came between commit and rename); staged
   * files without one are removed once untouched for the staging TTL (an upload still streaming,
   * here or in another process sharing the directory, keeps writing to its file); stored files
   * without a row are removed (a file is stored only after its row was committed, so a missing
   * row was deleted and cannot come back).
   */
  async sweep(existing: (ids: string[]) => Promise<Set<string>>): Promise<SweepResult> {
    let published = 0;
    let removed = 0;
    const staleBefore = Date.now() - this.stagingTtlMs;
    const staged = (await readdir(this.stagingDir)).filter((name) => ID.test(name));
    for (let i = 0; i < staged.length; i += BATCH) {
      const batch = staged.slice(i, i + BATCH);
      const rows = await existing(batch);
      for (const id of batch) {
        if (rows.has(id)) {
          try {
            await this.publish(id);
            published++;
          } catch (error) {
            if (!isMissing(error)) throw error;
          }
        } else if (await modifiedBefore(this.stagedPath(id), staleBefore)) {
          await this.discard(id);
          removed++;
        }
      }
    }
    for (const shard of await readdir(this.filesDir)) {
      const names = (await readdir(join(this.filesDir, shard))).filter((name) => ID.test(name));
      for (let i = 0; i < names.length; i += BATCH) {
        const batch = names.slice(i, i + BATCH);
        const rows = await existing(batch);
        for (const id of batch) {
          if (!rows.has(id)) {
            await rm(this.path(id), { force: true });
            removed++;
          }
        }
      }
    }
    return { published, removed };
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: unknown) => {
      if (isMissing(error)) return false;
      throw error;
    },
  );
}

/** True when the file was last written before `time` (ms); false when it is gone. */
async function modifiedBefore(path: string, time: number): Promise<boolean> {
  try {
    return (await stat(path)).mtimeMs < time;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}
