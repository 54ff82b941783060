import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest } from '../../src/db/migrator.js';
import { openStore } from '../../src/db/store.js';
import { TEST_DATABASE_PREFIX, createDatabase, databaseUrl, databasesLike, dropDatabase, newRunPrefix, type PostgresRun } from './postgres.js';

/** A run killed outright (no teardown) leaves its databases; the next run removes them after this long. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

/**
 * Global setup of the `postgres` test project: checks that TEST_DATABASE_URL answers (a run that
 * cannot reach it fails, it does not skip), migrates this run's template database, and returns the
 * teardown that drops every database of the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('The postgres test project needs TEST_DATABASE_URL');
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`TEST_DATABASE_URL is unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  admin.on('error', () => {});
  const prefix = newRunPrefix();
  const template = `${prefix}template`;
  try {
    await removeStaleDatabases(admin);
    await createDatabase(admin, template);
    const store = openStore({ dataDir: '', databaseUrl: databaseUrl(adminUrl, template), poolSize: 1 });
    try {
      await migrateToLatest(store.db);
    } finally {
      await store.close();
    }
  } catch (error) {
    await dropDatabase(admin, template).catch(() => {});
    await admin.end();
    throw error;
  }
  const run: PostgresRun = { adminUrl, template, prefix };
  project.provide('postgres', run);

  return async () => {
    try {
      // Twice: a worker's own background drop may race this one for the same database.
      for (let attempt = 0; attempt < 2; attempt++) {
        // Copies first: a template cannot be dropped while it is being copied.
        const names = (await databasesLike(admin, prefix)).sort((a, b) => Number(a === template) - Number(b === template));
        for (const name of names) await dropDatabase(admin, name).catch(() => {});
      }
      const left = await databasesLike(admin, prefix);
      if (left.length > 0) throw new Error(`Test databases left behind: ${left.join(', ')}`);
    } finally {
      await admin.end();
    }
  };
}

/** Databases of earlier runs that are older than any run can last: their run was killed. */
async function removeStaleDatabases(admin: pg.Client): Promise<void> {
  for (const name of await databasesLike(admin, TEST_DATABASE_PREFIX)) {
    const started = parseInt(name.slice(TEST_DATABASE_PREFIX.length).split('_')[0] ?? '', 36);
    if (Number.isFinite(started) && Date.now() - started > STALE_AFTER_MS) await dropDatabase(admin, name).catch(() => {});
  }
}
