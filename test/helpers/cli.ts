import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach } from 'vitest';
import { buildApp } from '../../src/app.js';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/db/store.js';
import { openBlobStore } from '../../src/storage/open-blob-store.js';

/** What one in-process run of the `ticketing` command did. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI's `main` in-process with `env` as its environment, capturing its output. */
export async function runMain(argv: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    ...(stdin === undefined ? {} : { stdin: Readable.from([stdin]) }),
  };
  const code = await main(argv, io, env);
  return { code, stdout, stderr };
}

export interface CliSandbox {
  /** This test's data directory (a fresh SQLite store); removed after the test. */
  readonly dataDir: string;
  /** The environment the CLI runs with; a test may replace it. */
  env: NodeJS.ProcessEnv;
  run(...argv: string[]): Promise<CliRun>;
  /** Calls the API with a key, through an app built over the CLI's store. */
  call<B = unknown>(key: string, url?: string): Promise<{ status: number; body: B }>;
}

/** A fresh data directory per test (registered as beforeEach/afterEach) for CLI suites. */
export function cliSandbox(prefix: string): CliSandbox {
  let dataDir = '';
  const sandbox: CliSandbox = {
    get dataDir() {
      return dataDir;
    },
    env: {},
    run: (...argv) => runMain(argv, sandbox.env),
    async call<B>(key: string, url = '/v1/test') {
      const config = loadConfig(sandbox.env);
      const store = openStore({ dataDir: config.dataDir });
      const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
      try {
        const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
        return { status: res.statusCode, body: res.json<B>() };
      } finally {
        await app.close();
        await store.close();
      }
    },
  };
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), prefix));
    sandbox.env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });
  return sandbox;
}
