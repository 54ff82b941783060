import { collectDefaultMetrics, Counter, Gauge, Registry, type Metric } from 'prom-client';
import type { DeliveryOutcome } from '../modules/webhooks/webhooks.worker.js';
import { SeriesHistogram } from './request-metrics.js';

/**
 * The process's metrics (docs/operations.md#metrics), in a registry of its own: prom-client's
 * default process and Node.js figures (event-loop lag included), request durations, and whatever
 * a part of the service registers with `gauge()` or `counter()` (the store, searches, webhooks).
 * server.ts imports this module only when METRICS_PORT is set: otherwise prom-client is never loaded.
 */
export interface Metrics {
  readonly registry: Registry;
  /** Request durations by route template, method and status class. */
  readonly requests: SeriesHistogram;
  /** Attempts of webhook deliveries by outcome (the delivery job's `onOutcome`). */
  webhookOutcome: (outcome: DeliveryOutcome) => void;
  /** A gauge read on each scrape; `collect` sets it (a throw leaves it without a value for this scrape). */
  gauge<L extends string>(name: string, help: string, labelNames: readonly L[], collect: (gauge: Gauge<L>) => void | Promise<void>): Gauge<L>;
  /** A counter that a job increments (precompute its children with `labels()` on a hot path). */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L>;
  /** A histogram whose series are made once and observed without a label lookup. */
  histogram(name: string, help: string, buckets: readonly number[]): SeriesHistogram;
}

/** Request durations in seconds: a get by id takes well under a millisecond, an export many seconds. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const WEBHOOK_OUTCOMES: readonly DeliveryOutcome[] = ['succeeded', 'retrying', 'failed', 'interrupted'];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const histogram = (name: string, help: string, buckets: readonly number[]): SeriesHistogram => {
    const metric = new SeriesHistogram(name, help, buckets);
    registry.registerMetric(metric as unknown as Metric);
    return metric;
  };
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const outcomes = counter(
    'ticketing_webhook_delivery_attempts_total',
    'Webhook delivery attempts by this process, by outcome: succeeded, retrying (failed, due again later), failed (for good), interrupted (by a shutdown)',
    ['outcome'],
  );
  // Every outcome from the start, at 0, so a rate over them never lacks a series.
  const byOutcome = new Map(WEBHOOK_OUTCOMES.map((o) => [o, outcomes.labels(o)]));
  for (const child of byOutcome.values()) child.inc(0);
  return {
    registry,
    requests: histogram(
      'ticketing_http_request_duration_seconds',
      'Time from a request arriving to its answer being sent, by route template, method and status class',
      DURATION_BUCKETS,
    ),
    webhookOutcome: (outcome) => byOutcome.get(outcome)?.inc(),
    gauge: (name, help, labelNames, collect) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          this.reset();
          try {
            await collect(this);
          } catch {
            // No value this scrape (the store is down, say): absent is truer than a stale figure.
            this.reset();
          }
        },
      }),
    counter,
    histogram,
  };
}
