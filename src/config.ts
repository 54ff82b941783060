import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { resolve } from 'node:path';

/** Environment variables the service reads, validated once at start. */
const EnvSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080 }),
  DATA_DIR: Type.String({ default: './data' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  STORAGE_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  DATABASE_URL: Type.Optional(Type.String()),
  REDIS_URL: Type.Optional(Type.String()),
  SIGNING_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  RATE_LIMIT_ADMIN_PER_MINUTE: Type.Integer({ minimum: 1, default: 2000 }),
  RATE_LIMIT_READONLY_PER_MINUTE: Type.Integer({ minimum: 1, default: 200 }),
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: Type.Integer({ minimum: 1, default: 60 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
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
  redisUrl: string | undefined;
  signingSecret: string | undefined;
  logLevel: string;
  rateLimit: {
    adminPerMinute: number;
    readonlyPerMinute: number;
    authFailuresPerMinute: number;
    windowMs: number;
  };
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

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
  const publicUrl = trimSlash(e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`);
  return {
    host: e.HOST,
    port: e.PORT,
    dataDir: resolve(e.DATA_DIR),
    publicUrl,
    storageUrl: trimSlash(e.STORAGE_URL ?? `${publicUrl}/storage`),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    signingSecret: e.SIGNING_SECRET,
    logLevel: e.LOG_LEVEL,
    rateLimit: {
      adminPerMinute: e.RATE_LIMIT_ADMIN_PER_MINUTE,
      readonlyPerMinute: e.RATE_LIMIT_READONLY_PER_MINUTE,
      authFailuresPerMinute: e.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
      windowMs: 60_000,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}
