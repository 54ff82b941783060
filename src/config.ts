import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { resolve } from 'node:path';
import { isPostgresUrl } from './db/dialect.js';

/** Environment variables the service reads, validated once at start. */
const EnvSchema = Type.Object({
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
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  DOCS_ENABLED: Type.Boolean({ default: true }),
});

export interface Config {
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
    windowMs: number;
  };
  shutdownTimeoutMs: number;
  /** Serve the OpenAPI document (/openapi.json) and the interactive documentation (/docs). */
  docsEnabled: boolean;
}

export class ConfigError extends Error {}


const trimSlash = (url: string): string => url.replace(/\/+$/, '');

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
    const problems = [...Value.Errors(EnvSchema, converted)]
      .map((e) => `${e.instancePath.replace(/^\//, '') || 'environment'} ${e.message}`)
      .join('; ');
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  const e: Static<typeof EnvSchema> = converted;
  const postgres = isPostgresUrl(e.DATABASE_URL);
  const publicUrl = trimSlash(e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`);
  return {
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
      windowMs: 60_000,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    docsEnabled: e.DOCS_ENABLED,
  };
}
