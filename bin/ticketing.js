#!/usr/bin/env node
// The compiled CLI lives in dist/; `npm run build` (or `npm start`) produces it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
if (!existsSync(entry)) {
  process.stderr.write('ticketing: not built yet; run `npm run build` first\n');
  process.exit(1);
}
// Traces (docs/operations.md#tracing): set up before the service's modules load, so the
// instrumentations can wrap them; without the variable, no OpenTelemetry module is loaded.
const tracing =
  process.argv[2] === 'serve' && process.env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? (await import(new URL('../dist/src/observability/tracing.js', import.meta.url).href)).startTracing()
    : undefined;
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
// The spans of the last requests are still queued: send them before exiting.
await tracing?.shutdown().catch(() => undefined);
