import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import type { TestDatabase } from './helpers/postgres.js';
import { root } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/** One sample line of a scrape: name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('GET /metrics (METRICS_PORT)', () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let server: RunningServer;
  let metricsUrl: string;
  let key: string;
  const stderr = { text: '' };
  // A webhook receiver that always fails: its deliveries stay pending, retried later.
  let receiver: Server;
  let received = 0;

  beforeAll(async () => {
    receiver = createServer((_req, res) => {
      received++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    database = TEST_STORE === 'postgres' ? await testPostgresDatabase() : undefined;
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-metrics-'));
    const storeEnv: Record<string, string> = database ? { DATABASE_URL: database.url, SIGNING_SECRET: randomBytes(36).toString('base64url') } : {};
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'silent', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_POLL_INTERVAL_MS: '50', WEBHOOKS_RETRY_SCHEDULE: '1h', ...storeEnv });
    server = await startServer(config, {
      output: { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr.text += t) } },
      handleSignals: false,
    });
    key = server.bootstrapKey!;
    metricsUrl = /metrics at (http:\/\/\S+\/metrics)/.exec(stderr.text)![1]!;
  }, 60_000);

  afterAll(async () => {
    await server?.shutdown();
    receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
    database?.drop();
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.address}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });
  const scrape = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return { text: await res.text(), samples: parse(await (await fetch(metricsUrl)).text()) };
  };

  it('listens on its own port: the API has no /metrics, the metrics port nothing else', async () => {
    expect(new URL(metricsUrl).port).not.toBe(new URL(server.address).port);
    expect(new URL(metricsUrl).hostname).toBe('127.0.0.1');
    expect((await fetch(`${server.address}/metrics`)).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/v1/tickets'))).status).toBe(404);
  });

  it('counts requests by route template, method and status class, never by concrete id', async () => {
    const unmatchedBefore =
      find((await scrape()).samples, 'ticketing_http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status_class: '4xx' })[0]?.value ?? 0;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await api('/v1/tickets', {
        method: 'POST',
        body: JSON.stringify({ customer_name: 'Ada', customer_email: `ada${i}@example.com`, subject: `Metrics ${i}`, description: 'Count me' }),
      });
      expect(created.status).toBe(201);
      ids.push(((await created.json()) as { id: string }).id);
    }
    for (const id of ids) expect((await api(`/v1/tickets/${id}`)).status).toBe(200);
    expect((await api(`/v1/tickets/${randomUUID()}`)).status).toBe(404);
    expect((await fetch(`${server.address}/no/such/address/${randomUUID()}`)).status).toBe(404);

    const { text, samples } = await scrape();
    const count = (labels: Record<string, string>) => find(samples, 'ticketing_http_request_duration_seconds_count', labels);
    expect(count({ route: '/v1/tickets/:ticket_id', method: 'GET', status_class: '2xx' })).toEqual([
      expect.objectContaining({ value: 3 }),
    ]);
    expect(count({ route: '/v1/tickets/:ticket_id', method: 'GET', status_class: '4xx' })[0]?.value).toBe(1);
    expect(count({ route: '/v1/tickets', method: 'POST', status_class: '2xx' })[0]?.value).toBe(3);
    expect(count({ route: 'unmatched', method: 'GET', status_class: '4xx' })[0]?.value).toBe(unmatchedBefore + 1);
    // Buckets add up to the count; +Inf is the count.
    const inf = find(samples, 'ticketing_http_request_duration_seconds_bucket', { route: '/v1/tickets/:ticket_id', status_class: '2xx', le: '+Inf' });
    expect(inf[0]?.value).toBe(3);
    for (const id of ids) expect(text).not.toContain(id);
    expect(text).not.toContain('/no/such/address');
  });

  it('reports the process, the event loop, searches, webhooks and (PostgreSQL) the pool', async () => {
    expect((await api('/v1/tickets?search=count')).status).toBe(200);
    const { samples } = await scrape();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'ticketing_search_slots',
      'ticketing_search_slots_in_use',
      'ticketing_search_waiting',
      'ticketing_webhook_deliveries_pending',
      'ticketing_webhook_oldest_pending_age_seconds',
    ]) {
      expect(find(samples, name).length, name).toBeGreaterThan(0);
    }
    expect(find(samples, 'ticketing_search_slots_in_use')[0]?.value).toBe(0);
    expect(find(samples, 'ticketing_webhook_delivery_attempts_total', { outcome: 'succeeded' })[0]?.value).toBe(0);
    const pool = find(samples, 'ticketing_store_pool_connections', { state: 'open' });
    if (TEST_STORE === 'postgres') {
      expect(pool[0]?.value).toBeGreaterThan(0);
      expect(find(samples, 'ticketing_store_pool_waiting')[0]?.value).toBe(0);
      expect(find(samples, 'ticketing_store_pool_acquire_seconds_count')[0]?.value).toBeGreaterThan(0);
    } else {
      // SQLite: one connection, no pool, nothing to report.
      expect(pool).toEqual([]);
    }
  });

  it('shows a webhook backlog: pending deliveries and the age of the oldest', async () => {
    const created = await api('/v1/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['ticket.created'] }),
    });
    expect(created.status).toBe(201);
    await api('/v1/tickets', {
      method: 'POST',
      body: JSON.stringify({ customer_name: 'Bo', customer_email: 'bo@example.com', subject: 'Backlog', description: 'Pending' }),
    });
    let retrying = 0;
    for (let i = 0; i < 100 && retrying === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      retrying = find((await scrape()).samples, 'ticketing_webhook_delivery_attempts_total', { outcome: 'retrying' })[0]?.value ?? 0;
    }
    expect(received).toBe(1);
    expect(retrying).toBe(1);
    await new Promise((r) => setTimeout(r, 1100));
    const { samples } = await scrape();
    expect(find(samples, 'ticketing_webhook_deliveries_pending')[0]?.value).toBe(1);
    expect(find(samples, 'ticketing_webhook_oldest_pending_age_seconds')[0]?.value).toBeGreaterThanOrEqual(1);
  });

  it('every metric a panel of the Grafana dashboard uses exists in a scrape', async () => {
    const dashboard = JSON.parse(readFileSync(join(root, 'docs', 'grafana-dashboard.json'), 'utf8')) as {
      panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
    };
    const { samples } = await scrape();
    const names = new Set(samples.map((s) => s.name));
    const functions = new Set(['sum', 'rate', 'irate', 'increase', 'histogram_quantile', 'by', 'without', 'max', 'min', 'avg', 'le', 'on', 'clamp_min', 'topk', 'deriv']);
    let checked = 0;
    for (const panel of dashboard.panels) {
      for (const target of panel.targets ?? []) {
        // Names outside braces and quotes, that are not PromQL functions or label names.
        const bare = target.expr.replace(/\{[^}]*\}/g, '').replace(/"[^"]*"/g, '').replace(/\[[^\]]*\]/g, '');
        const referenced = (bare.match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g) ?? []).filter(
          (word) => !functions.has(word) && !/^(route|method|status_class|state|outcome|instance|job)$/.test(word),
        );
        expect(referenced.length, `${panel.title}: ${target.expr}`).toBeGreaterThan(0);
        for (const name of referenced) {
          // SQLite has no pool: those panels stay empty there.
          if (TEST_STORE === 'sqlite' && name.startsWith('ticketing_store_pool_')) continue;
          expect(names.has(name), `${panel.title}: ${name} is not in a scrape`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('METRICS_PORT and METRICS_HOST', () => {
  it('are off by default, checked, and never the API port', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(() => loadConfig({ METRICS_PORT: '8080' })).toThrow(/METRICS_PORT must differ from PORT \(8080\)/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT must be a whole number from 0 to 65535/);
    expect(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '1.2.3' })).toThrow(/METRICS_HOST must be an IP address/);
  });
});
