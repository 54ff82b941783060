import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { isPostgresUrl } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { openStore } from '../src/db/store.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { benchEnv, percentile, scratchDatabase, serveProcess } from './common.js';

/**
 * `node dist/bench/live.js` (after `npm run build`): how long a change by one agent takes to show on
 * another agent's live stream (GET /v1/stream): from sending the PATCH to the `change` message
 * arriving, BENCH_LIVE_SAMPLES times (default 200), one after the other. One `ticketing serve`
 * process (SQLite, or a scratch PostgreSQL database when DATABASE_URL names a server), and with
 * PostgreSQL also three processes, the writer and the reader always on different ones (the reader
 * learns of the change by polling the feed's head, LIVE_POLL_INTERVAL_MS). Figures, not a test.
 */
const serverUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : undefined;
const SAMPLES = Number(process.env.BENCH_LIVE_SAMPLES ?? 200);

/** Reads a stream's `change` messages; `waitFor(id)` resolves when the change of that resource arrives. */
async function follow(base: string, key: string): Promise<{ waitFor(resourceId: string): Promise<void>; close(): void }> {
  const controller = new AbortController();
  const res = await fetch(`${base}/v1/stream`, { headers: { authorization: `Bearer ${key}` }, signal: controller.signal });
  if (res.status !== 200) throw new Error(`stream: ${res.status} ${await res.text()}`);
  const waiting = new Map<string, () => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!block.startsWith('event: change') || !data) continue;
          const id = (JSON.parse(data) as { resource_id: string }).resource_id;
          waiting.get(id)?.();
        }
      }
    } catch {
      // Aborted.
    }
  })();
  return {
    waitFor: (resourceId) => new Promise<void>((resolve) => waiting.set(resourceId, () => (waiting.delete(resourceId), resolve()))),
    close: () => controller.abort(),
  };
}

async function measure(label: string, writers: string[], readers: string[], key: string): Promise<void> {
  const json = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await fetch(`${writers[0]}/v1/tickets`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ subject: 'Live bench', description: 'x', customer_name: 'C', customer_email: 'live-bench@example.com' }),
  });
  const ticketId = ((await created.json()) as { id: string }).id;
  const streams = await Promise.all(readers.map((base) => follow(base, key)));
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const stream = streams[i % streams.length]!;
    const writer = writers[i % writers.length]!;
    const seen = stream.waitFor(ticketId);
    const started = performance.now();
    const res = await fetch(`${writer}/v1/tickets/${ticketId}`, { method: 'PATCH', headers: json, body: JSON.stringify({ subject: `Live bench ${i}` }) });
    if (res.status !== 200) throw new Error(`PATCH: ${res.status} ${await res.text()}`);
    await seen;
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
  for (const s of streams) s.close();
  times.sort((a, b) => a - b);
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  process.stdout.write(
    `${label}: change visible on another agent's stream p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, ` +
      `max ${ms(times[times.length - 1]!)} (${SAMPLES} changes; load average ${loadavg()[0]!.toFixed(2)})\n`,
  );
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-bench-live-'));
  const scratch = serverUrl ? await scratchDatabase(serverUrl, 'live') : undefined;
  const env = benchEnv(dataDir, scratch?.url, { HOST: '127.0.0.1', PORT: '0' });
  const config = loadConfig(env);
  const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: 1 });
  const children: ChildProcess[] = [];
  try {
    await migrateToLatest(store.db);
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    await store.close();
    const store_ = scratch ? 'PostgreSQL' : 'SQLite';
    const one = await serveProcess(env, children);
    await measure(`${store_}, one process`, [one], [one], key);
    if (scratch) {
      const more = await Promise.all([1, 2].map(() => serveProcess({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'ticketing-bench-live-')) }, children)));
      const fleet = [one, ...more];
      // Writer on process i, reader on process i+1: never the same one.
      await measure(`${store_}, three processes (writer and reader on different ones)`, fleet, [...fleet.slice(1), fleet[0]!], key);
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    await store.close().catch(() => undefined);
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
