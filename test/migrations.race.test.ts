import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { createDatabase, databaseUrl, dropDatabase } from './helpers/postgres.js';
import { buildCli, root } from './helpers/processes.js';
import { TEST_STORE } from './helpers/test-app.js';

/**
 * Several processes starting at the same moment on an empty store each run the migrations (serve
 * does, before it listens). On SQLite each run holds the write lock throughout, so none fails with
 * `database is locked` or `table already exists`; PostgreSQL uses
 * Kysely's advisory lock. Real processes of the built CLI, started together, several rounds.
 */
const PROCESSES = 4;
/** Enough to catch the race without the lock (bench/RESULTS.md#resilience). */
const ROUNDS = 3;

interface Run {
  code: number;
  stderr: string;
}

function migrate(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin', 'ticketing.js'), 'migrate'], { cwd: root, env: { ...process.env, ...env }, timeout: 120_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stderr }),
    );
  });
}

/** Every process succeeded, and each migration was applied by exactly one of them. */
function expectOneMigrationRun(runs: Run[]): void {
  expect(runs.filter((r) => r.code !== 0).map((r) => r.stderr)).toEqual([]);
  const applied = runs.flatMap((r) => [...r.stderr.matchAll(/^applied (\S+)$/gm)].map((m) => m[1]));
  expect(applied.length).toBeGreaterThan(0);
  expect(new Set(applied).size).toBe(applied.length);
}

describe('processes migrating an empty store at the same moment', () => {
  beforeAll(buildCli, 200_000);

  it.runIf(TEST_STORE === 'sqlite')(`SQLite: ${PROCESSES} processes on an empty data directory, ${ROUNDS} rounds, all succeed`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-race-'));
      try {
        expectOneMigrationRun(await Promise.all(Array.from({ length: PROCESSES }, () => migrate({ DATA_DIR: dataDir }))));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }, 120_000);

  it.runIf(TEST_STORE === 'postgres')(`PostgreSQL: ${PROCESSES} processes on an empty database, ${ROUNDS} rounds, all succeed`, async () => {
    const run = inject('postgres');
    if (!run) throw new Error('the postgres project provides the test run');
    const admin = new pg.Client({ connectionString: run.adminUrl });
    await admin.connect();
    const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-race-'));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        // Empty, not a copy of the migrated template; named with the run's prefix so the teardown drops it in any case.
        const name = `${run.prefix}race_${process.pid}_${round}`;
        await createDatabase(admin, name);
        try {
          const env = { DATA_DIR: dataDir, DATABASE_URL: databaseUrl(run.adminUrl, name) };
          expectOneMigrationRun(await Promise.all(Array.from({ length: PROCESSES }, () => migrate(env))));
        } finally {
          await dropDatabase(admin, name);
        }
      }
    } finally {
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
