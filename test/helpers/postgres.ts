import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Test databases on PostgreSQL. Every test run makes one migrated template database (global setup)
 * and every test app its own copy of it (`CREATE DATABASE ... TEMPLATE`, a file copy: far faster
 * than migrating each time). All of a run's databases share its prefix, so the run's teardown
 * drops them all, also after failures.
 */

/** What the postgres project's global setup hands to the test files. */
export interface PostgresRun {
  /** TEST_DATABASE_URL: a database to connect to for CREATE/DROP DATABASE. */
  adminUrl: string;
  /** The migrated template database of this run. */
  template: string;
  /** Prefix of every database of this run. */
  prefix: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresRun | null;
  }
}

/** Names of test databases start with this, then the run's start time (base 36) and a random tag. */
export const TEST_DATABASE_PREFIX = 'ticketing_test_';

export function newRunPrefix(): string {
  return `${TEST_DATABASE_PREFIX}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}_`;
}

/** The connection string of another database on the same server. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

const ident = (name: string): string => {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`Unexpected test database name ${name}`);
  return `"${name}"`;
};

export async function createDatabase(admin: pg.Pool | pg.Client, name: string, template?: string): Promise<void> {
  await admin.query(`create database ${ident(name)}${template ? ` template ${ident(template)}` : ''}`);
}

/** Drops a database even while something is still connected to it. */
export async function dropDatabase(admin: pg.Pool | pg.Client, name: string): Promise<void> {
  await admin.query(`drop database if exists ${ident(name)} with (force)`);
}

/** The databases whose name starts with the prefix. */
export async function databasesLike(admin: pg.Pool | pg.Client, prefix: string): Promise<string[]> {
  const result = await admin.query<{ datname: string }>(
    "select datname from pg_database where starts_with(datname, $1) order by datname desc",
    [prefix],
  );
  return result.rows.map((r) => r.datname);
}

let admin: pg.Pool | undefined;
let counter = 0;

/** One small pool per test worker for CREATE/DROP DATABASE; it lets the worker exit when idle. */
function adminPool(run: PostgresRun): pg.Pool {
  admin ??= new pg.Pool({ connectionString: run.adminUrl, max: 2, idleTimeoutMillis: 1000, allowExitOnIdle: true });
  return admin;
}

export interface TestDatabase {
  name: string;
  url: string;
  /**
   * Drops the database in the background (a drop takes as long as a create, and nothing waits for
   * it); whatever is still there when the run ends, the run's teardown drops.
   */
  drop(): void;
}

/** A fresh, migrated database of this run, a copy of its template. */
export async function createTestDatabase(run: PostgresRun): Promise<TestDatabase> {
  const name = `${run.prefix}${process.pid}_${++counter}`;
  const pool = adminPool(run);
  await createDatabase(pool, name, run.template);
  return { name, url: databaseUrl(run.adminUrl, name), drop: () => void dropDatabase(pool, name).catch(() => {}) };
}
