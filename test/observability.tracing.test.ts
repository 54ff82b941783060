import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, root, spawnServe, waitFor, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/** A span as OTLP/HTTP JSON carries it (ids in hex). */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
  scope: string;
}

const SERVER_KIND = 2;

/** `ticketing serve` with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver in this test. */
describe('traces by OTLP/HTTP', () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let child: Child;
  let base: string;
  let key: string;
  let receiver: Server;
  const spans: Span[] = [];
  const contentTypes = new Set<string>();

  beforeAll(async () => {
    buildCli();
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        contentTypes.add(`${req.url} ${String(req.headers['content-type'])}`);
        const message = JSON.parse(body) as {
          resourceSpans: Array<{ scopeSpans: Array<{ scope: { name: string }; spans: Omit<Span, 'scope'>[] }> }>;
        };
        for (const resource of message.resourceSpans) {
          for (const scoped of resource.scopeSpans) for (const span of scoped.spans) spans.push({ ...span, scope: scoped.scope.name });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    database = TEST_STORE === 'postgres' ? await testPostgresDatabase() : undefined;
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-otel-'));
    const storeEnv: Record<string, string> = database ? { DATABASE_URL: database.url, SIGNING_SECRET: randomBytes(36).toString('base64url') } : {};
    const redisEnv: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_PREFIX: `otel-${randomBytes(4).toString('hex')}:` } : {};
    child = spawnServe({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'ticketing-test',
      ...storeEnv,
      ...redisEnv,
    });
    key = (await waitFor(child.proc.stdout!, /Admin API key \(shown once\): (key_admin_\w+)/, child.out))[1]!;
    base = await listening(child);
  }, 200_000);

  afterAll(async () => {
    child?.proc.kill('SIGTERM');
    await child?.exited;
    receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
    database?.drop();
  });

  it("links a request's server span to its handler's and its store statements' spans", async () => {
    const created = await fetch(`${base}/v1/tickets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Traced', description: 'Follow me' }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    expect((await fetch(`${base}/v1/tickets/${id}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

    const isGetServerSpan = (s: Span) =>
      s.kind === SERVER_KIND && (s.attributes ?? []).some((a) => a.key === 'http.route' && a.value.stringValue === '/v1/tickets/:ticket_id');
    let server: Span | undefined;
    for (let i = 0; i < 100 && !server; i++) {
      await new Promise((r) => setTimeout(r, 100));
      server = spans.find(isGetServerSpan);
    }
    expect(server, JSON.stringify(spans.map((s) => [s.scope, s.name]))).toBeDefined();
    expect([...contentTypes].some((c) => c.startsWith('/v1/traces application/json'))).toBe(true);
    // Give the batch with the rest of the trace a moment to arrive.
    await new Promise((r) => setTimeout(r, 500));

    const trace = spans.filter((s) => s.traceId === server!.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    /** The chain of parents from a span up to the trace's root. */
    const ancestors = (span: Span): Span[] => {
      const chain: Span[] = [];
      for (let parent = byId.get(span.parentSpanId ?? ''); parent; parent = byId.get(parent.parentSpanId ?? '')) chain.push(parent);
      return chain;
    };
    const fastify = trace.filter((s) => s.scope === '@fastify/otel');
    expect(fastify.length).toBeGreaterThan(0);
    for (const span of fastify) expect(ancestors(span)).toContain(server);

    const statements = trace.filter((s) => s.scope.includes('instrumentation-pg'));
    if (TEST_STORE === 'postgres') {
      // The key lookup joined with the ticket: at least one statement, each under the server span.
      expect(statements.length).toBeGreaterThan(0);
      for (const span of statements) expect(ancestors(span)).toContain(server);
      expect(statements.some((s) => (s.attributes ?? []).some((a) => a.key === 'db.system' || a.key === 'db.system.name'))).toBe(true);
    } else {
      // SQLite (better-sqlite3) has no instrumentation: no statement spans (docs/operations.md#tracing).
      expect(statements).toEqual([]);
    }
    if (process.env.REDIS_URL) {
      const commands = trace.filter((s) => s.scope.includes('instrumentation-ioredis'));
      expect(commands.length).toBeGreaterThan(0);
      for (const span of commands) expect(ancestors(span)).toContain(server);
    }
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT and METRICS_PORT', () => {
  it('no OpenTelemetry module is loaded, nor prom-client', () => {
    buildCli();
    const loaded = (withTracing: boolean) =>
      Number(
        execFileSync(
          process.execPath,
          [
            '-e',
            `(async () => {
              ${withTracing ? "(await import('./dist/src/observability/tracing.js')).startTracing;" : ''}
              await import('./dist/src/cli/main.js');
              const names = Object.keys(require('node:module')._cache).filter((p) => /@opentelemetry|@fastify[\\\\/]otel|prom-client/.test(p));
              process.stdout.write(String(names.length));
            })()`,
          ],
          { cwd: root, encoding: 'utf8', env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', METRICS_PORT: '' } },
        ),
      );
    expect(loaded(false)).toBe(0);
    // The check can see them: importing the tracing module loads many.
    expect(loaded(true)).toBeGreaterThan(5);
  });
});
