import type { FastifySchema, RouteOptions } from 'fastify';
import { actsOn, ETagResponseHeader, isSingleResource } from '../http/conditional.js';
import { isApiRoute } from '../http/json-rules.js';
import { ErrorBody } from '../shared/schemas.js';
import type { ComponentCollector } from './components.js';
import { operationIdOf } from './operation-ids.js';

/** The name of the security scheme in `components.securitySchemes`. */
export const BEARER_SCHEME = 'bearerAuth';
/** The signed-in session's cookie (POST /v1/sessions), the other way to call every protected operation. */
export const SESSION_SCHEME = 'sessionCookie';

/** Routes that serve the documentation itself (and `/`, which leads to it); they are not operations of the API. */
export function isDocumentationRoute(url: string, docsPrefix: string): boolean {
  return url === '/' || url === '/openapi.json' || url === docsPrefix || url.startsWith(`${docsPrefix}/`);
}

type Responses = Record<string, unknown>;

/** Methods whose requests may carry a body, which Fastify then parses (GET and HEAD bodies are ignored). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The error statuses a route can answer with, derived from how it is declared rather than
 * listed by hand on each route, so a new route is documented completely without extra work:
 * - every authenticated route: 401 (key) and 429 (rate limit); 403 when it needs a scope or an
 *   admin key; 404 when it has path parameters (a record that does not exist); 422 when it takes
 *   path parameters, a query string or a body, and on every /v1 route (unknown query parameters);
 * - a route whose method may carry a body: 400 (malformed JSON), 413 (over 1 MiB), 415 (a type it
 *   cannot parse), also where the route itself takes no body (a DELETE sent with one);
 * - a route with path parameters: 400 (a parameter that is not valid percent-encoding) and 414
 *   (a parameter longer than Fastify's maxParamLength), both raised before the route runs;
 * - every /v1 route, public ones included: 422 (an unknown query parameter);
 * - every route: 431 (headers too large, from Node's HTTP parser) and 500, and 503 when the store
 *   is unavailable (retryable, with Retry-After), but the health checks, which report on the store
 *   instead of depending on it.
 * Public routes (no API key) answer in their own ways (a signed address that does not verify is
 * 403, not 404), so beyond these they list their statuses themselves. Statuses the route declares
 * itself keep their own schema.
 */
export function errorStatusesOf(route: RouteOptions, schema: FastifySchema): number[] {
  const auth = route.config?.auth;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const statuses = [431, 500];
  if (!schema.tags?.includes('Health')) statuses.push(503);
  if (auth) {
    statuses.push(401, 429);
    if (auth.scope || auth.adminKey) statuses.push(403);
    if (schema.params) statuses.push(404);
    if (schema.body || schema.params || schema.querystring) statuses.push(422);
  }
  if (isApiRoute(route.url)) statuses.push(422);
  if (schema.params) statuses.push(400, 414);
  if (!route.config?.multipart && methods.some((m) => BODY_METHODS.has(m))) statuses.push(400, 413, 415);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

/** Adds the error responses of `errorStatusesOf` that the route does not declare itself. */
export function withErrorResponses(route: RouteOptions, schema: FastifySchema): Responses {
  const declared = (schema.response ?? {}) as Responses;
  const out: Responses = { ...declared };
  for (const status of errorStatusesOf(route, schema)) {
    const key = String(status);
    if (!(key in out) && !(status in out)) out[key] = ErrorBody;
  }
  return out;
}

/**
 * The route's security requirement and the `x-required-scope` extension, read from the same
 * `config.auth` the authentication hook enforces, so the document cannot drift from the checks.
 * Public routes get an empty requirement (no key needed).
 */
export function securityOf(route: RouteOptions): Record<string, unknown> {
  const auth = route.config?.auth;
  if (!auth) return { security: [] };
  const out: Record<string, unknown> = { security: [{ [BEARER_SCHEME]: auth.scope ? [auth.scope] : [] }, { [SESSION_SCHEME]: [] }] };
  if (auth.scope) out['x-required-scope'] = auth.scope;
  if (auth.adminKey) out['x-admin-key-only'] = true;
  return out;
}

/** One sentence on what the caller needs, appended to the operation's description. */
export function accessSentence(route: RouteOptions): string {
  const auth = route.config?.auth;
  if (!auth) return 'Public: no API key needed.';
  if (auth.scope) return `Requires an API key with the scope \`${auth.scope}\`.`;
  if (auth.adminKey && auth.ownKeyParam) return 'Requires an admin key; a read-only key may call it on its own key only.';
  if (auth.adminKey) return 'Requires an admin key (`key_admin_`).';
  return 'Requires a valid API key; no particular scope.';
}

/** The multipart body of an upload route, which has no body schema (the file is streamed). */
const UPLOAD_BODY = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: "The file; the part's own Content-Type is its type" } },
};

/** The body of the raw intake route: a message as it would arrive by mail. */
const RAW_MAIL_BODY = { type: 'string', format: 'binary', description: 'The raw message (RFC 5322), at most 40 MiB' };

/**
 * A response of raw bytes (a download) as a non-JSON content, so it is not shown as JSON: any
 * media type, since a file is served with the type it was uploaded as.
 */
function documentResponse(schema: unknown, named: ComponentCollector): unknown {
  const s = schema as Record<string, unknown> | undefined;
  if (s?.type === 'string' && s.format === 'binary') {
    // One entry per type a file can be served with (`x-content-types`), or any type.
    const { description, headers, 'x-content-types': types, ...rest } = s;
    const mediaTypes = Array.isArray(types) ? (types as string[]) : ['*/*'];
    return { description, ...(headers ? { headers } : {}), content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: rest }])) };
  }
  return named.refer(schema);
}

/**
 * The schema @fastify/swagger documents for a route: the route's own schema plus its access
 * requirement, every error status that applies, named schemas as references and the upload body.
 * Only the document sees it; the route keeps validating and serializing with its own schema.
 */
export function documentRoute(route: RouteOptions, schema: FastifySchema, named: ComponentCollector): FastifySchema {
  const description = [schema.description, accessSentence(route)].filter(Boolean).join('\n\n');
  const response = Object.fromEntries(
    Object.entries(withErrorResponses(route, schema)).map(([status, s]) => [status, documentResponse(s, named)]),
  );
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const answersEtag = (methods.includes('GET') || methods.includes('PATCH') || actsOn(route) !== undefined) && isSingleResource(route.url, schema.response as Record<string, unknown> | undefined);
  if (answersEtag && response['200'] !== undefined) {
    // Every 200 of one record carries its ETag (src/http/conditional.ts).
    response['200'] = { description: 'OK', headers: { ETag: ETagResponseHeader }, content: { 'application/json': { schema: response['200'] } } };
  }
  const operationId = operationIdOf(methods.find((m) => m !== 'HEAD') ?? methods[0]!, route.url);
  const documented: FastifySchema = { ...schema, operationId, description, ...securityOf(route), response };
  if (schema.querystring) documented.querystring = optionalDefaults(schema.querystring);
  // A body the code has not named is named after its operation: createTicket's is CreateTicketRequest.
  const bodyName = `${operationId[0]!.toUpperCase()}${operationId.slice(1)}Request`;
  if (schema.body) documented.body = named.referAs(bodyName, schema.body);
  else if (route.config?.multipart) documented.body = named.referAs(bodyName, UPLOAD_BODY);
  else if (route.config?.rawMail) documented.body = named.referAs(bodyName, RAW_MAIL_BODY);
  return documented;
}

/**
 * A query parameter with a default (`limit`) is required by the route's TypeBox type, since the
 * handler always sees a value, but a client may leave it out: the document must not require it.
 */
function optionalDefaults(querystring: unknown): unknown {
  const q = querystring as { required?: string[]; properties?: Record<string, { default?: unknown }> };
  if (!Array.isArray(q.required)) return querystring;
  const required = q.required.filter((name) => q.properties?.[name]?.default === undefined);
  const rest: Record<string, unknown> = { ...q };
  delete rest.required;
  return required.length > 0 ? { ...rest, required } : rest;
}
