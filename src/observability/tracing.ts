import { register } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { packageInfo } from '../openapi/package-info.js';

/**
 * Traces by OTLP over HTTP (docs/operations.md#tracing), for `ticketing serve` with
 * OTEL_EXPORTER_OTLP_ENDPOINT set. bin/ticketing.js imports this module, dynamically and only
 * then, before anything else of the service: the instrumentations patch `node:http`, fastify, pg
 * and ioredis as they load, so they must be in place first, and without the variable no
 * OpenTelemetry module is loaded at all.
 *
 * Spans: the HTTP server span of each request, Fastify's request and handler spans under it
 * (@fastify/otel, the Fastify team's instrumentation; its per-hook spans are off: a request runs a
 * dozen hooks), and every PostgreSQL statement (pg) and Redis command (ioredis) under those.
 * SQLite (better-sqlite3) has no instrumentation: its statements make no spans.
 * The exporter reads the standard variables itself (OTEL_EXPORTER_OTLP_ENDPOINT,
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_BSP_*...).
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): { shutdown(): Promise<void> } {
  // pg and ioredis are imported by ES modules: Node's ESM loader must let the instrumentations
  // wrap them (import-in-the-middle). CommonJS requires (fastify's of node:http) are hooked too.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME ?? 'ticketing',
      [ATTR_SERVICE_VERSION]: packageInfo().version,
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation(),
      new FastifyOtelInstrumentation({ registerOnInitialization: true, instrumentHooks: false }),
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  return { shutdown: () => provider.shutdown() };
}
