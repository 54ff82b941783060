import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { startBulkWorker } from '../src/modules/jobs/jobs.worker.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { benchEnv, scratchDatabase } from './common.js';
import { seed } from './seed.js';

/**
 * The bulk part of `npm run bench` (BENCH_BULK_ONLY=1 runs it alone): one bulk change of
 * BENCH_BULK_TICKETS (1,000) tickets, from `POST /v1/tickets/bulk` to `GET /v1/jobs/{id}` saying
 * completed, worked by one process's bulk job (as `ticketing serve` runs it), each ticket in its
 * own transaction with its event. SQLite in a temporary directory, or a scratch database on the
 * PostgreSQL server `serverUrl` names. Targets: 10 s on SQLite, 20 s on PostgreSQL.
 */
const TICKETS = Number(process.env.BENCH_BULK_TICKETS ?? 1_000);
const ROUNDS = 3;

export async function bulkBench(serverUrl: string | undefined, log: (text: string) => void): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-bulk-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'bulk') : undefined;
  const config = loadConfig(benchEnv(dataDir, scratch?.url));
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: config.databaseTimeouts, search: config.search });
  const label = serverUrl ? 'PostgreSQL' : 'SQLite';
  try {
    await migrateToLatest(store.db);
    const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
    const org = await createOrganization(store.db, 'Bulk bench');
    const { key } = await createApiKey(store.db, { organizationId: org, role: 'admin', name: 'bench' });
    log(`bulk: seeding ${TICKETS} tickets (${label})...`);
    const { ticketIds } = await seed(store, org, { tickets: TICKETS, customers: 100 });
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
      if (res.statusCode >= 300) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return res.json<{ job_id: string; status: string; done: number; failed: number }>();
    };
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, level: 'silent' };
    const worker = startBulkWorker({ store, config, log: quiet });
    const times: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const actions = [{ field: 'priority', value: round % 2 === 0 ? 'urgent' : 'low' }];
        const started = performance.now();
        const { job_id } = await call('POST', '/v1/tickets/bulk', { ids: ticketIds.slice(0, TICKETS), actions });
        let job;
        do {
          await new Promise((resolve) => setTimeout(resolve, 20));
          job = await call('GET', `/v1/jobs/${job_id}`);
        } while (job.status === 'queued' || job.status === 'running');
        times.push((performance.now() - started) / 1000);
        if (job.failed > 0 || job.done !== TICKETS) throw new Error(`bulk job ended ${job.status} with ${job.done} done, ${job.failed} failed`);
      }
    } finally {
      await worker.stop();
      await app.close();
    }
    const best = Math.min(...times);
    process.stdout.write(
      `bulk change (${label}): ${TICKETS} tickets per job, one process: ${times.map((s) => `${s.toFixed(2)} s`).join(', ')} ` +
        `(best ${best.toFixed(2)} s = ${(TICKETS / best).toFixed(0)} tickets/s; target ${serverUrl ? 20 : 10} s)\n`,
    );
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}
