import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { isPostgresUrl } from './db/dialect.js';
import type { SearchOptions } from './search/search-runner.js';
import type { StoreTimeouts } from './db/store.js';
import { WorkflowEnv, workflowConfig, type WorkflowConfig } from './config.workflow.js';

/** Environment variables the service reads, validated once at start. */
const EnvSchema = Type.Object({
  ...WorkflowEnv,
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  DATA_DIR: Type.String({ default: './data' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  STORAGE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  DATABASE_URL: Type.Optional(Type.String()),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  REDIS_PREFIX: Type.String({ default: 'ticketing:' }),
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1 })),
  SIGNING_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  STORAGE_BACKEND: Type.Optional(Type.Union([Type.Literal('disk'), Type.Literal('database')])),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  RATE_LIMIT_ADMIN_PER_MINUTE: Type.Integer({ minimum: 1, default: 2000 }),
  RATE_LIMIT_READONLY_PER_MINUTE: Type.Integer({ minimum: 1, default: 200 }),
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  RATE_LIMIT_PORTAL_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  RATE_LIMIT_UPLOADS_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 10 }),
  RATE_LIMIT_SIGN_IN_FAILURES_PER_ADDRESS: Type.Integer({ minimum: 1, default: 50 }),
  // 10 GiB per organization; 0 = no quota.
  STORAGE_QUOTA_BYTES: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 10 * 1024 ** 3 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  DOCS_ENABLED: Type.Boolean({ default: true }),
  // Resilience (docs/operations.md#timeouts): every wait is bounded; 0 turns a bound off.
  DATABASE_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 5_000 }),
  DATABASE_POOL_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  DATABASE_QUERY_TIMEOUT_MS: Type.Optional(Type.Integer({ minimum: 0 })),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 30_000 }),
  DATABASE_KEEPALIVE_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  REDIS_COMMAND_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 500 }),
  HTTP_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 120_000 }),
  HTTP_HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 30_000 }),
  HTTP_CONNECTION_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 60_000 }),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Integer({ minimum: 1, default: 72_000 }),
  SHUTDOWN_GRACE_MS: Type.Integer({ minimum: 0, default: 2_000 }),
  DATA_DIR_MIN_FREE_MB: Type.Integer({ minimum: 0, default: 64 }),
  EVENTS_RETENTION_DAYS: Type.Integer({ minimum: 0, maximum: 36_500, default: 30 }),
  DASHBOARD_COMPACTION_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 1_000 }),
  WEBHOOKS_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  WEBHOOKS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 120_000, default: 10_000 }),
  WEBHOOKS_RETRY_SCHEDULE: Type.String({ default: '5s,5m,30m,2h,5h,10h,10h' }),
  WEBHOOKS_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 500 }),
  WEBHOOKS_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 1000, default: 8 }),
  CORS_ORIGINS: Type.Optional(Type.String()),
  // Collections one organization can grow are bounded (docs/operations.md#bounded-collections).
  MAX_API_KEYS_PER_ORG: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1_000 }),
  MAX_WEBHOOKS_PER_ORG: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  MAX_VIEWS_PER_ORG: Type.Integer({ minimum: 1, maximum: 100_000, default: 200 }),
  MAX_MACROS_PER_ORG: Type.Integer({ minimum: 1, maximum: 100_000, default: 500 }),
  MAX_TRIGGERS_PER_ORG: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  MAX_AUTOMATIONS_PER_ORG: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  MAX_SLA_POLICIES_PER_ORG: Type.Integer({ minimum: 1, maximum: 1_000, default: 50 }),
  MAX_BUSINESS_HOURS_PER_ORG: Type.Integer({ minimum: 1, maximum: 100_000, default: 100 }),
  API_KEYS_RETENTION_DAYS: Type.Integer({ minimum: 0, maximum: 36_500, default: 30 }),
  // The email channel (docs/operations.md#email).
  MAIL_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  MAIL_MAX_MAILBOXES: Type.Integer({ minimum: 1, maximum: 10_000, default: 50 }),
  MAIL_SMTP_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  MAIL_SMTP_HOST: Type.Optional(Type.String({ minLength: 1 })),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_POLL_INTERVAL_MS: Type.Integer({ minimum: 100, maximum: 86_400_000, default: 60_000 }),
  MAIL_OUTBOX_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 1_000 }),
  MAIL_SEND_TIMEOUT_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 30_000 }),
  MAIL_RETRY_SCHEDULE: Type.String({ default: '1m,5m,30m,2h,6h,12h' }),
  MAIL_DOMAIN: Type.Optional(Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.-]+$' })),
  // Search (docs/operations.md#search).
  SEARCH_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 800 }),
  SEARCH_CONCURRENCY: Type.Integer({ minimum: 0, maximum: 64, default: 4 }),
  SEARCH_CONCURRENCY_PER_ORGANIZATION: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  // Observability (docs/operations.md#metrics): /metrics on a port of its own, off when unset.
  METRICS_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
  METRICS_HOST: Type.String({ default: '127.0.0.1' }),
});

export interface Config extends WorkflowConfig {
  host: string;
  port: number;
  dataDir: string;
  /** Base address clients use to reach the service, without a trailing slash. */
  publicUrl: string;
  /** Base of signed download addresses ({storage_url}), without a trailing slash. */
  storageUrl: string;
  databaseUrl: string | undefined;
  /** Connections in the PostgreSQL pool (unused with SQLite). */
  databasePoolSize: number;
  redisUrl: string | undefined;
  /** Prepended to every Redis key, so several installations (or test runs) can share one Redis. */
  redisPrefix: string;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (Fastify's `trustProxy`):
   * false (the default: the peer is the client), true (any), or comma-separated addresses/CIDRs.
   */
  trustProxy: boolean | string;
  signingSecret: string | undefined;
  /** Where attachment bytes live: files under DATA_DIR, or chunks in the store's tables. */
  storageBackend: 'disk' | 'database';
  logLevel: string;
  rateLimit: {
    adminPerMinute: number;
    readonlyPerMinute: number;
    authFailuresPerMinute: number;
    /** Requests per minute per client address to the customer portal (no API key there). */
    portalPerMinute: number;
    /** Attachment uploads per minute per API key (on top of its request budget). */
    uploadsPerMinute: number;
    windowMs: number;
    /** Failed sign-ins per 15 minutes per account (email, known or not) and per client address. */
    signInFailuresPerAccount: number;
    signInFailuresPerAddress: number;
    signInWindowMs: number;
  };
  shutdownTimeoutMs: number;
  /** Bytes of attachments each organization may store (0: no limit). */
  storageQuotaBytes: number;
  /** Serve the OpenAPI document (/openapi.json) and the interactive documentation (/docs). */
  docsEnabled: boolean;
  /** Bounds on every wait for PostgreSQL (connection, statement, answer, idle transaction, keepalive). */
  databaseTimeouts: StoreTimeouts;
  /** A Redis command (a rate-limit count, a readiness ping) that takes longer fails, and the limiter fails open. */
  redisCommandTimeoutMs: number;
  /** HTTP server timeouts (Node's http.Server, set through Fastify); 0 turns a bound off. */
  http: {
    /** Whole request (headers and body) received within this, or 408 and the connection closed. */
    requestTimeoutMs: number;
    /** Request headers received within this, or 408. */
    headersTimeoutMs: number;
    /** A connection with no bytes moving either way for this long is closed. */
    connectionTimeoutMs: number;
    /** An idle keep-alive connection is closed after this. */
    keepAliveTimeoutMs: number;
  };
  /**
   * On SIGTERM: how long idle keep-alive connections stay open (their next request is served with
   * `Connection: close`) and half-sent requests may finish arriving, before both are closed.
   */
  shutdownGraceMs: number;
  /** /readyz fails when the file system of the SQLite file or the attachment files has less free space. */
  minFreeBytes: number;
  /** Events (and their webhook deliveries) older than this many days are pruned; 0 keeps them forever. */
  eventsRetentionDays: number;
  /** How often the dashboard's counter deltas are folded into its totals (dashboard.compaction.ts). */
  dashboardCompactionIntervalMs: number;
  webhooks: WebhookConfig;
  mail: MailConfig;
  /** Browser origins allowed to call the API (CORS): any (`*`), a list, or none (null: CORS off). */
  corsOrigins: '*' | string[] | null;
  /** The most records of each bounded collection one organization may hold (src/limits/collection-caps.ts). */
  caps: {
    /** Active (neither revoked nor expired) API keys. */
    apiKeys: number;
    webhooks: number;
    /** Saved views, shared and personal. */
    views: number;
    macros: number;
    triggers: number;
    automations: number;
    /** SLA policies (each is tried on every ticket change, in memory). */
    slaPolicies: number;
    /** Business-hours calendars. */
    businessHours: number;
  };
  /** Revoked keys are deleted this many days after revocation, expired ones this long after expiry; 0 keeps them. */
  apiKeysRetentionDays: number;
  /** Time budget of a search, searches at once (SQLite worker threads, PostgreSQL connections), and per organization. */
  search: SearchOptions;
  /** Where `GET /metrics` listens (its own HTTP server, never the API's), or null: no metrics. */
  metrics: { host: string; port: number } | null;
}

export interface WebhookConfig {
  /** Allow plain http:// and targets on loopback, private, link-local and metadata addresses (development, tests). */
  allowPrivate: boolean;
  /** The limit of one delivery attempt: connecting, sending and receiving the response. */
  timeoutMs: number;
  /** Delays before each retry of a failed delivery, in milliseconds; once used up, the delivery has failed. */
  retryDelaysMs: number[];
  /** How often a process looks for due deliveries when it has nothing to do. */
  pollIntervalMs: number;
  /** Endpoints a process delivers to at the same time (each endpoint one delivery at a time, in order). */
  concurrency: number;
}

export interface MailConfig {
  /** Allow mail servers on loopback, private, link-local and metadata addresses (a mail server on the installation's own network). */
  allowPrivate: boolean;
  /** Mailboxes an organization may have. */
  maxMailboxes: number;
  /** The right-hand side of our Message-IDs. */
  domain: string;
  /** The installation's SMTP server (`smtp://` or `smtps://user:pass@host:port`), for mailboxes without their own. */
  smtpUrl: string | undefined;
  /** How often an IMAP mailbox is read. */
  pollIntervalMs: number;
  /** How often a process looks for queued mail. */
  outboxPollIntervalMs: number;
  /** How long one send may take; a dead process's lease runs out 5 s after it. */
  sendTimeoutMs: number;
  /** Delays before each retry of a failed send; once used up, the message has failed. */
  retryDelaysMs: number[];
  /** The SMTP listener for mailboxes of inbound type smtp; null: off. */
  smtpListener: { host: string; port: number } | null;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `5s,5m,30m,2h` as milliseconds; units ms, s, m, h, d. */
export function parseRetrySchedule(value: string, variable = 'WEBHOOKS_RETRY_SCHEDULE'): number[] {
  const parts = value.split(',').map((p) => p.trim());
  const delays = parts.map((part) => {
    const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(part);
    return match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : Number.NaN;
  });
  if (parts.length > 30 || delays.some((d) => Number.isNaN(d))) {
    throw new ConfigError(
      `Invalid configuration: ${variable} must be up to 30 comma-separated durations such as 5s,5m,30m,2h (units ms, s, m, h, d), got '${value}'`,
    );
  }
  return delays;
}

export class ConfigError extends Error {}

/** `*`, or a comma-separated list of origins (`https://app.example.com`); unset or empty turns CORS off. */
export function parseCorsOrigins(value: string | undefined): '*' | string[] | null {
  if (value === undefined || value.trim() === '') return null;
  if (value.trim() === '*') return '*';
  const origins = value.split(',').map((o) => o.trim()).filter((o) => o !== '');
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    // An origin is scheme, host and port only: what a browser sends in its Origin header.
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, '').toLowerCase()) {
      throw new ConfigError(
        `Invalid configuration: CORS_ORIGINS must be * or a comma-separated list of origins such as ` +
          `https://app.example.com,http://localhost:3000 (http or https, host and optional port, no path), got '${origin}'`,
      );
    }
  }
  return origins.map((o) => o.replace(/\/$/, '').toLowerCase());
}


/** Variables whose value may hold a password or a secret: never repeated in a message. */
const SECRET_VARIABLES = new Set(['SIGNING_SECRET', 'DATABASE_URL', 'REDIS_URL', 'SMTP_URL']);

/** What a variable accepts, in words, from its schema. */
function expected(schema: Record<string, unknown>): string {
  const members = Array.isArray(schema.anyOf) ? (schema.anyOf as { const?: unknown }[]) : [];
  if (members.length > 0 && members.every((m) => m.const !== undefined)) return `one of ${members.map((m) => String(m.const)).join(', ')}`;
  if (schema.type === 'boolean') return 'true or false';
  if (schema.type === 'integer') {
    const { minimum: min, maximum: max } = schema as { minimum?: number; maximum?: number };
    if (min !== undefined && max !== undefined) return `a whole number from ${min} to ${max}`;
    if (min !== undefined) return `a whole number, at least ${min}`;
    return 'a whole number';
  }
  if (schema.pattern === '^https?://') return 'an http:// or https:// address';
  if (schema.pattern === '^smtps?://') return 'an smtp:// or smtps:// address';
  if (schema.pattern === '^rediss?://') return 'a redis:// or rediss:// address';
  if (typeof schema.minLength === 'number' && schema.minLength > 1) return `at least ${schema.minLength} characters`;
  return 'a valid value';
}

function variableProblem(name: string, value: unknown): string {
  const schema = (EnvSchema.properties as unknown as Record<string, Record<string, unknown> | undefined>)[name];
  if (!schema) return `the environment is invalid`;
  const shown = SECRET_VARIABLES.has(name) ? `a value of ${String(value).length} characters` : `'${String(value)}'`;
  return `${name} must be ${expected(schema)}, got ${shown}`;
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** An IP address (v4 or v6) or a host name; four numbers that are not an IPv4 address are neither. */
function checkHost(host: string, name = 'HOST'): void {
  if (isIP(host) !== 0) return;
  if (HOST_NAME.test(host) && !/^[\d.]+$/.test(host)) return;
  throw new ConfigError(
    `Invalid configuration: ${name} must be an IP address to listen on (127.0.0.1, 0.0.0.0, ::) or a host name (localhost), got '${host}'`,
  );
}

/** Unset, a PostgreSQL URL, `sqlite:` plus a path, or a path: any other scheme is a mistake, not a file name. */
function checkDatabaseUrl(url: string | undefined): void {
  if (url === undefined || isPostgresUrl(url) || /^sqlite:/i.test(url)) return;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1];
  if (scheme === undefined) return;
  throw new ConfigError(
    `Invalid configuration: DATABASE_URL must be postgres://… or postgresql://… (PostgreSQL), sqlite:/path/file.sqlite or a file path (SQLite), ` +
      `or unset (SQLite in DATA_DIR), got a ${scheme}:// address: ${scheme} is not supported`,
  );
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** The host name of an address, for the right-hand side of Message-IDs; `localhost` when it has none usable. */
function hostOf(url: string): string {
  try {
    const host = new URL(url).hostname;
    return /^[A-Za-z0-9.-]+$/.test(host) ? host : 'localhost';
  } catch {
    return 'localhost';
  }
}

/** `true`/`false`, or a comma-separated list of proxy addresses and CIDRs to trust. */
function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value;
}

/**
 * Every serving process must sign download addresses alike: with PostgreSQL (several processes)
 * a per-process random key would make an address from one process fail on the next. Checked when
 * a server starts, not by the other commands, which sign nothing (`migrate`, `keys`, `import`...).
 */
export function requireSharedSigningSecret(config: Pick<Config, 'databaseUrl' | 'signingSecret'>): void {
  if (isPostgresUrl(config.databaseUrl) && !config.signingSecret) {
    throw new ConfigError(
      'SIGNING_SECRET is required when DATABASE_URL is PostgreSQL: set it to the same random value ' +
        '(at least 32 characters, e.g. `openssl rand -base64 48`) in every process',
    );
  }
}

/** Reads and validates the configuration from environment variables. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const converted = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  if (!Value.Check(EnvSchema, converted)) {
    // One sentence per variable (a union fails once per member), naming what it accepts.
    const names = new Set([...Value.Errors(EnvSchema, converted)].map((e) => e.instancePath.split('/')[1] ?? ''));
    const problems = [...names].map((name) => variableProblem(name, raw[name]));
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e: Static<typeof EnvSchema> = converted;
  checkHost(e.HOST);
  checkHost(e.METRICS_HOST, 'METRICS_HOST');
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(`Invalid configuration: METRICS_PORT must differ from PORT (${e.PORT}): the metrics have a listener of their own`);
  }
  checkDatabaseUrl(e.DATABASE_URL);
  if (e.HTTP_REQUEST_TIMEOUT_MS > 0 && e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  const postgres = isPostgresUrl(e.DATABASE_URL);
  const publicUrl = trimSlash(e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`);
  return {
    ...workflowConfig(e),
    host: e.HOST,
    port: e.PORT,
    dataDir: resolve(e.DATA_DIR),
    publicUrl,
    storageUrl: trimSlash(e.STORAGE_URL ?? `${publicUrl}/storage`),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    signingSecret: e.SIGNING_SECRET,
    storageBackend: e.STORAGE_BACKEND ?? (postgres ? 'database' : 'disk'),
    logLevel: e.LOG_LEVEL,
    rateLimit: {
      adminPerMinute: e.RATE_LIMIT_ADMIN_PER_MINUTE,
      readonlyPerMinute: e.RATE_LIMIT_READONLY_PER_MINUTE,
      authFailuresPerMinute: e.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
      portalPerMinute: e.RATE_LIMIT_PORTAL_PER_MINUTE,
      uploadsPerMinute: e.RATE_LIMIT_UPLOADS_PER_MINUTE,
      signInFailuresPerAccount: e.RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT,
      signInFailuresPerAddress: e.RATE_LIMIT_SIGN_IN_FAILURES_PER_ADDRESS,
      signInWindowMs: 15 * 60_000,
      windowMs: 60_000,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    storageQuotaBytes: e.STORAGE_QUOTA_BYTES,
    docsEnabled: e.DOCS_ENABLED,
    databaseTimeouts: {
      connectMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      poolMs: e.DATABASE_POOL_TIMEOUT_MS,
      statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      // Unset: a little above the statement timeout, so the server's cancel arrives first.
      queryMs: e.DATABASE_QUERY_TIMEOUT_MS ?? (e.DATABASE_STATEMENT_TIMEOUT_MS > 0 ? e.DATABASE_STATEMENT_TIMEOUT_MS + 5_000 : 0),
      idleInTransactionMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      keepAliveMs: e.DATABASE_KEEPALIVE_MS,
    },
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    http: {
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      connectionTimeoutMs: e.HTTP_CONNECTION_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    minFreeBytes: e.DATA_DIR_MIN_FREE_MB * 1024 * 1024,
    eventsRetentionDays: e.EVENTS_RETENTION_DAYS,
    dashboardCompactionIntervalMs: e.DASHBOARD_COMPACTION_INTERVAL_MS,
    webhooks: {
      allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
      timeoutMs: e.WEBHOOKS_TIMEOUT_MS,
      retryDelaysMs: parseRetrySchedule(e.WEBHOOKS_RETRY_SCHEDULE),
      pollIntervalMs: e.WEBHOOKS_POLL_INTERVAL_MS,
      concurrency: e.WEBHOOKS_CONCURRENCY,
    },
    mail: {
      allowPrivate: e.MAIL_ALLOW_PRIVATE,
      maxMailboxes: e.MAIL_MAX_MAILBOXES,
      domain: e.MAIL_DOMAIN ?? hostOf(publicUrl),
      smtpUrl: e.SMTP_URL,
      pollIntervalMs: e.MAIL_POLL_INTERVAL_MS,
      outboxPollIntervalMs: e.MAIL_OUTBOX_POLL_INTERVAL_MS,
      sendTimeoutMs: e.MAIL_SEND_TIMEOUT_MS,
      retryDelaysMs: parseRetrySchedule(e.MAIL_RETRY_SCHEDULE, 'MAIL_RETRY_SCHEDULE'),
      smtpListener: e.MAIL_SMTP_PORT === undefined ? null : { host: e.MAIL_SMTP_HOST ?? e.HOST, port: e.MAIL_SMTP_PORT },
    },
    corsOrigins: parseCorsOrigins(e.CORS_ORIGINS),
    caps: { apiKeys: e.MAX_API_KEYS_PER_ORG, webhooks: e.MAX_WEBHOOKS_PER_ORG, views: e.MAX_VIEWS_PER_ORG, macros: e.MAX_MACROS_PER_ORG, triggers: e.MAX_TRIGGERS_PER_ORG, automations: e.MAX_AUTOMATIONS_PER_ORG, businessHours: e.MAX_BUSINESS_HOURS_PER_ORG, slaPolicies: e.MAX_SLA_POLICIES_PER_ORG },
    apiKeysRetentionDays: e.API_KEYS_RETENTION_DAYS,
    search: {
      timeoutMs: e.SEARCH_TIMEOUT_MS,
      concurrency: e.SEARCH_CONCURRENCY,
      perOrganization: e.SEARCH_CONCURRENCY_PER_ORGANIZATION,
    },
    metrics: e.METRICS_PORT === undefined ? null : { host: e.METRICS_HOST, port: e.METRICS_PORT },
  };
}
