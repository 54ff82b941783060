import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRouteHook } from '../shared/route-hooks.js';
import type { Kysely } from 'kysely';
import type { VersionedReads } from '../db/store.js';
import type { Database } from '../db/types.js';
import { errors, type UnauthorizedReason } from '../errors.js';
import { toIsoOrNull } from '../shared/time.js';
import { hashApiKey, isWellFormedApiKey } from './api-keys.js';
import { findApiKeyByHash, touchApiKey, type KeyColumns } from './api-keys.repository.js';
import { ApiKeyCache, type CachedKey } from './key-cache.js';
import type { Scope } from './scopes.js';
import { LOWER_CASE_UUID } from '../shared/validation.js';

/** Who is calling: the key's organization, role and scopes. Shared by the requests of a cached key: never change it. */
export interface AuthContext {
  keyId: string;
  organizationId: string;
  role: 'admin' | 'readonly';
  scopes: ReadonlySet<string>;
  keyPrefix: string;
  holderUserId: string | null;
  expiresAt: string | null;
}

/** How a route is protected: `{ scope }` names the scope it needs; `{}` needs only a valid key. */
export interface RouteAuth {
  scope?: Scope;
  /** Only an admin key may call the route (key management: spec §5.5–5.6 grant it by role, not scope). */
  adminKey?: boolean;
  /**
   * With `adminKey`: the path parameter holding a key id. A read-only key may still call the route
   * on its own id (it may revoke itself, never another key).
   */
  ownKeyParam?: string;
  /**
   * Where keys are read from the store on every request (no key cache: PostgreSQL), the record the
   * route answers with is read in the same statement as the key: one round trip instead of two.
   */
  withKey?: ReadWithKey;
}

/** A record read in one statement with the caller's key (RouteAuth.withKey). */
export interface ReadWithKey {
  /** The path parameter naming the record; read only when it is a lower-case UUID (validation comes later). */
  param: string;
  /** The key by hash and, in the key's own organization, the record by id (null when there is none). */
  read: (db: Kysely<Database>, keyHash: string, id: string) => Promise<{ key: KeyColumns | undefined; record: unknown }>;
  /**
   * Where keys are cached (SQLite): the record by id in the organization, in one statement with the
   * key cache's version (Store.versionedReads), so a cached key's freshness check and the record
   * cost one read, without a promise. Null when there is none.
   */
  readVersioned?: (reads: VersionedReads, organizationId: string, id: string) => { version: number; record: unknown };
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The record read with the key (RouteAuth.withKey), by the id it was read for. */
    readWithKey: { id: string; record: unknown } | null;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
}

const BEARER = /^bearer +(\S+)\s*$/i;
const BEARER_SCHEME_NAME = /^bearer(\s|$)/i;
// last_used_at is informational; writing it on every request would turn reads into writes.
const TOUCH_INTERVAL_MS = 60_000;

export interface AuthenticateOptions {
  db: Kysely<Database>;
  /** The store's API key version (Store.apiKeysVersion): with one, valid keys are cached. */
  apiKeysVersion: (() => number) | null;
  /** The store's versioned reads (Store.versionedReads), for routes with `withKey.readVersioned`. */
  versionedReads: VersionedReads | null;
  /** Counts a failed authentication for the client address; true when it is over its limit. */
  authFailureExceeded: (request: FastifyRequest) => Promise<number | null>;
}

/**
 * The check order of decisions §2 on every protected route: 401 (this hook, onRequest), then the
 * rate limit (the route's own onRequest hook, which runs after this one), then the scope
 * (preParsing, so before the body is read), then validation and existence.
 */
export function registerAuthentication(app: FastifyInstance, options: AuthenticateOptions): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('readWithKey', null);
  const cache = options.apiKeysVersion ? new ApiKeyCache(options.apiKeysVersion) : null;

  /** The slow path: a key the cache does not hold (or no cache), read from the store. */
  async function authenticateFromStore(request: FastifyRequest, auth: RouteAuth): Promise<void> {
    const withKey = cache === null ? auth.withKey : undefined;
    const id = withKey ? (request.params as Record<string, unknown> | undefined)?.[withKey.param] : undefined;
    const readKey =
      withKey && typeof id === 'string' && LOWER_CASE_UUID.test(id)
        ? async (db: Kysely<Database>, hash: string) => {
            let read: Awaited<ReturnType<ReadWithKey['read']>>;
            try {
              read = await withKey.read(db, hash, id);
            } catch {
              // The record's part failed (a statement timeout, a broken table): authenticate as any
              // route does and let the route read the record itself, so its failure is answered
              // where a route's failures are (after the rate limit, with its headers).
              return findApiKeyByHash(db, hash);
            }
            request.readWithKey = { id, record: read.record };
            return read.key;
          }
        : findApiKeyByHash;
    const context = await authenticate(options.db, cache, request.headers.authorization, readKey);
    if (typeof context === 'object') {
      request.auth = context;
      return;
    }
    const retryAfter = await options.authFailureExceeded(request);
    if (retryAfter !== null) throw errors.rateLimited(retryAfter);
    throw errors.unauthorized(context);
  }

  // The hooks are the protected routes' own (routes without `config.auth` never run them), added
  // first among the route's onRequest hooks, so before the rate limit's (401 before 429).
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) return;
    const withKey = auth.withKey;
    const reads = options.versionedReads;
    const readVersioned =
      withKey?.readVersioned !== undefined && reads !== null
        ? (organizationId: string, id: string) => withKey.readVersioned!(reads, organizationId, id)
        : undefined;
    const param = withKey?.param;
    addRouteHook(
      route,
      'onRequest',
      (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        // A key the cache holds, still valid, is decided here without a promise (SQLite, most
        // requests); with the route's record read in the same statement as the cache's version.
        const cached =
          cache === null
            ? undefined
            : readVersioned !== undefined
              ? cachedContextWithRecord(cache, request, param!, readVersioned)
              : cachedContext(cache, request.headers.authorization);
        if (cached !== undefined) {
          request.auth = cached;
          return done();
        }
        authenticateFromStore(request, auth).then(() => done(), done);
      },
      { first: true },
    );
    const scope = auth.scope;
    const adminKey = auth.adminKey === true;
    const ownKeyParam = auth.ownKeyParam;
    // preParsing, so a key without the scope never gets its body read; first among the route's
    // own (the upload route checks its body's type in its own preParsing hook).
    addRouteHook(
      route,
      'preParsing',
      (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
        if (scope && !request.auth?.scopes.has(scope)) return done(errors.forbidden(scope));
        if (adminKey && request.auth?.role !== 'admin' && !isOwnKey(request, ownKeyParam)) return done(errors.forbidden('an admin key'));
        done(null, payload);
      },
      { first: true },
    );
  });
}

/**
 * The context of a key the cache holds, when nothing else is to be done for it: still valid, its
 * last use recorded within the minute. Undefined sends the request the slow way (which also
 * answers every malformed header).
 */
function cachedContext(cache: ApiKeyCache, header: string | undefined): AuthContext | undefined {
  if (header === undefined) return undefined;
  const key = BEARER.exec(header)?.[1];
  if (key === undefined) return undefined;
  cache.refresh();
  // Keyed by the key's hash, never the key itself: a heap dump must not hold every recent key. A
  // key is only cached after it was found well-formed and valid, so no checksum is needed here.
  return usable(cache.get(hashApiKey(key)));
}

/** The entry's context if nothing is to be done for it (not expired, last use recorded within the minute). */
function usable(entry: CachedKey | undefined): AuthContext | undefined {
  if (entry === undefined) return undefined;
  const now = Date.now();
  if (entry.expiresAtMs <= now || now - entry.touchedAtMs > TOUCH_INTERVAL_MS) return undefined;
  return entry.context;
}

/**
 * cachedContext for a route that answers one record (`withKey.readVersioned`): the cache's version
 * is read in the same statement as the record, in the organization of the key as cached. When the
 * version moved the cache is forgotten and the record with it (the key is read again, the slow
 * way, and the handler reads the record); otherwise the key was valid as of that very read.
 */
function cachedContextWithRecord(
  cache: ApiKeyCache,
  request: FastifyRequest,
  param: string,
  readVersioned: (organizationId: string, id: string) => { version: number; record: unknown },
): AuthContext | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const id = (request.params as Record<string, unknown> | undefined)?.[param];
  // Anything but a lower-case UUID is answered by validation later; the key is checked as anywhere.
  if (typeof id !== 'string' || !LOWER_CASE_UUID.test(id)) return cachedContext(cache, header);
  const key = BEARER.exec(header)?.[1];
  if (key === undefined) return undefined;
  const hash = hashApiKey(key);
  const entry = cache.peek(hash);
  if (entry === undefined) return undefined;
  let read: { version: number; record: unknown };
  try {
    read = readVersioned(entry.context.organizationId, id);
  } catch {
    // The store failed: the slow way answers it where a route's failures are answered.
    return undefined;
  }
  if (!cache.holdsAt(read.version)) return undefined;
  const context = usable(entry);
  if (context !== undefined) request.readWithKey = { id, record: read.record };
  return context;
}

/** True when the route's key-id path parameter names the calling key itself. */
function isOwnKey(request: FastifyRequest, param: string | undefined): boolean {
  if (param === undefined || !request.auth) return false;
  const value = (request.params as Record<string, unknown> | undefined)?.[param];
  return typeof value === 'string' && value.toLowerCase() === request.auth.keyId;
}

/** The caller's key, or why there is none. */
async function authenticate(
  db: Kysely<Database>,
  cache: ApiKeyCache | null,
  header: string | undefined,
  readKey: (db: Kysely<Database>, hash: string) => Promise<KeyColumns | undefined>,
): Promise<AuthContext | UnauthorizedReason> {
  if (header === undefined || header.trim() === '') return 'missing';
  if (!BEARER_SCHEME_NAME.test(header)) return 'scheme';
  const key = BEARER.exec(header)?.[1];
  if (!key || !isWellFormedApiKey(key)) return 'malformed';
  const now = Date.now();
  // The cache forgets every key as soon as any key may have changed anywhere (key-cache.ts), so a
  // revoked key is refused from the next request on, whichever process revoked it.
  const version = cache?.refresh() ?? 0;
  const hash = hashApiKey(key);
  let entry = cache?.get(hash);
  if (entry === undefined) {
    // Unknown, revoked and expired are one answer: telling them apart would tell which keys exist.
    const row = await readKey(db, hash);
    if (!row || row.revoked_at !== null) return 'invalid';
    const expiresAt = toIsoOrNull(row.expires_at);
    const lastUsed = toIsoOrNull(row.last_used_at);
    entry = {
      context: {
        keyId: row.id,
        organizationId: row.organization_id,
        role: row.role,
        scopes: new Set(JSON.parse(row.scopes) as string[]),
        keyPrefix: row.key_prefix,
        holderUserId: row.holder_user_id,
        expiresAt,
      },
      expiresAtMs: expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(expiresAt),
      touchedAtMs: lastUsed === null ? Number.NEGATIVE_INFINITY : Date.parse(lastUsed),
    };
    if (entry.expiresAtMs <= now) return 'invalid';
    cache?.set(hash, entry, version);
  } else if (entry.expiresAtMs <= now) {
    cache?.delete(hash);
    return 'invalid';
  }
  if (now - entry.touchedAtMs > TOUCH_INTERVAL_MS) {
    entry.touchedAtMs = now;
    await touchApiKey(db, entry.context.keyId, new Date(now).toISOString());
  }
  return entry.context;
}

/**
 * The record read with the key for this id (RouteAuth.withKey): the row, null when there is none,
 * undefined when it was not read that way (the route reads it itself).
 */
export function readWithKeyOf<T>(request: FastifyRequest, id: string): T | null | undefined {
  const read = request.readWithKey;
  return read !== null && read.id === id ? ((read.record ?? null) as T | null) : undefined;
}

/** The caller of a protected route; the auth hook guarantees it is set. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw errors.unauthorized();
  return request.auth;
}
