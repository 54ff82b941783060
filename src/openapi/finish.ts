import { errors, UNAUTHORIZED_DETAILS } from '../errors.js';

/** The parts of the generated document the finishing step reads and writes. */
export interface OpenApiDocument {
  tags?: { name: string; description?: string }[];
  components?: Record<string, Record<string, unknown> | undefined>;
  paths?: Record<string, Record<string, Operation>>;
  [key: string]: unknown;
}

interface Operation {
  tags?: string[];
  parameters?: Array<{ in?: string; name?: string }>;
  requestBody?: { content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> };
  security?: Record<string, string[]>[];
  responses?: Record<string, Response>;
}

interface Response {
  $ref?: string;
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: { $ref?: string } }>;
}

/** Tags in the order the documentation shows them; a tag a route uses that is missing here is added after them. */
export const TAGS: { name: string; description: string }[] = [
  { name: 'Tickets', description: 'Support requests: subject, description, status, priority, assignment' },
  { name: 'Comments', description: 'The thread of a ticket, with internal notes the customer never sees' },
  { name: 'Attachments', description: 'Files of a ticket (30 MB at most) and their signed download addresses' },
  { name: 'Customers', description: 'The people who open tickets' },
  { name: 'Teams', description: 'Groups of agents; a ticket can be assigned to one team' },
  { name: 'Tags', description: "The organization's ticket tags with how many tickets carry each" },
  { name: 'Custom fields', description: 'Fields an organization defines for its tickets (custom_fields on a ticket)' },
  { name: 'Views', description: 'Saved lists of tickets by conditions, shared or personal, with their tickets and counts' },
  { name: 'Macros', description: 'Named lists of actions that change a ticket in one step, and applying one to a ticket' },
  { name: 'Business hours', description: 'Weekly hours and holidays in an IANA time zone, which SLA policies count time in' },
  { name: 'SLA policies', description: 'Promises per priority (first response, next response, resolution), kept by deadlines on each ticket' },
  { name: 'Jobs', description: 'Bulk changes: one action list applied to up to 1,000 tickets by a durable job, and its progress' },
  { name: 'Triggers and automations', description: 'Rules that act by themselves: on events after they commit (triggers), or on time (automations)' },
  { name: 'Users', description: 'Agents, who work on tickets' },
  { name: 'Sessions', description: 'Agents sign in with email and password: a session cookie for the agent console' },
  { name: 'Dashboard', description: 'Ticket counts and timings for an overview' },
  { name: 'Events', description: 'The change feed: every change to tickets, comments, customers and the rest, in order' },
  { name: 'Webhooks', description: 'Endpoints that receive events as signed HTTP POSTs, with their delivery log and retries' },
  { name: 'Mailboxes', description: 'The email channel: mailboxes whose mail becomes tickets and comments, and from which replies go out' },
  { name: 'Keys', description: 'API keys: check the key in use, create, list and revoke keys' },
  { name: 'Portal', description: "Customer self-service through a ticket's tracking token (no API key)" },
  { name: 'Health', description: 'Liveness and readiness for load balancers (no API key)' },
];

/** Descriptions of responses whose schema gives none. */
const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No content',
  '206': 'Partial content (a Range request)',
};

/** Plain reason phrases for the errors of public routes, whose meaning is their own. */
const REASONS: Record<string, string> = {
  '400': 'Bad request',
  '403': 'Forbidden',
  '404': 'Not found',
  '414': 'A path parameter is too long',
  '416': 'Range not satisfiable',
  '422': 'Validation error',
  '429': 'Too many requests',
  '500': 'Internal server error',
  '503': 'Service unavailable',
};

/**
 * The shared error responses, by status: each operation refers to them instead of repeating
 * them, and their headers are described once.
 */
const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  '400': {
    name: 'BadRequest',
    description: 'Bad request: malformed JSON, a malformed address, or an upload that is not one allowed file of at most 30 MB',
  },
  '401': { name: 'Unauthorized', description: 'Missing, malformed, unknown, expired or revoked API key' },
  '403': { name: 'Forbidden', description: 'The key lacks the required scope or role; `detail` names it' },
  '404': { name: 'NotFound', description: 'Not found (a record of another organization is not found either)' },
  '409': { name: 'Conflict', description: 'Conflicts with an existing record' },
  '413': {
    name: 'PayloadTooLarge',
    description: "Request body larger than 1 MiB, or an upload that does not fit in the organization's storage quota",
  },
  '415': { name: 'UnsupportedMediaType', description: 'Content-Type is not application/json (or a type the route can read)' },
  '414': { name: 'UriTooLong', description: 'A path parameter is longer than 100 characters' },
  '416': { name: 'RangeNotSatisfiable', description: 'The requested range is outside the file' },
  '422': { name: 'ValidationFailed', description: 'Validation error: `errors` names each invalid field' },
  '431': { name: 'RequestHeaderFieldsTooLarge', description: 'The request line and headers are larger than 16 KiB' },
  '429': {
    name: 'RateLimited',
    description: 'Rate limit exceeded, or (`search_busy`) too many searches of the organization at once: retry after the seconds in Retry-After',
  },
  '500': { name: 'InternalError', description: 'Internal server error (no internals are shown)' },
  '503': {
    name: 'StoreUnavailable',
    description:
      'The data store is temporarily unavailable (down, overloaded past its timeouts, read-only or full): retry after the seconds in Retry-After; nothing in the request needs to change. ' +
      'On a search, `search_timeout`: it did not finish within its time budget; retry after Retry-After or narrow it',
  },
};

/**
 * One realistic body per shared error status, made by the error catalogue itself so an example
 * cannot drift from what the service says.
 */
const ERROR_EXAMPLES: Record<string, unknown> = {
  '400': { detail: errors.malformedJson().detail },
  '401': { detail: UNAUTHORIZED_DETAILS.missing },
  '403': { detail: errors.forbidden('tickets:write').detail },
  '404': { detail: errors.notFound('Ticket').detail },
  '409': { detail: 'A customer with the email ada@example.com already exists' },
  '413': { detail: errors.payloadTooLarge(1_048_576).detail },
  '414': { detail: errors.uriTooLong(100).detail },
  '415': { detail: errors.unsupportedMediaType().detail },
  '416': { detail: errors.rangeNotSatisfiable(48_213).detail },
  '422': {
    detail: errors.invalidField('body.priority', 'must be one of: low, medium, high, urgent').detail,
    errors: [{ field: 'body.priority', message: 'must be one of: low, medium, high, urgent' }],
  },
  '429': { detail: errors.rateLimited(12).detail },
  '431': { detail: 'Request headers are too large: the request line and headers may take at most 16384 bytes' },
  '500': { detail: errors.internal().detail, request_id: '0b7e6c1e-4f57-4a6e-9d0b-2f1c8a3e5d94' },
  '503': { detail: errors.storeUnavailable().detail, request_id: '5c2d9f70-1a3b-4c8e-8f61-7d2e0a9b4c13' },
};

/**
 * Statuses answered after the request was counted against its key's budget, so they carry the
 * RateLimit-* headers too: not 401 (checked first), nor those raised before routing (414, 431).
 */
const COUNTED_ERRORS = new Set(['400', '403', '404', '409', '413', '415', '416', '422', '429', '500', '503']);

const HEADERS: Record<string, { description: string; schema: Record<string, unknown> }> = {
  'Cache-Control': { description: '`no-store` on JSON answers and portal pages: none may be kept by a cache', schema: { type: 'string', examples: ['no-store'] } },
  'X-Content-Type-Options': { description: 'Always `nosniff`', schema: { type: 'string', examples: ['nosniff'] } },
  Location: { description: 'Where to go next', schema: { type: 'string' } },
  CreatedLocation: {
    description: 'The address of the record made (relative to the service): `<this path>/<id>`',
    schema: { type: 'string', examples: ['/v1/tickets/0b9f4c1e-6f1a-4c55-9d0e-7d6a1f0c2b3a'] },
  },
  JobLocation: { description: 'The job made: `/v1/jobs/<job_id>`', schema: { type: 'string', examples: ['/v1/jobs/5d7c1a2e-0f3b-4e8a-9c61-2b4d8e0f7a13'] } },
  'Content-Range': { description: '`bytes */<size>`: the size of the file', schema: { type: 'string', examples: ['bytes */48213'] } },
  'WWW-Authenticate': { description: 'Always `Bearer`', schema: { type: 'string', examples: ['Bearer'] } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
  Link: {
    description: 'The next page of the list (`<...>; rel="next"`, its `cursor` filled in), sent when this page is full',
    schema: { type: 'string', examples: ['</v1/tickets?limit=50&cursor=eyJ0IjoiMjAyNi0xMS0yM1QxMDowMDowMC4wMDBaIn0>; rel="next"'] },
  },
  'RateLimit-Limit': {
    description: "Requests per minute the key's budget allows",
    schema: { type: 'integer', minimum: 1, examples: [2000] },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer', minimum: 0, examples: [1999] } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer', minimum: 0, examples: [42] } },
  'Idempotent-Replayed': {
    description: '`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key (a secret it held shown once is null)',
    schema: { type: 'string', enum: ['true'] },
  },
};
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
/** Headers every response of a status carries, wherever it is answered. */
const STATUS_HEADERS: Record<string, string[]> = {
  '303': ['Location'],
  '401': ['WWW-Authenticate'],
  '416': ['Content-Range'],
  '429': ['Retry-After'],
  '503': ['Retry-After'],
};
/** Headers of every JSON answer and every page (http/json-rules.ts, the portal's pages). */
const CONTENT_HEADERS = ['Cache-Control', 'X-Content-Type-Options'];
const isList = (response: Response): boolean => Object.values(response.content ?? {}).some((c) => (c.schema as { type?: string } | undefined)?.type === 'array');
const carriesContentHeaders = (response: Response): boolean =>
  Object.keys(response.content ?? {}).some((type) => type === 'application/json' || type === 'text/html');

const ERROR_SCHEMA = '#/components/schemas/Error';
const SAME_EVERYWHERE = new Set(['414', '431', '500', '503']);
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/**
 * Collections whose members have their own address (a GET `<path>/{id}`): a create there answers
 * with `Location` (http/location.ts applies the same rule to the answers).
 */
function createdLocationPaths(document: OpenApiDocument): Set<string> {
  const paths = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    const collection = /^(.+)\/\{[A-Za-z_]+\}$/.exec(path)?.[1];
    if (collection && (item as Record<string, unknown>).get) paths.add(collection);
  }
  return paths;
}

/**
 * The document-wide finishing step: error responses become references to shared responses, the
 * responses of authenticated operations list the rate-limit headers, success responses get a
 * description, and `tags` lists every tag in use.
 */
export function finishDocument(document: OpenApiDocument): OpenApiDocument {
  const usedTags = new Set<string>();
  const usedResponses = new Set<string>();
  const usedHeaders = new Set<string>();
  const created = createdLocationPaths(document);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      for (const tag of operation.tags ?? []) usedTags.add(tag);
      exampleFromSchema(document, operation);
      const authenticated = (operation.security ?? []).length > 0;
      const idempotent = (operation.parameters ?? []).some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key');
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const shared = ERROR_RESPONSES[status];
        const isError = Object.values(response.content ?? {}).some((c) => c.schema?.$ref === ERROR_SCHEMA);
        // A public route's errors mean something of their own (a signed address's 403): kept inline.
        // Those raised before the route runs (414, 431) or after it failed (500, 503) mean the same everywhere.
        if (shared && isError && (authenticated || SAME_EVERYWHERE.has(status))) {
          operation.responses![status] = { $ref: `#/components/responses/${shared.name}` };
          usedResponses.add(status);
          continue;
        }
        if (response.description === 'Default Response') {
          response.description = SUCCESS_DESCRIPTIONS[status] ?? (authenticated ? shared?.description : REASONS[status]) ?? `HTTP ${status}`;
        }
        const headers = [...(STATUS_HEADERS[status] ?? []), ...(carriesContentHeaders(response) ? CONTENT_HEADERS : [])];
        if (authenticated && status.startsWith('2')) headers.push(...RATE_LIMIT_HEADERS);
        if (status === '200' && isList(response)) {
          // Only a full page has a next one (src/shared/pagination.ts): declared, not required.
          response.headers = { Link: { ...HEADERS.Link, required: false }, ...response.headers };
        }
        if (status === '201' && method === 'post' && created.has(path)) {
          response.headers = { Location: headerRef('CreatedLocation'), ...response.headers };
          usedHeaders.add('CreatedLocation');
        }
        if (status === '202' && Object.values(response.content ?? {}).some((c) => c.schema?.$ref === '#/components/schemas/JobAccepted')) {
          response.headers = { Location: headerRef('JobLocation'), ...response.headers };
          usedHeaders.add('JobLocation');
        }
        if (idempotent && (status.startsWith('2') || status === '422' || status === '404' || status === '409')) {
          // Only on a replay: declared, not required.
          response.headers = { 'Idempotent-Replayed': { ...HEADERS['Idempotent-Replayed'], required: false }, ...response.headers };
        }
        if (headers.length > 0) {
          // A header the route describes itself (a download's Cache-Control: private) keeps its description.
          response.headers = { ...Object.fromEntries(headers.map((h) => [h, headerRef(h)])), ...response.headers };
          for (const value of Object.values(response.headers)) {
            const ref = (value as { $ref?: string }).$ref;
            if (ref) usedHeaders.add(ref.replace('#/components/headers/', ''));
          }
        }
      }
    }
  }

  const responses: Record<string, unknown> = {};
  for (const status of [...usedResponses].sort()) {
    const shared = ERROR_RESPONSES[status]!;
    const headers = [...(STATUS_HEADERS[status] ?? []), ...CONTENT_HEADERS];
    for (const header of headers) usedHeaders.add(header);
    // Not on every answer of the status (a 400 for a bad address comes before the key is counted):
    // declared, but explicitly not required.
    // A 409 for an Idempotency-Key still in flight says when to retry; other conflicts do not.
    const optional: [string, unknown][] = status === '409' ? [['Retry-After', { ...HEADERS['Retry-After'], description: 'Seconds to wait before retrying: sent when the Idempotency-Key is still in flight', required: false }]] : [];
    const counted: [string, unknown][] = COUNTED_ERRORS.has(status)
      ? RATE_LIMIT_HEADERS.map((h) => {
          const header = HEADERS[h]!;
          return [h, { ...header, description: `${header.description}; sent when the request was counted against a key's budget`, required: false }];
        })
      : [];
    responses[shared.name] = {
      description: shared.description,
      headers: { ...Object.fromEntries(headers.map((h) => [h, headerRef(h)])), ...Object.fromEntries(counted), ...Object.fromEntries(optional) },
      content: { 'application/json': { schema: { $ref: ERROR_SCHEMA }, example: ERROR_EXAMPLES[status] } },
    };
  }
  const headers = Object.fromEntries([...usedHeaders].sort().map((h) => [h, HEADERS[h]]));
  document.components = { ...document.components, responses, headers };

  const known = TAGS.filter((t) => usedTags.has(t.name));
  const others = [...usedTags].filter((name) => !TAGS.some((t) => t.name === name)).sort().map((name) => ({ name }));
  document.tags = [...known, ...others];
  return document;
}

/**
 * The first example of a request body's named schema, also as the example of its media type:
 * what /docs fills "Try it out" with, so it must work as it is (no made-up ids to look up).
 */
function exampleFromSchema(document: OpenApiDocument, operation: Operation): void {
  for (const media of Object.values(operation.requestBody?.content ?? {})) {
    const ref = media.schema?.$ref;
    if (!ref?.startsWith('#/components/schemas/') || media.example !== undefined) continue;
    const schema = document.components?.schemas?.[ref.slice('#/components/schemas/'.length)] as { examples?: unknown[] } | undefined;
    if (schema?.examples?.[0] !== undefined) media.example = schema.examples[0];
  }
}
