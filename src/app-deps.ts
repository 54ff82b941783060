import type { Config } from './config.js';
import type { Store } from './db/store.js';
import type { BlobStore } from './storage/blob-store.js';

/** What the app is built from, and what route plugins take: its own file, so modules import downwards only. */
export interface AppDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
}
