import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../src/auth/keys.service.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { createMetrics } from '../src/observability/metrics.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';

/**
 * What request metrics cost a get by id, without a network or a second process in the way: one
 * process builds the app twice on one SQLite store, with metrics and without, and alternates
 * batches of GET /v1/tickets/{id} (app.inject) between them, timing each batch's CPU. Prints each
 * pair's ratio and the medians. Run after `npm run build`: node dist/bench/metrics-overhead.js
 * (BENCH_AB_ROUNDS, default 30; BENCH_AB_BATCH, default 2000 requests).
 */
const rounds = Number(process.env.BENCH_AB_ROUNDS ?? 30);
const size = Number(process.env.BENCH_AB_BATCH ?? 2000);

const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-ab-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_ADMIN_PER_MINUTE: '1000000000' });
const store = openStore({ dataDir, databaseUrl: undefined });
try {
  await migrateToLatest(store.db);
  const organizationId = await createOrganization(store.db, 'Bench organization');
  const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
  const blobs = openBlobStore(config, store);
  const off = await buildApp({ config, store, blobs });
  const on = await buildApp({ config, store, blobs, metrics: createMetrics() });
  const headers = { authorization: `Bearer ${key}` };
  const created = await off.inject({
    method: 'POST',
    url: '/v1/tickets',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Bench', description: 'Metrics on and off' },
  });
  const id = (created.json<{ id: string }>()).id;
  const batch = async (app: FastifyInstance, n: number): Promise<number> => {
    const started = process.cpuUsage();
    for (let i = 0; i < n; i++) {
      const res = await app.inject({ url: `/v1/tickets/${id}`, headers });
      if (res.statusCode !== 200) throw new Error(`GET answered ${res.statusCode}: ${res.body}`);
    }
    const used = process.cpuUsage(started);
    return (used.user + used.system) / n;
  };
  await batch(off, size);
  await batch(on, size);
  const offRounds: number[] = [];
  const onRounds: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Every other pair in the other order.
    if (round % 2 === 0) {
      offRounds.push(await batch(off, size));
      onRounds.push(await batch(on, size));
    } else {
      onRounds.push(await batch(on, size));
      offRounds.push(await batch(off, size));
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const ratios = onRounds.map((v, i) => v / offRounds[i]!);
  process.stdout.write(
    `metrics on / off, CPU per GET /v1/tickets/{id} (app.inject, SQLite, ${rounds} pairs of ${size}):\n` +
      `  off ${median(offRounds).toFixed(2)} us, on ${median(onRounds).toFixed(2)} us (medians)\n` +
      `  paired ratios ${ratios.map((r) => r.toFixed(3)).join(' ')}; median ${median(ratios).toFixed(3)}\n`,
  );
  await off.close();
  await on.close();
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
