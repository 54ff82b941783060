import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { requireSharedSigningSecret, type Config } from './config.js';
import { migrateToLatest } from './db/migrator.js';
import { openStore, type Store } from './db/store.js';
import { bootstrapIfEmpty } from './modules/organizations/organizations.service.js';
import { openBlobStore, sweepBlobStore, sweepWhileServing } from './storage/open-blob-store.js';

/** Where the server writes what a human must see: the one-time admin key goes to `stdout`. */
export interface ServerOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface ServerOptions {
  output?: ServerOutput;
  /** Install SIGTERM/SIGINT handlers (the CLI does; in-process tests call `shutdown` themselves). */
  handleSignals?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  /** The address the server listens on, e.g. `http://127.0.0.1:8080`. */
  address: string;
  /** The admin key made on the first start with an empty store, else null. */
  bootstrapKey: string | null;
  /** Stops accepting, lets in-flight requests finish, closes the store; resolves to an exit code. */
  shutdown(): Promise<number>;
  /** Settles with the exit code once the server has shut down. */
  closed: Promise<number>;
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Opens and migrates the store, reconciles attachment storage, creates the first admin key on an
 * empty store, builds the app and listens. Everything before `listen` runs while nothing can be in
 * flight, which is what makes the attachment sweep safe.
 */
export async function startServer(config: Config, options: ServerOptions = {}): Promise<RunningServer> {
  const out = options.output ?? { stdout: process.stdout, stderr: process.stderr };
  requireSharedSigningSecret(config);
  const store = openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
  let app: FastifyInstance | undefined;
  let address: string;
  let bootstrapKey: string | null = null;
  try {
    const applied = await migrateToLatest(store.db);
    for (const name of applied) out.stderr.write(`ticketing: applied migration ${name}\n`);

    const blobs = openBlobStore(config, store);
    const swept = await sweepBlobStore(blobs, store.db);
    if (swept.published + swept.removed > 0) {
      out.stderr.write(`ticketing: attachment storage reconciled (${swept.published} finished, ${swept.removed} removed)\n`);
    }

    const bootstrap = await bootstrapIfEmpty(store.db);
    if (bootstrap) {
      bootstrapKey = bootstrap.key;
      printBootstrapKey(out, bootstrap.key);
    }

    app = await buildApp({ config, store, blobs });
    sweepWhileServing(app, blobs, store.db);
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
  out.stderr.write(`ticketing: listening on ${address}\n`);
  return lifecycle(app, store, config, out, address, bootstrapKey, options.handleSignals ?? true);
}

function printBootstrapKey(out: ServerOutput, key: string): void {
  const rule = '='.repeat(72);
  out.stdout.write(
    `${rule}\nAdmin API key (shown once): ${key}\n` +
      `Store it now: only its hash is kept, so it cannot be shown again.\n${rule}\n`,
  );
}

function lifecycle(
  app: FastifyInstance,
  store: Store,
  config: Config,
  out: ServerOutput,
  address: string,
  bootstrapKey: string | null,
  handleSignals: boolean,
): RunningServer {
  let settle: (code: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (settle = resolve));
  let shuttingDown: Promise<number> | null = null;

  const shutdown = (): Promise<number> => {
    shuttingDown ??= (async () => {
      // app.close stops accepting, closes idle keep-alive connections and answers 503 to requests
      // that arrive on busy ones; it resolves when every connection has ended. A connection whose
      // request was in flight turns idle once answered, but a keep-alive client would hold it
      // open, so idle connections are closed again until the server is done.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 100).unref();
      try {
        await app.close();
        await store.close();
        return 0;
      } catch (error) {
        out.stderr.write(`ticketing: error while shutting down: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      } finally {
        clearInterval(reaper);
      }
    })().then((code) => {
      for (const signal of SIGNALS) process.off(signal, onSignal);
      settle(code);
      return code;
    });
    return shuttingDown;
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (shuttingDown) {
      out.stderr.write(`ticketing: ${signal} again, exiting without waiting\n`);
      process.exit(1);
    }
    out.stderr.write(`ticketing: ${signal} received, finishing in-flight requests (up to ${config.shutdownTimeoutMs} ms)\n`);
    // Unref'd: it must not keep an otherwise finished process alive, only cut a stuck one short.
    const timer = setTimeout(() => {
      out.stderr.write('ticketing: shutdown timed out, exiting\n');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    void shutdown().then((code) => {
      clearTimeout(timer);
      out.stderr.write('ticketing: stopped\n');
      // Should a stray handle keep the event loop alive, still leave with the right code.
      setTimeout(() => process.exit(code), 2_000).unref();
    });
  };

  if (handleSignals) for (const signal of SIGNALS) process.on(signal, onSignal);
  return { app, address, bootstrapKey, shutdown, closed };
}
