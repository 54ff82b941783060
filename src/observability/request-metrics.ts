import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRouteHook, methodsOf } from '../shared/route-hooks.js';

/**
 * Request durations (docs/operations.md#metrics), kept apart from metrics.ts so the app can
 * register its hook without loading prom-client: this file imports nothing of it.
 */

/** What registerRequestMetrics needs of the metrics. */
export interface RequestMetrics {
  readonly requests: SeriesHistogram;
}

/** One labelled series of a SeriesHistogram: its buckets' counts, the sum and the count. */
export class Series {
  readonly counts: number[];
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length).fill(0);
  }
  observe(value: number): void {
    const { bounds, counts } = this;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        counts[i]!++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

/**
 * A Prometheus histogram whose series are made ahead (one per route, method and status class):
 * observing is a loop over the bounds and two additions, with no label hashing, validation or
 * allocation, which prom-client's own Histogram does on every observation. Exposed to the
 * registry as a metric of its own, in prom-client's format.
 */
export class SeriesHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** The series of these labels, made on first use. */
  child(labels: Record<string, string>): Series {
    const key = JSON.stringify(labels);
    let series = this.series.get(key);
    if (!series) {
      series = new Series(labels, this.bounds);
      this.series.set(key, series);
    }
    return series;
  }

  /** Observes without labels (a histogram of one series). */
  observe(value: number): void {
    this.child({}).observe(value);
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> } {
    const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = [];
    for (const series of this.series.values()) {
      // Series made ahead but never observed stay out of the scrape.
      if (series.count === 0) continue;
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += series.counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...series.labels, le: bound }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...series.labels, le: '+Inf' }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** The label of requests no route took: unknown addresses, and known ones asked with another method. */
export const UNMATCHED_ROUTE = 'unmatched';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** A route's series by method and status class, made when first needed. */
class RouteSeries {
  private readonly byMethod = new Map<string, Series[]>();
  constructor(
    private readonly durations: SeriesHistogram,
    private readonly route: string,
    methods: string[],
  ) {
    for (const method of methods) this.of(method);
  }
  private of(method: string): Series[] {
    let classes = this.byMethod.get(method);
    if (!classes) {
      classes = STATUS_CLASSES.map((status) => this.durations.child({ route: this.route, method, status_class: status }));
      this.byMethod.set(method, classes);
    }
    return classes;
  }
  observe(request: FastifyRequest, reply: FastifyReply): void {
    const index = Math.min(Math.max(Math.floor(reply.statusCode / 100), 1), 5) - 1;
    // The not-found context takes any method: its methods get their series on first use.
    this.of(request.method)[index]!.observe(reply.elapsedTime / 1000);
  }
}

/**
 * Times every request into `metrics.requests`, labelled by route template (`/v1/tickets/:ticket_id`,
 * never an id), method and status class. Each route gets its own onResponse hook holding its
 * series (nothing is looked up per request); the one app-level hook counts what no route took,
 * which only app-level hooks see. Call before any route is added. No-op without metrics.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: RequestMetrics | undefined): void {
  if (!metrics) return;
  const durations = metrics.requests;
  app.addHook('onRoute', (route) => {
    const series = new RouteSeries(durations, route.url ?? route.path, methodsOf(route.method));
    addRouteHook(route, 'onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      series.observe(request, reply);
      done();
    });
  });
  const unmatched = new RouteSeries(durations, UNMATCHED_ROUTE, []);
  // Synchronous (no promise per request); returns at once for routed requests.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched.observe(request, reply);
    done();
  });
}
