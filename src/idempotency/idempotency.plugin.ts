import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
  preParsingAsyncHookHandler,
} from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Database } from '../db/types.js';
import { errors } from '../errors.js';
import { logFailure } from '../http/error-handler.js';
import { isApiRoute } from '../http/json-rules.js';
import { addRouteHook } from '../shared/route-hooks.js';
import { ErrorBody } from '../shared/schemas.js';
import {
  completeKey,
  deleteIfExpired,
  findKey,
  insertInFlight,
  purgeExpiredKeys,
  releaseKey,
  takeOverAbandoned,
  type KeyId,
} from './idempotency.repository.js';

/**
 * `Idempotency-Key` on every POST of the API that takes an API key (IETF httpapi
 * idempotency-key-header draft; docs/api-behaviour.md#safe-retries-idempotency-key): one mechanism,
 * four hooks, no code in the routes.
 *
 * - onRoute: the header is declared on every such POST (so it is validated: 1..255 visible
 *   characters, and shown in the OpenAPI document), with its 409, and the four hooks below are
 *   added to that route alone (no other request pays for them).
 * - preParsing: the body is hashed while it streams in (never held twice).
 * - preHandler: after authentication and validation, the key is claimed by inserting it in flight
 *   (the primary key decides among concurrent requests in every process); a key already complete
 *   with the same fingerprint replays the stored answer without running the handler; another
 *   fingerprint is 422; a key still in flight is 409 with Retry-After.
 * - onSend: the answer is stored (status, body, Content-Type, Location, ETag); a 5xx is not: the
 *   key is released so that a retry does the work again.
 */

/** How long a key is remembered after its first use. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A key in flight longer than this is taken to belong to a request that died with its process. */
const MIN_IN_FLIGHT_LOCK_MS = 60_000;
/** What a 409 asks the client to wait before retrying. */
const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;
/** How often (per organization and process) the expired keys are purged. */
const PURGE_INTERVAL_MS = 60_000;
/** The answer headers a replay repeats. */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag'] as const;

const HEADER = 'idempotency-key';

/** The header as declared on every idempotent route: visible ASCII, a quoted sf-string (the draft) or bare. */
export const IdempotencyKeyHeader = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$',
  description:
    'Makes the POST safe to retry: the same key with the same request within 24 hours replays the first answer ' +
    'without doing the work again; with another body it is 422; while the first is still running, 409. ' +
    '1 to 255 visible ASCII characters, e.g. a fresh UUID per operation; a quoted string ("...") names the same key as without quotes.',
  // No example: the interactive documentation would send the same key with every request it tries.
});

/**
 * The fingerprint of an upload: the request line, then the file part's name, type and bytes as they
 * stream to storage (the upload calls it; docs/api-behaviour.md#safe-retries-idempotency-key).
 */
export class UploadFingerprint {
  private begun = false;
  /** The whole file went through. */
  finished = false;

  constructor(private readonly hash: Hash) {}

  begin(filename: string, contentType: string): void {
    if (this.begun) return;
    this.begun = true;
    this.hash.update(`${JSON.stringify([filename, contentType])}\n`);
  }

  add(chunk: Buffer): void {
    if (this.begun && !this.finished) this.hash.update(chunk);
  }

  finish(): void {
    if (this.begun) this.finished = true;
  }

  digest(): string {
    return this.hash.digest('base64url');
  }
}

/** Held in flight by an upload, whose fingerprint is known only once its file has been read. */
const UPLOAD_IN_FLIGHT = 'upload-in-flight';

interface Claim {
  id: KeyId;
  /** The stored answer was sent: nothing to store. */
  replayed: boolean;
  done: boolean;
}

/** What a route says about its idempotent answers. */
export interface IdempotencyRouteConfig {
  /**
   * Top-level fields of the answer that hold a secret shown once (a plain API key, a webhook
   * secret, a tracking token): the stored copy has them null, and so does a replay.
   */
  secretFields?: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyHash: Hash | null;
    idempotencyClaim: Claim | null;
    /** An upload with an Idempotency-Key it claimed: the upload feeds its file's bytes in. */
    idempotencyUpload: UploadFingerprint | null;
  }
  interface FastifyContextConfig {
    idempotency?: IdempotencyRouteConfig;
  }
}

// The hooks are the route's own (added from onRoute to the routes it declares the header on), so
// requests of other routes and methods never run them; a route may answer more than POST.
const appliesTo = (request: FastifyRequest): boolean => request.method === 'POST';

function keyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[HEADER];
  if (typeof raw !== 'string') return undefined;
  const quoted = /^"(.*)"$/.exec(raw);
  return quoted ? quoted[1] : raw;
}

export interface IdempotencyOptions {
  db: Kysely<Database>;
  /** How long a request may run; a key in flight longer than this (or a minute) may be taken over. */
  requestTimeoutMs: number;
}

export function registerIdempotency(app: FastifyInstance, options: IdempotencyOptions): void {
  const { db } = options;
  const lockMs = Math.max(MIN_IN_FLIGHT_LOCK_MS, options.requestTimeoutMs + 5_000);
  const lastPurge = new Map<string, number>();
  app.decorateRequest('idempotencyHash', null);
  app.decorateRequest('idempotencyClaim', null);
  app.decorateRequest('idempotencyUpload', null);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || !isApiRoute(route.url) || !route.config?.auth) return;
    const schema = route.schema ?? {};
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
    const response = (schema.response ?? {}) as Record<string, unknown>;
    route.schema = {
      ...schema,
      headers: { ...headers, type: 'object', properties: { ...headers.properties, [HEADER]: IdempotencyKeyHeader } },
      response: { 409: ErrorBody, ...response },
    };
    const multipart = route.config?.multipart === true;
    addRouteHook(route, 'preParsing', multipart ? hashRequestLine : hashBody);
    addRouteHook(route, 'preHandler', claim);
    addRouteHook(route, 'onSend', store);
    addRouteHook(route, 'onResponse', release);
  });

  /** An upload's body is read by @fastify/multipart straight from the socket (request.raw), not from the payload stream. */
  const hashRequestLine: preParsingAsyncHookHandler = async (request, _reply, payload) => {
    if (!appliesTo(request) || keyOf(request) === undefined) return payload;
    // Then its file part, fed in as it streams to storage (UploadFingerprint; docs/api-behaviour.md).
    request.idempotencyHash = createHash('sha256').update(`${request.method} ${request.url}\n`);
    return payload;
  };

  const hashBody: preParsingAsyncHookHandler = async (request, _reply, payload) => {
    if (!appliesTo(request) || keyOf(request) === undefined) return payload;
    const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
    request.idempotencyHash = hash;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    payload.on('error', (error) => hashing.destroy(error));
    return payload.pipe(hashing);
  };

  const claim: preHandlerAsyncHookHandler = async (request, reply) => {
    const key = keyOf(request);
    const auth = request.auth;
    if (!appliesTo(request) || key === undefined || !auth || !request.idempotencyHash) return;
    const id: KeyId = { organizationId: auth.organizationId, apiKeyId: auth.principalId, key };
    const upload = request.routeOptions.config.multipart === true;
    const hash = request.idempotencyHash;
    // An upload's fingerprint covers its file, known only once the file is read (by the handler, or
    // here to compare it with a stored answer's).
    const fingerprint = upload ? UPLOAD_IN_FLIGHT : hash.digest('base64url');
    const claimed = (): void => {
      request.idempotencyClaim = { id, replayed: false, done: false };
      if (upload) request.idempotencyUpload = new UploadFingerprint(hash);
    };
    purgeNowAndThen(request, auth.organizationId);
    // A few rounds at most: a key that expires or is released between our reads is tried again.
    for (let round = 0; round < 4; round++) {
      const now = Date.now();
      // Read first: a retry (the common case of a key seen before) then costs one read, no write.
      let existing = await findKey(db, id);
      if (!existing) {
        const inserted = await insertInFlight(db, id, {
          fingerprint,
          createdAt: new Date(now).toISOString(),
          lockedUntil: new Date(now + lockMs).toISOString(),
          expiresAt: new Date(now + IDEMPOTENCY_KEY_TTL_MS).toISOString(),
        });
        if (inserted) return claimed();
        existing = await findKey(db, id);
        if (!existing) continue;
      }
      const nowIso = new Date(now).toISOString();
      if (String(existing.expires_at) <= nowIso) {
        await deleteIfExpired(db, id, nowIso);
        continue;
      }
      if (!upload && existing.fingerprint !== fingerprint) throw errors.idempotencyKeyReused();
      if (existing.state === 'in_flight') {
        const lockedUntil = existing.locked_until === null ? null : String(existing.locked_until);
        if (lockedUntil !== null && lockedUntil <= nowIso && (await takeOverAbandoned(db, id, lockedUntil, new Date(now + lockMs).toISOString()))) {
          return claimed();
        }
        throw errors.idempotencyKeyInFlight(IN_FLIGHT_RETRY_AFTER_SECONDS);
      }
      if (upload && (await uploadFingerprintOf(request, hash)) !== existing.fingerprint) throw errors.idempotencyKeyReused();
      request.idempotencyClaim = { id, replayed: true, done: true };
      return replay(reply, existing.status_code ?? 200, existing.response_headers, existing.response_body);
    }
    throw errors.idempotencyKeyInFlight(IN_FLIGHT_RETRY_AFTER_SECONDS);
  };

  const store: onSendAsyncHookHandler = async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim || claim.done) return payload;
    claim.done = true;
    const upload = request.idempotencyUpload;
    try {
      if (
        reply.statusCode >= 500 ||
        (payload !== null && payload !== undefined && typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
        // An upload refused before its whole file was read has no fingerprint to keep (and made nothing).
        (upload !== null && !upload.finished)
      ) {
        // A 5xx is not an answer to keep (the draft; a retry should do the work), nor is a stream.
        await releaseKey(db, claim.id);
      } else {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        const sent = payload === null || payload === undefined ? '' : payload.toString();
        const body = withoutSecrets(sent, request.routeOptions.config.idempotency?.secretFields);
        const fingerprint = upload === null ? undefined : upload.digest();
        await completeKey(db, claim.id, { status: reply.statusCode, headers: JSON.stringify(headers), body, fingerprint });
      }
    } catch (error) {
      // The answer still goes out; the key stays in flight until its lock runs out.
      logFailure(request.log, error, 'could not store the idempotent answer');
    }
    return payload;
  };

  // A request that ends without an answer (the client went away before the handler finished
  // sending): release its key, so a retry is not refused until the lock runs out.
  const release: onResponseAsyncHookHandler = async (request) => {
    const claim = request.idempotencyClaim;
    if (!claim || claim.done) return;
    claim.done = true;
    await releaseKey(db, claim.id).catch(() => undefined);
  };

  /** Expired keys go lazily: a claim purges its organization's at most once a minute per process. */
  function purgeNowAndThen(request: FastifyRequest, organizationId: string): void {
    const now = Date.now();
    if (now - (lastPurge.get(organizationId) ?? 0) < PURGE_INTERVAL_MS) return;
    lastPurge.set(organizationId, now);
    if (lastPurge.size > 10_000) lastPurge.clear();
    purgeExpiredKeys(db, organizationId, new Date(now).toISOString()).catch((error: unknown) => {
      request.log.warn({ err: { message: (error as Error).message } }, 'could not purge expired idempotency keys');
    });
  }
}

/**
 * The answer as stored: a secret shown once (`secretFields`) is null, so the store never holds it
 * and a replay shows the same record without it (docs/api-behaviour.md#safe-retries-idempotency-key).
 */
function withoutSecrets(body: string, secretFields: readonly string[] | undefined): string {
  if (!secretFields || secretFields.length === 0 || body === '') return body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return body;
  const record = parsed as Record<string, unknown>;
  if (!secretFields.some((field) => field in record)) return body;
  for (const field of secretFields) if (field in record) record[field] = null;
  return JSON.stringify(record);
}

/**
 * Reads an upload's file to compare it with a stored answer's fingerprint: the first part named
 * `file`, as UploadFingerprint takes it in the upload; other parts are read past.
 */
async function uploadFingerprintOf(request: FastifyRequest, hash: Hash): Promise<string> {
  const fingerprint = new UploadFingerprint(hash);
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    const taken = part.fieldname === 'file' && !fingerprint.finished;
    if (taken) fingerprint.begin(part.filename, part.mimetype);
    for await (const chunk of part.file) if (taken) fingerprint.add(chunk as Buffer);
    if (taken) fingerprint.finish();
  }
  return fingerprint.digest();
}

function replay(reply: FastifyReply, status: number, headersJson: string | null, body: string | null): FastifyReply {
  const headers = JSON.parse(headersJson ?? '{}') as Record<string, string>;
  void reply.code(status).headers(headers).header('idempotent-replayed', 'true');
  if (status === 204 || body === null || body === '') return reply.send();
  return reply.send(body);
}
