import type { Config } from './config.js';
import type { Store } from './db/store.js';
import type { RequestMetrics } from './observability/request-metrics.js';
import type { BlobStore } from './storage/blob-store.js';

/**
 * What the route plugins are given by buildApp (src/app.ts). In a file of its own so the modules
 * import downwards only: no module imports the app that assembles them.
 */
export interface AppDeps {
  config: Config;
  store: Store;
  blobs: BlobStore;
  /** Request metrics (server.ts makes them when METRICS_PORT is set). */
  metrics?: RequestMetrics | undefined;
}
