import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Three projects: `web`, the console's component tests (the *.test.tsx files of web/) in jsdom with
 * only the network faked (web/test/setup.ts), store-free, so never repeated below; `sqlite` runs
 * every suite of src/ and test/; `postgres`, only when TEST_DATABASE_URL is set, runs again every
 * suite that touches the store (each test app gets its own database, copied from a
 * template migrated once per run, all dropped at the end). Under CI=true PostgreSQL is required:
 * no TEST_DATABASE_URL, or one that does not answer, fails the run instead of skipping.
 */
const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
if (process.env.CI === 'true' && !testDatabaseUrl) {
  throw new Error('CI runs the suite on PostgreSQL too: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
}

const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];

/** Suites that reach a store go through the test-app helpers; the others need not run twice. */
function storeFreeSuites(): string[] {
  const files = ['src', 'test'].flatMap((dir) =>
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => join(dir, f)),
  );
  return files.filter((f) => !/\b(buildTestApp|testPostgresDatabase|TEST_STORE)\b/.test(readFileSync(f, 'utf8')));
}

export default defineConfig({
  test: {
    include,
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      // Not `extends`: the root's include (src/, test/) would be merged into it.
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/**/*.test.tsx'],
          setupFiles: ['web/test/setup.ts'],
          testTimeout: 30_000,
          environmentOptions: { jsdom: { url: 'http://console.test/app/' } },
        },
      },
      { extends: true, test: { name: 'sqlite', env: { TEST_STORE: 'sqlite' }, sequence: { groupOrder: 0 } } },
      ...(testDatabaseUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                env: { TEST_STORE: 'postgres' },
                // After the SQLite pass. These suites mostly wait on the database server, so two of
                // them overlap well even on a two-core machine (where vitest's default is one worker).
                sequence: { groupOrder: 1 },
                maxWorkers: 2,
                exclude: [...configDefaults.exclude, ...storeFreeSuites()],
                globalSetup: ['test/helpers/postgres-setup.ts'],
              },
            },
          ]
        : []),
    ],
  },
});
