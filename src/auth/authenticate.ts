import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRouteHook } from '../shared/route-hooks.js';
import type { Kysely } from 'kysely';
import type { VersionedReads } from '../db/store.js';
import type { Database } from '../db/types.js';
import { errors, type UnauthorizedReason } from '../errors.js';
import { toIsoOrNull } from '../shared/time.js';
import { hashApiKey, isWellFormedApiKey } from './key-format.js';
import { findApiKeyByHash, touchApiKey, type KeyColumns } from './keys.repository.js';
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
      withKey?.readVersioned !== undefined && reads !== null && cache !== null
        ? (organizationId: string, id: string) => withKey.readVersioned!(reads, organizationId, id)
        : undefined;
    const param = withKey?.param;
    const slow = (request: FastifyRequest, done: (error?: Error) => void) => {
      authenticateFromStore(request, auth).then(() => done(), done);
    };
    const group = readVersioned !== undefined ? new VersionedReadGroup(cache!, reads!, readVersioned, slow) : undefined;
    addRouteHook(
      route,
      'onRequest',
      (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        // A key the cache holds, still valid, is decided here without a promise (SQLite, most
        // requests); a route's record is read with the cache's version at the end of the turn,
        // in one read transaction with the other such reads of the turn (VersionedReadGroup).
        if (cache !== null) {
          if (group !== undefined) {
            if (group.add(request, param!, done)) return;
          } else {
            const cached = cachedContext(cache, request.headers.authorization);
            if (cached !== undefined) {
              request.auth = cached;
              return done();
            }
          }
        }
        slow(request, done);
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

interface PendingRead {
  request: FastifyRequest;
  id: string;
  hash: string;
  done: (error?: Error) => void;
  /** The cache's entry for the key when the group ran, undefined when it held none. */
  entry: CachedKey | undefined;
  /** What the read answered; undefined when it failed or was not made. */
  read: { version: number; record: unknown } | undefined;
}

/**
 * cachedContext for a route that answers one record (`withKey.readVersioned`), for the requests of
 * one turn of the event loop together: at the end of the turn (`setImmediate`, as db/read-batch.ts
 * and the group commit of creates wait) their records are read in ONE read transaction
 * (VersionedReads.group), each with the cache's version and in the organization of its key as
 * cached, so the transaction's start (its locks, its checks of the WAL) is paid once per group and
 * the group is answered in one turn. A lone request goes alone, by its own statement.
 *
 * Every read of a group is of the same snapshot, so one version covers them all: when it moved, the
 * cache is forgotten and every request of the group goes the slow way (the key read again, the
 * record read by the handler), so a key revoked anywhere is refused on the very next request
 * exactly as with a read each. A request is answered from the cache only when the entry its read
 * used is still the cache's entry for its key after that check, and still usable (expiry, touch).
 * A read that fails, or a group whose transaction fails, sends its requests the slow way, which
 * answers the store's failure where a route's failures are answered.
 */
class VersionedReadGroup {
  private pending: PendingRead[] = [];
  /** The group being collected is waiting for the end of the turn. */
  private scheduled = false;

  constructor(
    private readonly cache: ApiKeyCache,
    private readonly reads: VersionedReads,
    private readonly readVersioned: (organizationId: string, id: string) => { version: number; record: unknown },
    private readonly slow: (request: FastifyRequest, done: (error?: Error) => void) => void,
  ) {}

  /**
   * Takes the request into the turn's group when its key is cached and its id is a record's (true:
   * `done` will be called); false when it is to be decided otherwise (the caller goes the slow way).
   */
  add(request: FastifyRequest, param: string, done: (error?: Error) => void): boolean {
    const header = request.headers.authorization;
    if (header === undefined) return false;
    const id = (request.params as Record<string, unknown> | undefined)?.[param];
    // Anything but a lower-case UUID is answered by validation later; the key is checked as anywhere.
    if (typeof id !== 'string' || !LOWER_CASE_UUID.test(id)) {
      const cached = cachedContext(this.cache, header);
      if (cached === undefined) return false;
      request.auth = cached;
      done();
      return true;
    }
    const key = BEARER.exec(header)?.[1];
    if (key === undefined) return false;
    const hash = hashApiKey(key);
    if (this.cache.peek(hash) === undefined) return false;
    this.pending.push({ request, id, hash, done, entry: undefined, read: undefined });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.run);
    }
    return true;
  }

  private readonly run = (): void => {
    this.scheduled = false;
    const group = this.pending;
    this.pending = [];
    const cache = this.cache;
    const readVersioned = this.readVersioned;
    const readAll = () => {
      for (const p of group) {
        // The entry as held now (an earlier group may have forgotten it since the request came).
        p.entry = cache.peek(p.hash);
        if (p.entry === undefined) continue;
        try {
          p.read = readVersioned(p.entry.context.organizationId, p.id);
        } catch {
          p.read = undefined;
        }
      }
    };
    if (group.length === 1) readAll();
    else {
      try {
        this.reads.group(readAll);
      } catch {
        // The transaction itself failed (a store that is gone): every request the slow way.
        for (const p of group) p.read = undefined;
      }
    }
    for (const p of group) {
      const read = p.read;
      // One snapshot: the first read whose version moved forgets the cache, and the entries of the
      // others are then gone too.
      const context = read !== undefined && cache.holdsAt(read.version) && cache.peek(p.hash) === p.entry ? usable(p.entry) : undefined;
      if (context === undefined) {
        this.slow(p.request, p.done);
        continue;
      }
      p.request.auth = context;
      p.request.readWithKey = { id: p.id, record: read!.record };
      p.done();
    }
  };
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
