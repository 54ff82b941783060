import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { requireSharedSigningSecret, type Config } from './config.js';
import { migrateToLatest } from './db/migrator.js';
import { startSearchIndexJob } from './search/search-index.job.js';
import { COMMAND_TIMEOUTS, openStore, type Store, type StoreOptions } from './db/store.js';
import { trackConnections, type ConnectionTracker } from './http/connections.js';
import { startApiKeyRetention } from './modules/api-keys/api-keys.retention.js';
import { startDashboardCompaction } from './modules/dashboard/dashboard.compaction.js';
import { startEventRetention } from './modules/events/events.retention.js';
import { bootstrapIfEmpty } from './modules/organizations/organizations.service.js';
import { startWebhookWorker } from './modules/webhooks/webhooks.worker.js';
import { createMessageIds } from './modules/mail/mail.message-ids.js';
import { startMailOutbox } from './modules/mail/mail.outbox.worker.js';
import { startAttachmentRecovery } from './modules/mail/mail.attachments.recovery.js';
import { startSlaSweeper } from './modules/sla/sla.sweeper.js';
import { startSmtpListener } from './modules/mail/mail.smtp-listener.js';
import { startImapWorker } from './modules/mail/mail.imap.worker.js';
import { startBulkWorker } from './modules/jobs/jobs.worker.js';
import { startTriggerWorker } from './modules/automations/triggers.worker.js';
import { startAutomationsJob } from './modules/automations/automations.job.js';
import { startRuleRunRetention } from './modules/automations/automations.retention.js';
import { startJobRetention } from './modules/jobs/jobs.retention.js';
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
  const storeOptions: StoreOptions = { dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize };
  // Migrations may build indexes on large tables: they run on a connection of their own, without
  // the statement timeouts that bound requests.
  const applied = await migrateWith({ ...storeOptions, poolSize: 1, timeouts: COMMAND_TIMEOUTS });
  for (const name of applied) out.stderr.write(`ticketing: applied migration ${name}\n`);
  const store = openStore({ ...storeOptions, timeouts: config.databaseTimeouts, search: config.search });
  let app: FastifyInstance | undefined;
  let address: string;
  let bootstrapKey: string | null = null;
  let connections: ConnectionTracker;
  try {
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

    // Loaded only when asked for: without METRICS_PORT, prom-client is never imported.
    const metrics = config.metrics ? (await import('./observability/metrics.js')).createMetrics() : undefined;
    app = await buildApp({ config, store, blobs, metrics });
    sweepWhileServing(app, blobs, store.db);
    connections = trackConnections(app.server);
    // Background jobs, once listening: webhook deliveries and the mail outbox (every process takes
    // part), the event retention sweep, the dead API keys' retention sweep, the dashboard counters'
    // compaction and (PostgreSQL) the search index's merge. They stop as soon as shutdown begins,
    // before the store they use is closed.
    const jobs: Array<{ stop(): Promise<void> }> = [];
    app.addHook('preClose', async () => {
      await Promise.all(jobs.map((job) => job.stop()));
    });
    address = await app.listen({ host: config.host, port: config.port });
    jobs.push(
      startWebhookWorker({ store, config, log: app.log, onOutcome: metrics?.webhookOutcome }),
      startMailOutbox({ store, blobs, config, log: app.log }),
      startEventRetention({ store, config, log: app.log }),
      startApiKeyRetention({ store, config, log: app.log }),
      startDashboardCompaction({ store, config, log: app.log }),
      startSearchIndexJob({ store, log: app.log }),
      // SLA deadlines: one process of a fleet at a time (leased).
      startSlaSweeper({ store, config, log: app.log }),
    );
    const mailer = { messageIds: createMessageIds(config), publicUrl: config.publicUrl };
    // IMAP mailboxes are read by every process in turn (leased one at a time); bulk jobs' items
    // are shared by every process (leased a batch at a time).
    jobs.push(startImapWorker({ store, blobs, config, mailer, log: app.log }), startBulkWorker({ store, config, mailer, log: app.log }));
    // Mail whose attachments a crash left unkept (the intake marks them until they are all kept).
    jobs.push(startAttachmentRecovery({ store, blobs, config, log: app.log }));
    // Triggers follow the event log after each commit; automations are swept every AUTOMATIONS_INTERVAL_MS.
    jobs.push(startTriggerWorker({ store, mailer, log: app.log }), startAutomationsJob({ store, mailer, config, log: app.log }));
    // Hourly: trigger and automation runs that can no longer matter, and bulk jobs long finished.
    jobs.push(startRuleRunRetention({ store, config, log: app.log }), startJobRetention({ store, config, log: app.log }));
    if (config.mail.smtpListener) {
      const listener = await startSmtpListener({ store, blobs, config, mailer, log: app.log }, config.mail.smtpListener);
      jobs.push(listener);
      out.stderr.write(`ticketing: SMTP listener for mailboxes on ${config.mail.smtpListener.host}:${listener.port}\n`);
    }
    // GET /metrics on its own port (METRICS_PORT), never the API's.
    const metricsServer = metrics && (await (await import('./observability/metrics.server.js')).startMetricsServer({ metrics, store, config, log: app.log }));
    if (metricsServer) {
      jobs.push(metricsServer);
      out.stderr.write(`ticketing: metrics at ${metricsServer.address}\n`);
    }
  } catch (error) {
    await app?.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
  out.stderr.write(`ticketing: listening on ${address}\n`);
  if (config.docsEnabled) {
    // PUBLIC_URL when it was set; else the address really listened on (PORT=0 picks a free one).
    const base = config.publicUrl === `http://${config.host}:${config.port}` ? address : config.publicUrl;
    out.stderr.write(`ticketing: API documentation at ${base}/docs (the OpenAPI document at ${base}/openapi.json)\n`);
  }
  return lifecycle({ app, store, config, out, connections }, address, bootstrapKey, options.handleSignals ?? true);
}

async function migrateWith(options: StoreOptions): Promise<string[]> {
  const store = openStore(options);
  try {
    return await migrateToLatest(store.db);
  } finally {
    await store.close();
  }
}

function printBootstrapKey(out: ServerOutput, key: string): void {
  const rule = '='.repeat(72);
  out.stdout.write(
    `${rule}\nAdmin API key (shown once): ${key}\n` +
      `Store it now: only its hash is kept, so it cannot be shown again.\n${rule}\n`,
  );
}

interface Running {
  app: FastifyInstance;
  store: Store;
  config: Config;
  out: ServerOutput;
  connections: ConnectionTracker;
}

function lifecycle(running: Running, address: string, bootstrapKey: string | null, handleSignals: boolean): RunningServer {
  const { app, store, config, out, connections } = running;
  let settle: (code: number) => void = () => undefined;
  const closed = new Promise<number>((resolve) => (settle = resolve));
  let shuttingDown: Promise<number> | null = null;

  /**
   * A graceful stop without resets (docs/operations.md#shutting-down):
   * 1. The listener closes at once (new connections are refused, which a proxy retries elsewhere
   *    safely), /readyz answers 503, and every answer from now on carries `Connection: close`.
   * 2. Open keep-alive connections stay open for SHUTDOWN_GRACE_MS: a request a client sends on
   *    one is answered normally, and then the connection closes. (Node's server.close() would
   *    destroy them at once, and a request already on its way would meet a reset.) Requests still
   *    arriving — a body sent slowly, or never finished — may complete within the grace too.
   * 3. After the grace, idle connections and requests that have still not fully arrived are cut;
   *    requests being answered finish, then the store closes and the process exits 0.
   * SHUTDOWN_TIMEOUT_MS bounds the whole (exit 1).
   */
  const shutdown = (): Promise<number> => {
    shuttingDown ??= (async () => {
      const server = app.server;
      // An own property shadows the prototype's method that server.close() calls; deleted below.
      server.closeIdleConnections = () => undefined;
      let reaper: NodeJS.Timeout | undefined;
      const grace = setTimeout(() => {
        delete (server as Partial<typeof server>).closeIdleConnections;
        const cut = connections.closeAllButResponding();
        if (cut > 0) out.stderr.write(`ticketing: closed ${cut} connection(s) whose request had not fully arrived\n`);
        // A connection whose answer is still being sent closes after it (Connection: close); this
        // catches any that would stay open anyway.
        reaper = setInterval(() => connections.closeAllButResponding(), 100).unref();
      }, config.shutdownGraceMs).unref();
      try {
        await app.close();
        await store.close();
        return 0;
      } catch (error) {
        out.stderr.write(`ticketing: error while shutting down: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
      } finally {
        clearTimeout(grace);
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
