import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../errors.js';
import { isApiRoute } from '../shared/http-rules.js';
import { addRouteHook, methodsOf } from '../shared/route-hooks.js';
import { ErrorBody } from '../shared/schemas.js';

/**
 * Conditional requests (RFC 9110 §13; decisions §13; docs/api-behaviour.md#etags): one mechanism.
 *
 * - Every 200 JSON answer of a single resource (a GET, HEAD or PATCH of an address with an id)
 *   carries a strong `ETag`: a hash of the representation, so it changes exactly when what the
 *   client would see changes (a team's members included), and the same record in the same state
 *   always has the same one, in every process.
 * - `If-None-Match` on such a GET: when one of its tags (weak comparison) or `*` names the current
 *   representation, the answer is 304 with the ETag and no body.
 * - `If-Match` on PATCH and DELETE: the service compares it with the record as it reads it under
 *   the transaction's lock (`assertIfMatch`), before changing anything, so the check and the write
 *   are one atomic step: a stale tag is 412 and nothing changes.
 */

const ETagHeader = (description: string) => Type.String({ maxLength: 2000, description });
const IfNoneMatch = ETagHeader('The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current');
const IfMatch = ETagHeader(
  'Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed',
);

const NotModified = Type.Null({ description: 'Not Modified: the copy named in If-None-Match is current (no body)' });

/** The entity tag of a JSON representation: a hash of its canonical JSON (keys sorted). */
export function etagOf(representation: unknown): string {
  // One-shot hash: no Hash object per answer (it runs on every single-record GET).
  return `"${hash('sha256', canonicalJson(representation), 'base64url').slice(0, 32)}"`;
}

/** JSON with every object's keys in code-unit order and undefined members left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = '[';
    // An undefined element adds nothing between its commas (as Array.prototype.join would).
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + ((canonicalJson(value[i]) as string | undefined) ?? '');
    return `${out}]`;
  }
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const keys = sortedKeysOf(object);
    // A flat object (every member a string, number, boolean, null or undefined), as a record's
    // answer is: JSON.stringify writes exactly the members the key list names, in its order.
    let flat = typeof object.toJSON !== 'function';
    for (let i = 0; flat && i < keys.length; i++) {
      const member = object[keys[i]!];
      flat = member === null || (typeof member !== 'object' && typeof member !== 'function' && typeof member !== 'symbol' && typeof member !== 'bigint');
    }
    if (flat) return JSON.stringify(object, keys);
    let out = '{';
    for (const key of keys) {
      const member = object[key];
      if (member === undefined) continue;
      out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(member)}`;
    }
    return `${out}}`;
  }
  return JSON.stringify(value);
}

// The last key list sorted and its sorted copy: the answers of one route have the same keys in the
// same order, and sorting them again was a third of the tag's cost.
let lastKeys: string[] = [];
let lastSorted: string[] = [];

/** The object's own keys in code-unit order (Array.prototype.sort without a comparator, like `<`). */
function sortedKeysOf(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object);
  let same = keys.length === lastKeys.length;
  for (let i = 0; same && i < keys.length; i++) same = keys[i] === lastKeys[i];
  if (!same) {
    lastKeys = keys;
    lastSorted = [...keys].sort();
  }
  return lastSorted;
}

/** The tags of an If-Match / If-None-Match header; `*` stays `*`. */
function tagsOf(header: string): string[] {
  return header.split(',').map((t) => t.trim()).filter(Boolean);
}

/**
 * Throws 412 unless `ifMatch` (the request's If-Match header, if any) names the current
 * representation of the record, or is `*`. Strong comparison: a weak tag never matches. Call it
 * inside the changing transaction, after reading the record with its lock.
 */
export function assertIfMatch(ifMatch: string | undefined, current: unknown, resource: string): void {
  if (ifMatch === undefined) return;
  const tags = tagsOf(ifMatch);
  if (tags.includes('*')) return;
  if (!tags.includes(etagOf(current))) throw errors.preconditionFailed(resource);
}

/** The request's If-Match header, for the service to check (see assertIfMatch). */
export function ifMatchOf(request: FastifyRequest): string | undefined {
  const value = request.headers['if-match'];
  return typeof value === 'string' ? value : undefined;
}

/** The ETag of a single-record answer, as the OpenAPI document declares it. */
export const ETagResponseHeader = Type.String({ description: 'The version of this representation: send it back in If-None-Match (GET) or If-Match (PATCH, DELETE)' });

/** A route of one record: an /v1 address with a path parameter, answering an object (not a list). */
export function isSingleResource(url: string, response: Record<string, unknown> | undefined): boolean {
  if (!isApiRoute(url) || !url.includes(':')) return false;
  const ok = response?.[200] as { type?: unknown } | undefined;
  return ok !== undefined && ok.type === 'object';
}

export function registerConditionalRequests(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    const response = schema.response as Record<string, unknown> | undefined;
    const methods = methodsOf(route.method);
    const single = isSingleResource(route.url, response);
    // The ETag hook is the route's own: GET (and its HEAD twin, which comes here as HEAD) and PATCH
    // of one record. First among the route's own: the HEAD twin's last one drops the body.
    if (single && (methods.includes('GET') || methods.includes('HEAD') || methods.includes('PATCH'))) addRouteHook(route, 'onSend', tagAnswer, { first: true });
    const reads = methods.includes('GET') && single;
    const writes = (methods.includes('PATCH') || methods.includes('DELETE')) && isApiRoute(route.url) && route.url.includes(':') && route.config?.ifMatch === true;
    if (!reads && !writes) return;
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
    const extra = reads ? { 'if-none-match': IfNoneMatch } : { 'if-match': IfMatch };
    route.schema = {
      ...schema,
      headers: { ...headers, type: 'object', properties: { ...headers.properties, ...extra } },
      response: writes ? { 412: ErrorBody, ...response } : { 304: NotModified, ...response },
    };
  });
}

const JSON_TYPE = /^application\/json\b/i;
const WEAK = /^W\//;

/** The ETag of a 200 JSON answer of one record, and 304 for a GET whose If-None-Match names it. Synchronous: no promise per answer. */
function tagAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  done(null, tagged(request, reply, payload));
}

function tagged(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'PATCH') return payload;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !JSON_TYPE.test(type)) return payload;
  let etag: string;
  try {
    etag = etagOf(JSON.parse(payload));
  } catch {
    return payload;
  }
  void reply.header('etag', etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (method !== 'PATCH' && typeof ifNoneMatch === 'string') {
    const tags = tagsOf(ifNoneMatch).map((tag) => tag.replace(WEAK, ''));
    if (tags.includes('*') || tags.includes(etag)) {
      void reply.code(304);
      reply.removeHeader('content-type');
      return '';
    }
  }
  return payload;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's service checks If-Match against the record under its lock (assertIfMatch). */
    ifMatch?: boolean;
  }
}
