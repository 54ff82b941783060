import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../db/store.js';
import type { Metrics } from './metrics.js';
import { registerStoreMetrics, registerWebhookMetrics } from './store-metrics.js';

export interface MetricsServerDeps {
  metrics: Metrics;
  store: Store;
  config: { metrics: { host: string; port: number } | null };
  log: Pick<FastifyBaseLogger, 'warn'>;
}

export interface MetricsServer {
  /** Where `GET /metrics` answers, e.g. `http://127.0.0.1:9464/metrics`. */
  address: string;
  stop(): Promise<void>;
}

/**
 * `GET /metrics` in Prometheus text on a port of its own (METRICS_PORT, METRICS_HOST), never on the
 * API's: what it tells (routes, backlogs, process figures) is for operators, and a separate
 * listener cannot be made public by a proxy rule meant for the API. Anything else is 404.
 */
export async function startMetricsServer(deps: MetricsServerDeps): Promise<MetricsServer> {
  const { metrics, store, config } = deps;
  if (!config.metrics) throw new Error('startMetricsServer: METRICS_PORT is not set');
  registerStoreMetrics(metrics, store);
  registerWebhookMetrics(metrics, store);
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        deps.log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'metrics scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected\n');
      },
    );
  });
  // Scrapers keep connections open; they must not hold the process at shutdown.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metrics!.port, config.metrics!.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port, family } = server.address() as AddressInfo;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return {
    address: `http://${host}:${port}/metrics`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
