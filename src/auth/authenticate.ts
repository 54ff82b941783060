import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRouteHook } from '../shared/route-hooks.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { errors, type UnauthorizedReason } from '../errors.js';
import { toIsoOrNull } from '../shared/time.js';
import { hashApiKey, isWellFormedApiKey } from './key-format.js';
import { findApiKeyByHash, touchApiKey, type KeyColumns } from './keys.repository.js';
import type { AuthContext } from './auth-context.js';
import { ApiKeyCache, type CachedKey } from './key-cache.js';
import type { Scope } from './scopes.js';
import { csrfMatches, hasSessionCookie, sessionTokenOf } from './session-cookie.js';

export type { AuthContext } from './auth-context.js';

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
  /** A read the route makes together with its caller's key (see KeyRead). */
  keyRead?: KeyRead;
}

/**
 * The hook point for a route that reads one record with its caller's key, so that a request needs
 * one read of the store for both. Authentication stays as it is: the same checks, the same
 * answers, in the same order; it only lets the route's read ride along. Either part may be left out.
 */
export interface KeyRead {
  /**
   * Where keys are read from the store on every request: the key row by hash and, in the same
   * statement, what the route needs (which it keeps itself). Undefined: not for this request. If
   * it fails, the key is read alone, and the route reads its record itself.
   */
  fromStore?: (request: FastifyRequest, keyHash: string) => Promise<KeyColumns | undefined> | undefined;
  /**
   * Where keys are cached: takes the request of a cached key (true: it calls `key.finish` once,
   * perhaps in a later turn), or leaves it to be authenticated as on any route (false).
   */
  cached?: (request: FastifyRequest, key: CachedKeyRead) => boolean;
}

/** A cached key whose route reads its record with the cache's version (Store.versionedReads). */
export interface CachedKeyRead {
  /** The key's organization as the cache holds it now; undefined when it no longer does. */
  organizationId(): string | undefined;
  /**
   * Decides the request after a read at the cache's `version` (undefined: nothing was read). If
   * the cache still holds at that version, with the very entry read with, still usable, the
   * request is authenticated from it (`accepted` runs first); else the key is read from the store,
   * as for a key the cache never held, so a key revoked anywhere is refused at once.
   */
  finish(version: number | undefined, accepted: () => void): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
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
  /** Counts a failed authentication for the client address; true when it is over its limit. */
  authFailureExceeded: (request: FastifyRequest) => Promise<number | null>;
  /**
   * The context of a live session by its cookie's token (src/modules/sessions/), or undefined when
   * it is unknown, expired or ended. Without it, session cookies are ignored.
   */
  sessionOf?: (token: string) => Promise<AuthContext | undefined>;
}

/** Methods that change something: a cookie-authenticated request of these must prove it is no CSRF. */
const CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The check order of docs/api-behaviour.md ("Check order") on every protected route: 401 (this
 * hook, onRequest), then the rate limit (the route's own onRequest hook, which runs after this
 * one), then the scope (preParsing, so before the body is read), then validation and existence.
 */
export function registerAuthentication(app: FastifyInstance, options: AuthenticateOptions): void {
  app.decorateRequest('auth', null);
  const cache = options.apiKeysVersion ? new ApiKeyCache(options.apiKeysVersion) : null;

  /** The slow path: a key the cache does not hold (or no cache), read from the store. */
  async function authenticateFromStore(request: FastifyRequest, auth: RouteAuth): Promise<void> {
    // An Authorization header wins over a cookie: only a request without one is a session's.
    if (options.sessionOf && request.headers.authorization === undefined && hasSessionCookie(request.headers.cookie)) {
      const token = sessionTokenOf(request.headers.cookie);
      const context = token === undefined ? undefined : await options.sessionOf(token);
      if (context !== undefined) {
        request.auth = context;
        return;
      }
      const retryAfter = await options.authFailureExceeded(request);
      if (retryAfter !== null) throw errors.rateLimited(retryAfter);
      throw errors.unauthorized('session');
    }
    const fromStore = cache === null ? auth.keyRead?.fromStore : undefined;
    const readKey = fromStore
      ? async (db: Kysely<Database>, hash: string) => {
          try {
            const read = fromStore(request, hash);
            if (read !== undefined) return await read;
          } catch {
            // The route's part failed (a statement timeout, a broken table): authenticate as any
            // route does and let the route read its record itself, so its failure is answered
            // where a route's failures are (after the rate limit, with its headers).
          }
          return findApiKeyByHash(db, hash);
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

  /** A cached key's request handed to the route's read (KeyRead.cached); false when not taken. */
  function readWithCachedKey(cache: ApiKeyCache, request: FastifyRequest, auth: RouteAuth, done: (error?: Error) => void): boolean {
    const header = request.headers.authorization;
    const key = header === undefined ? undefined : BEARER.exec(header)?.[1];
    if (key === undefined) return false;
    const hash = hashApiKey(key);
    if (cache.peek(hash) === undefined) return false;
    let entry: CachedKey | undefined;
    return auth.keyRead!.cached!(request, {
      // The entry as held when the read is made (another request's read may have forgotten it since).
      organizationId: () => (entry = cache.peek(hash))?.context.organizationId,
      finish: (version, accepted) => {
        // One snapshot for the key and the record: a version that moved forgets the whole cache.
        const held = version !== undefined && entry !== undefined && cache.holdsAt(version) && cache.peek(hash) === entry;
        const context = held ? usable(entry) : undefined;
        if (context === undefined) {
          authenticateFromStore(request, auth).then(() => done(), done);
          return;
        }
        request.auth = context;
        accepted();
        done();
      },
    });
  }

  // The hooks are the protected routes' own (routes without `config.auth` never run them), added
  // first among the route's onRequest hooks, so before the rate limit's (401 before 429).
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) return;
    const readsWithCachedKey = cache !== null && auth.keyRead?.cached !== undefined;
    addRouteHook(
      route,
      'onRequest',
      (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        // A key the cache holds, still valid, is decided here without a promise (SQLite, most
        // requests), or with the route's read (KeyRead.cached) at the end of the turn.
        if (cache !== null) {
          if (readsWithCachedKey && readWithCachedKey(cache, request, auth, done)) return;
          const cached = cachedContext(cache, request.headers.authorization);
          if (cached !== undefined) {
            request.auth = cached;
            return done();
          }
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
        const session = request.auth?.session;
        if (session && CHANGING_METHODS.has(request.method) && !csrfMatches(request.headers['x-csrf-token'], session.csrfToken)) {
          return done(errors.csrfTokenInvalid(request.headers['x-csrf-token'] === undefined));
        }
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

/** True when the route's key-id path parameter names the calling key itself. */
function isOwnKey(request: FastifyRequest, param: string | undefined): boolean {
  if (param === undefined || !request.auth) return false;
  const value = (request.params as Record<string, unknown> | undefined)?.[param];
  return typeof value === 'string' && request.auth.keyId !== null && value.toLowerCase() === request.auth.keyId;
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
        kind: 'api_key',
        keyId: row.id,
        principalId: row.id,
        organizationId: row.organization_id,
        role: row.role,
        scopes: new Set(JSON.parse(row.scopes) as string[]),
        keyPrefix: row.key_prefix,
        holderUserId: row.holder_user_id,
        expiresAt,
        session: null,
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
    await touchApiKey(db, entry.context.keyId!, new Date(now).toISOString());
  }
  return entry.context;
}

/** The caller of a protected route; the auth hook guarantees it is set. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw errors.unauthorized();
  return request.auth;
}
