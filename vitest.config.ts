import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The projects: `web`, the console's component tests (the *.test.tsx files of web/) in jsdom with
 * only the network faked (web/test/setup.ts), store-free, so never repeated below; `sqlite` runs
 * every suite of src/ and test/; `postgres`, only when TEST_DATABASE_URL is set, runs again every
 * suite that touches the store (each test app gets its own database, copied from a
 * template migrated once per run, all dropped at the end). Under CI=true PostgreSQL is required:
 * no TEST_DATABASE_URL, or one that does not answer, fails the run instead of skipping.
 *
 * Speed: suites run two at a time, each worker process keeping the modules it has loaded from one
 * suite to the next (`isolate: false`; loading the app again for every file was half of the run).
 * What a suite changes for itself is put back after it (test/helpers/per-suite.ts: fake timers, spied
 * functions); the suites that replace a module or move the clock cannot share loaded modules, so
 * they run in a project of their own, isolated (`sqlite:isolated`, `postgres:isolated`).
 */
const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
if (process.env.CI === 'true' && !testDatabaseUrl) {
  throw new Error('CI runs the suite on PostgreSQL too: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres)');
}

const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];

const suites = ['src', 'test'].flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => ({ file: join(dir, f), text: readFileSync(join(dir, f), 'utf8') })),
);
/** Suites that reach a store go through the test-app helpers; the others need not run twice. */
const storeFree = suites.filter((s) => !/\b(buildTestApp|testPostgresDatabase|TEST_STORE)\b/.test(s.text)).map((s) => s.file);
/**
 * Suites that cannot share a process's loaded modules: those that replace a module (`vi.mock`), and
 * those that move the clock (`setSystemTime`), since creation times only move forward within a
 * process (src/shared/clock.ts): a suite set in 2030 would date the next suite's records 2030.
 */
const isolated = suites.filter((s) => /\bvi\.mock\(|\.setSystemTime\(/.test(s.text)).map((s) => s.file);

/** A store's two projects: the suites that share loaded modules, and the isolated ones. */
function storeProjects(store: 'sqlite' | 'postgres', test: { exclude: string[]; groupOrder: number; globalSetup?: string[] }) {
  const common = {
    env: { TEST_STORE: store },
    sequence: { groupOrder: test.groupOrder },
    setupFiles: ['test/helpers/per-suite.ts'],
    ...(test.globalSetup ? { globalSetup: test.globalSetup } : {}),
  };
  const exclude = [...configDefaults.exclude, ...test.exclude];
  return [
    { extends: true as const, test: { ...common, name: store, isolate: false, exclude: [...exclude, ...isolated] } },
    // Selected by what it leaves out: an include of its own would be merged with the root's.
    { extends: true as const, test: { ...common, name: `${store}:isolated`, exclude: [...exclude, ...suites.map((s) => s.file).filter((f) => !isolated.includes(f))] } },
  ];
}

export default defineConfig({
  test: {
    include,
    pool: 'forks',
    // Two suites at a time, also on a two-core machine (vitest's default there is one): most wait
    // on processes, timers and the database server.
    maxWorkers: 2,
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
      ...storeProjects('sqlite', { exclude: [], groupOrder: 0 }),
      // After the SQLite pass. These suites mostly wait on the database server.
      ...(testDatabaseUrl ? storeProjects('postgres', { exclude: storeFree, groupOrder: 1, globalSetup: ['test/helpers/postgres-setup.ts'] }) : []),
    ],
  },
});
