import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject as injected } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createApiKey, type NewApiKey } from '../../src/auth/keys.service.js';
import { loadConfig, type Config } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { openStore, type Store } from '../../src/db/store.js';
import { createOrganization } from '../../src/modules/organizations/organizations.service.js';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { openBlobStore } from '../../src/storage/open-blob-store.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';

/** The store the suites run on: `sqlite`, or `postgres` in the postgres test project (vitest.config.ts). */
export const TEST_STORE: 'sqlite' | 'postgres' = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A fresh migrated PostgreSQL database of this test run (postgres project only), for suites that
 * start the service some other way than buildTestApp (the CLI, child processes). Drop it after.
 */
export async function testPostgresDatabase(): Promise<TestDatabase> {
  const run = injected('postgres');
  if (!run) throw new Error('No PostgreSQL test database: this runs in the postgres project only (TEST_DATABASE_URL)');
  return createTestDatabase(run);
}

export interface TestOrg {
  id: string;
  adminKey: string;
  /** Makes another key in this organization. */
  key(options?: Partial<Omit<NewApiKey, 'organizationId'>>): Promise<string>;
}

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  /** The attachment store the app uses (STORAGE_BACKEND). */
  blobs: BlobStore;
  config: Config;
  dataDir: string;
  /** The first organization, with an admin key holding every scope. */
  org: TestOrg;
  /** Another organization, for tenancy tests. */
  newOrg(name?: string): Promise<TestOrg>;
  /** `app.inject` with the bearer key and JSON body filled in. */
  request(options: TestRequest): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestRequest {
  method: InjectOptions['method'];
  url: string;
  key?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Boots the app exactly as production does (same buildApp, same config loader), on a fresh
 * migrated store (TEST_STORE: a SQLite file or a PostgreSQL database of its own) and its own
 * temporary data directory.
 */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-test-'));
  const database = TEST_STORE === 'postgres' ? await testPostgresDatabase() : undefined;
  // PostgreSQL is production mode, which wants the signing secret configured, not generated.
  const storeEnv: Record<string, string> = database
    ? { DATABASE_URL: database.url, SIGNING_SECRET: randomBytes(36).toString('base64url') }
    : {};
  let store: Store | undefined;
  let blobs: BlobStore | undefined;
  let app: FastifyInstance | undefined;
  const close = async () => {
    try {
      await app?.close();
      await store?.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      database?.drop();
    }
  };
  let config: Config;
  try {
    config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:8080', ...storeEnv, ...env });
    store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: config.databaseTimeouts, search: config.search });
    await migrateToLatest(store.db);
    blobs = openBlobStore(config, store);
    app = await buildApp({ config, store, blobs });
    await app.ready();
  } catch (error) {
    await close();
    throw error;
  }
  const db = store.db;
  const fastify = app;

  const newOrg = async (name = 'Test organization'): Promise<TestOrg> => {
    const id = await createOrganization(db, name);
    const key = async (options: Partial<Omit<NewApiKey, 'organizationId'>> = {}) =>
      (await createApiKey(db, { organizationId: id, role: 'admin', name: 'test key', ...options })).key;
    return { id, adminKey: await key(), key };
  };
  const org = await newOrg();

  const request = (options: TestRequest) => {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? org.adminKey : options.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    const inject: InjectOptions = { method: options.method, url: options.url, headers };
    if (options.body !== undefined) {
      inject.payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    return fastify.inject(inject);
  };

  return { app: fastify, store, blobs, config, dataDir, org, newOrg, request, close };
}
