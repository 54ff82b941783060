import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../errors.js';
import { isApiRoute } from './json-rules.js';
import { addRouteHook, methodsOf } from '../shared/route-hooks.js';
import { ErrorBody } from '../shared/schemas.js';

/**
 * Conditional requests (RFC 9110 §13; docs/api-behaviour.md#safe-concurrent-edits-etag-if-match-if-none-match): one mechanism.
 *
 * - Every 200 JSON answer of a single resource (a GET, HEAD or PATCH of an address with an id)
 *   carries a strong `ETag`: a hash of the answer's bytes as the route's serializer wrote them
 *   (not parsed back), so it changes exactly when what the client would see changes (a team's
 *   members included), and the same record in the same state always has the same one, in every
 *   process.
 * - `If-None-Match` on such a GET: when one of its tags (weak comparison) or `*` names the current
 *   representation, the answer is 304 with the ETag and no body.
 * - `If-Match` on PATCH and DELETE: the service compares it with the record as it reads it under
 *   the transaction's lock (`assertIfMatch`), before changing anything, so the check and the write
 *   are one atomic step: a stale tag is 412 and nothing changes. The service tags the record with
 *   the resource GET's own serializer (`IfMatch.tagOf`), so its tag is the GET's byte for byte.
 */

const ETagHeader = (description: string) => Type.String({ maxLength: 2000, description });
const IfNoneMatch = ETagHeader('The ETag of the copy the client holds: 304 Not Modified (no body) while it is still current');
const IfMatch = ETagHeader(
  'Change only if the record is still as the client last saw it: its ETag (or `*`). A stale one is 412 and nothing is changed',
);

const NotModified = Type.Null({ description: 'Not Modified: the copy named in If-None-Match is current (no body)' });

/**
 * The entity tag of a serialized representation: a hash of the answer's bytes, exactly as the
 * route's serializer wrote them. The serializer writes the schema's properties in the schema's
 * order whatever the object's, so the same record in the same state has the same bytes, and tag,
 * in every process; any change a client could see changes them.
 */
export function etagOfPayload(payload: string): string {
  // One-shot hash: no Hash object per answer (it runs on every single-record GET).
  return `"${hash('sha256', payload, 'base64url').slice(0, 32)}"`;
}

/** `*`, or one or more entity tags (`"x"`, `W/"x"`) separated by commas (RFC 9110 §13.1.1, §8.8.3). */
const ENTITY_TAG = '(?:W/)?"[\\x21\\x23-\\x7e\\x80-\\xff]*"';
const IF_MATCH_SYNTAX = new RegExp(`^[ \\t]*(?:\\*|${ENTITY_TAG}(?:[ \\t]*,[ \\t]*${ENTITY_TAG})*)[ \\t]*$`);

/** The tags of an If-Match / If-None-Match header; `*` stays `*`. */
function tagsOf(header: string): string[] {
  return header.split(',').map((t) => t.trim()).filter(Boolean);
}

/**
 * An If-Match header, with the way to tag a representation as the resource's GET answer is tagged
 * (its route's serializer, then etagOfPayload).
 */
export interface IfMatch {
  header: string;
  tagOf: (representation: unknown) => string;
}

/**
 * Throws 412 unless `ifMatch` (the request's If-Match, if any) names the current representation of
 * the record, or is `*`. Strong comparison: a weak tag never matches. Call it inside the changing
 * transaction, after reading the record with its lock.
 */
export function assertIfMatch(ifMatch: IfMatch | undefined, current: unknown, resource: string): void {
  if (ifMatch === undefined) return;
  const tags = tagsOf(ifMatch.header);
  if (tags.includes('*')) return;
  if (!tags.includes(ifMatch.tagOf(current))) throw errors.preconditionFailed(resource);
}

/** The request's If-Match, for the service to check (see assertIfMatch). */
export function ifMatchOf(request: FastifyRequest): IfMatch | undefined {
  return request.ifMatch ?? undefined;
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
  // The 200 schema of each single-resource address's GET (or PATCH): what If-Match tags are made
  // from. A DELETE answers no representation, so its check serializes the record as the GET does.
  const representations = new Map<string, { schema: unknown; fromGet: boolean }>();
  app.decorateRequest('ifMatch', null);
  // Every If-Match route needs a representation to tag, or its check would be skipped: refuse to start.
  const checkedUrls = new Set<string>();
  app.addHook('onReady', (done) => {
    const missing = [...checkedUrls].filter((url) => !representations.has(url));
    done(missing.length > 0 ? new Error(`If-Match routes without a GET or PATCH of one record at the same address: ${missing.join(', ')}`) : undefined);
  });
  app.addHook('onRoute', (route) => {
    const schema = route.schema ?? {};
    const response = schema.response as Record<string, unknown> | undefined;
    const methods = methodsOf(route.method);
    const single = isSingleResource(route.url, response);
    if (single && (methods.includes('GET') || methods.includes('PATCH')) && !representations.get(route.url)?.fromGet) {
      representations.set(route.url, { schema: response![200], fromGet: methods.includes('GET') });
    }
    // The ETag hook is the route's own: GET (and its HEAD twin, which comes here as HEAD) and PATCH
    // of one record. First among the route's own: the HEAD twin's last one drops the body.
    // A POST that changes and answers the record of another address (`ifMatch: { of }`) is tagged
    // and checked as that address's PATCH would be.
    const of = actsOn(route);
    if (single && (methods.includes('GET') || methods.includes('HEAD') || methods.includes('PATCH') || of !== undefined)) addRouteHook(route, 'onSend', tagAnswer, { first: true });
    const reads = methods.includes('GET') && single;
    const writes =
      ((methods.includes('PATCH') || methods.includes('DELETE')) && isApiRoute(route.url) && route.url.includes(':') && route.config?.ifMatch === true) ||
      (methods.includes('POST') && single && of !== undefined);
    if (writes) {
      const url = of ?? route.url;
      checkedUrls.add(url);
      addRouteHook(route, 'preHandler', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
        const header = request.headers['if-match'];
        const representation = representations.get(url);
        // A header that is no precondition at all is refused (400), not ignored nor judged stale
        // (docs/api-behaviour.md#safe-concurrent-edits-etag-if-match-if-none-match).
        if (typeof header === 'string' && !IF_MATCH_SYNTAX.test(header)) {
          done(errors.malformedIfMatch(header));
          return;
        }
        if (typeof header === 'string' && representation !== undefined) {
          // The route's own serializer compiler (Fastify's default), so the bytes are the GET's.
          const serialize = reply.compileSerializationSchema(representation.schema as Record<string, unknown>, '200') as (value: unknown) => string;
          request.ifMatch = { header, tagOf: (value) => etagOfPayload(serialize(value)) };
        }
        done();
      });
    }
    if (!reads && !writes) return;
    const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown> };
    const extra = reads ? { 'if-none-match': IfNoneMatch } : { 'if-match': IfMatch };
    route.schema = {
      ...schema,
      headers: { ...headers, type: 'object', properties: { ...headers.properties, ...extra } },
      response: writes ? { 400: ErrorBody, 412: ErrorBody, ...response } : { 304: NotModified, ...response },
    };
  });
}

/** The address whose record a POST route changes and answers (`config.ifMatch: { of }`), if it is such a route. */
export function actsOn(route: { method: string | string[]; config?: unknown }): string | undefined {
  const ifMatch = (route.config as { ifMatch?: unknown } | undefined)?.ifMatch;
  return methodsOf(route.method).includes('POST') && typeof ifMatch === 'object' && ifMatch !== null ? (ifMatch as { of: string }).of : undefined;
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
  // The hook is only on routes of one record (GET, HEAD, PATCH, and POSTs with `ifMatch: { of }`).
  if (method === 'DELETE') return payload;
  const type = reply.getHeader('content-type');
  if (typeof type !== 'string' || !JSON_TYPE.test(type)) return payload;
  const etag = etagOfPayload(payload);
  void reply.header('etag', etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if ((method === 'GET' || method === 'HEAD') && typeof ifNoneMatch === 'string') {
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
    /**
     * The route's service checks If-Match against the record under its lock (assertIfMatch). A POST
     * that changes and answers the record of another address gives that address (`{ of:
     * '/v1/tickets/:ticket_id' }`): its answer is tagged, and If-Match checked, as that record's.
     */
    ifMatch?: boolean | { of: string };
  }
  interface FastifyRequest {
    /** The If-Match header of a route with `config.ifMatch`, with the tag function to check it by. */
    ifMatch: IfMatch | null;
  }
}
