import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobStore, ByteRange } from './blob-store.js';

const ID = /^[0-9a-f-]{36}$/;

/**
 * Attachment bytes on local disk: `files/<ab>/<id>` for stored blobs, `staging/<id>` while an
 * upload is in flight. Names are attachment ids, never the uploaded filename.
 */
export class DiskBlobStore implements BlobStore {
  private readonly filesDir: string;
  private readonly stagingDir: string;

  constructor(root: string) {
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
    try {
      await pipeline(source, createWriteStream(target, { flags: 'wx' }));
    } catch (error) {
      await rm(target, { force: true });
      throw error;
    }
    return bytes;
  }

  async publish(id: string): Promise<void> {
    const target = this.path(id);
    mkdirSync(join(target, '..'), { recursive: true });
    await rename(this.stagedPath(id), target);
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

  /** Runs before the server listens: on disk (one process) nothing staged can be in flight then. */
  async sweep(existing: (ids: string[]) => Promise<Set<string>>): Promise<{ published: number; removed: number }> {
    let published = 0;
    let removed = 0;
    const staged = (await readdir(this.stagingDir)).filter((name) => ID.test(name));
    const stagedRows = await existing(staged);
    for (const id of staged) {
      if (stagedRows.has(id)) {
        // The row was committed but the process stopped before the move: finish it.
        await this.publish(id);
        published++;
      } else {
        await this.discard(id);
        removed++;
      }
    }
    for (const shard of await readdir(this.filesDir)) {
      const names = (await readdir(join(this.filesDir, shard))).filter((name) => ID.test(name));
      for (let i = 0; i < names.length; i += 500) {
        const batch = names.slice(i, i + 500);
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
