import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable } from './db/unavailable.js';
import { JSON_SECURITY_HEADERS } from './shared/http-rules.js';

export interface FieldError {
  field: string;
  message: string;
}

/** An error the API answers with on purpose: a status, a stable code and a user-facing detail. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

/** Why a request carries no usable API key. */
export type UnauthorizedReason = 'missing' | 'scheme' | 'malformed' | 'invalid';

/**
 * What a 401 says. The first three can be told from the request alone; an unknown, revoked and
 * expired key all get the same last one, so an answer never tells which keys exist.
 */
export const UNAUTHORIZED_DETAILS: Record<UnauthorizedReason, string> = {
  missing: 'Missing API key: send the header Authorization: Bearer <API key>',
  scheme: 'Invalid Authorization header: use the Bearer scheme, as in Authorization: Bearer <API key>',
  malformed: 'Malformed API key: a key is key_admin_ or key_ro_ followed by 38 letters and digits (a typo fails their checksum), sent alone after Bearer',
  invalid: 'Invalid API key: it is unknown, revoked or expired',
};

/** The error catalogue: every error the service answers with on purpose is made here. */
export const errors = {
  malformedJson: () => new AppError(400, 'malformed_json', 'Malformed JSON body: the request body is not valid JSON'),
  badRequest: (detail: string) => new AppError(400, 'bad_request', detail),
  fileTooLarge: () => new AppError(400, 'file_too_large', 'File size exceeds the 30 MB maximum (31457280 bytes)'),
  fileTypeNotAllowed: (type: string) =>
    new AppError(400, 'file_type_not_allowed', `File type '${type}' is not allowed`),
  malformedUpload: () =>
    new AppError(
      400,
      'malformed_upload',
      "Malformed multipart body: it must be multipart/form-data with the boundary its Content-Type names, one file part named 'file', and end with the closing boundary",
    ),
  fileContentMismatch: (declared: string, detected: string) =>
    new AppError(
      400,
      'file_content_mismatch',
      `File content does not match its declared type: declared '${declared}', but the content looks like '${detected}'`,
    ),
  unauthorized: (reason: UnauthorizedReason = 'invalid') =>
    new AppError(401, 'unauthorized', UNAUTHORIZED_DETAILS[reason], undefined, { 'www-authenticate': 'Bearer' }),
  forbidden: (scope: string) =>
    new AppError(403, 'forbidden', `Insufficient permissions: requires ${scope}`),
  keyOutlivesCaller: (targetExpiresAt: string | null, callerExpiresAt: string) =>
    new AppError(
      403,
      'forbidden',
      `Insufficient permissions: requires a key that ${targetExpiresAt === null ? 'never expires' : `expires no earlier than ${targetExpiresAt}`} ` +
        `(this key expires at ${callerExpiresAt}; a key can create, change or revoke only keys that expire no later than itself)`,
    ),
  signedUrlInvalid: () =>
    new AppError(403, 'signed_url_invalid', 'The signed address is invalid or has expired; request a new one'),
  notFound: (resource: string) => new AppError(404, 'not_found', `${resource} not found`),
  routeNotFound: (method: string, url: string) =>
    new AppError(404, 'route_not_found', `No route ${method} ${url.split('?')[0] ?? url}`),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new AppError(405, 'method_not_allowed', `Method ${method} is not allowed here; allowed: ${allowed.join(', ')}`, undefined, {
      allow: allowed.join(', '),
    }),
  conflict: (detail: string) => new AppError(409, 'conflict', detail),
  referenceDeleted: (column: string) =>
    new AppError(
      409,
      'reference_deleted',
      `A record this request refers to${column ? ` (${column})` : ''} was deleted while it ran; check the ids it names and retry`,
    ),
  /** Another request with the same Idempotency-Key is still running (src/idempotency/). */
  idempotencyKeyInFlight: (retryAfterSeconds: number) =>
    new AppError(
      409,
      'idempotency_key_in_flight',
      'A request with this Idempotency-Key is still being processed; retry after it completes to get its answer',
      undefined,
      { 'retry-after': String(retryAfterSeconds) },
    ),
  /** The Idempotency-Key was first used for another request (method, path or body). */
  idempotencyKeyReused: () =>
    new AppError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request (another method, path or body); send a new key for a new request',
      [{ field: 'header.idempotency-key', message: 'was already used for a different request' }],
    ),
  /** If-Match named another version than the record's current one: nothing was changed. */
  preconditionFailed: (resource: string) =>
    new AppError(
      412,
      'precondition_failed',
      `${resource} has changed since the version named in If-Match; nothing was changed. Fetch it again (GET returns its current ETag) and retry`,
    ),
  uriTooLong: (maxLength: number) =>
    new AppError(414, 'uri_too_long', `A segment of the request address is too long (at most ${maxLength} characters)`),
  gone: (detail: string) => new AppError(410, 'gone', detail),
  payloadTooLarge: (limit: number) =>
    new AppError(413, 'payload_too_large', `Request body exceeds the ${limit} byte maximum`),
  storageQuotaExceeded: (usedBytes: number, quotaBytes: number) =>
    new AppError(
      413,
      'storage_quota_exceeded',
      `Storage quota exceeded: this organization's attachments take ${usedBytes} of its ${quotaBytes} bytes and the file does not fit; delete attachments to make room`,
    ),
  unsupportedMediaType: () =>
    new AppError(415, 'unsupported_media_type', 'Content-Type must be application/json'),
  rawMailOnly: () =>
    new AppError(415, 'unsupported_media_type', 'Content-Type must be message/rfc822, with the raw message as the body'),
  rawMailTooLarge: (limit: number) =>
    new AppError(413, 'payload_too_large', `The message exceeds the ${limit} byte (40 MiB) maximum of a raw message`),
  rangeNotSatisfiable: (size: number) =>
    new AppError(416, 'range_not_satisfiable', 'Requested range is not satisfiable', undefined, {
      'content-range': `bytes */${size}`,
    }),
  validation: (fieldErrors: FieldError[]) => new AppError(422, 'validation_error', summarize(fieldErrors), fieldErrors),
  invalidField: (field: string, message: string) => errors.validation([{ field, message }]),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'rate_limited', `Rate limit exceeded. Retry after ${retryAfterSeconds} seconds.`, undefined, {
      'retry-after': String(retryAfterSeconds),
    }),
  uploadRateLimited: (perMinute: number, retryAfterSeconds: number) =>
    new AppError(
      429,
      'upload_rate_limited',
      `Upload rate exceeded: at most ${perMinute} uploads per minute per API key. Retry after ${retryAfterSeconds} seconds.`,
      undefined,
      { 'retry-after': String(retryAfterSeconds) },
    ),
  searchBusy: (limit: number) =>
    new AppError(
      429,
      'search_busy',
      `Too many searches of this organization are running at once (at most ${limit}); retry in a moment`,
      undefined,
      { 'retry-after': '1' },
    ),
  searchWindowExceeded: (window: number, ticketNumber: number | null) =>
    new AppError(
      422,
      'search_term_too_short',
      `A search term of one or two characters (or, on PostgreSQL, without three letters or digits in a row) looks only through the newest ${window} tickets that match the other filters, and this page lies beyond them: search for a longer term or narrow the list with filters` +
        (ticketNumber === null ? '' : ` (to find ticket ${ticketNumber} by its number, search for TKT-${ticketNumber})`),
    ),
  internal: () => new AppError(500, 'internal_error', 'Internal server error'),
  unavailable: () => new AppError(503, 'unavailable', 'Service is shutting down; retry shortly'),
  /** The store (or the attachment storage) cannot serve right now: retryable (docs/api-behaviour.md). */
  storeUnavailable: () =>
    new AppError(503, 'store_unavailable', 'The data store is temporarily unavailable; retry shortly', undefined, {
      'retry-after': String(STORE_RETRY_AFTER_SECONDS),
    }),
  /** A search ran out of its time budget (SEARCH_TIMEOUT_MS): retryable, or narrowed. */
  searchTimeout: (timeoutMs: number) =>
    new AppError(
      503,
      'search_timeout',
      `The search did not finish within its ${timeoutMs} ms budget; narrow it (a longer term, or filters) or retry shortly`,
      undefined,
      { 'retry-after': String(SEARCH_RETRY_AFTER_SECONDS) },
    ),
};

/** Seconds a client should wait before retrying a search that ran out of time. */
export const SEARCH_RETRY_AFTER_SECONDS = 2;

/** Seconds a client should wait before retrying a request that found the store unavailable. */
export const STORE_RETRY_AFTER_SECONDS = 2;

function summarize(fieldErrors: FieldError[]): string {
  const first = fieldErrors[0];
  if (!first) return 'Validation failed';
  const more = fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more)` : '';
  return `Validation failed: ${first.field} ${first.message}${more}`;
}

/** Fastify's `maxParamLength` default: a longer path parameter is a 414 before routing. */
export const MAX_PARAM_LENGTH = 100;

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

const partNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Turns Ajv's errors into `{ field, message }` pairs such as `body.priority`. */
export function fieldErrorsFromAjv(context: string | undefined, validation: AjvError[]): FieldError[] {
  const part = partNames[context ?? 'body'] ?? 'body';
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const err of validation) {
    const segments = err.instancePath.split('/').filter(Boolean).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    let message = err.message ?? 'is invalid';
    if (err.keyword === 'required') segments.push(String(err.params.missingProperty));
    if (err.keyword === 'required') message = 'is required';
    if (err.keyword === 'additionalProperties') {
      segments.push(String(err.params.additionalProperty));
      message = 'is not a known field';
    }
    if (err.keyword === 'enum') {
      const allowed = (err.params.allowedValues as unknown[]).filter((v) => v !== null).map(String).join(', ');
      message = `must be one of: ${allowed}`;
    }
    if (err.keyword === 'format') message = formatMessage(String(err.params.format));
    // Branches of anyOf/type unions repeat themselves; keep the first message per field.
    const field = [part, ...segments].join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message });
  }
  return out;
}

function formatMessage(format: string): string {
  switch (format) {
    case 'uuid':
      return 'must be a UUID';
    case 'email':
      return 'must be an email address (something@domain)';
    case 'date-time':
      return 'must be an ISO 8601 date-time with a time zone (2026-01-31T09:15:02Z)';
    case 'http-url':
      return 'must be an http(s) URL';
    case 'iana-timezone':
      return 'must be an IANA time-zone name (Europe/Paris)';
    case 'decimal':
      return 'must be a non-negative decimal with at most 2 decimal places';
    default:
      return `must match format ${format}`;
  }
}

/** Maps any thrown error to the one public shape: `{ detail, errors? }`. Never leaks internals. */
export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation) return errors.validation(fieldErrorsFromAjv(fe.validationContext, fe.validation));
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.malformedJson();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.badRequest('Request body is empty; send a JSON object');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(1_048_576);
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // Fastify's message would echo the address, which may hold a credential (a tracking token).
      return errors.uriTooLong(MAX_PARAM_LENGTH);
    case 'FST_ERR_BAD_URL':
      return errors.badRequest('The request address is not a valid URL (bad percent-encoding)');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType();
    case 'FST_REQ_FILE_TOO_LARGE':
      return errors.fileTooLarge();
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return errors.badRequest("Upload must be multipart/form-data with one file part named 'file'");
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return errors.badRequest("Upload must contain exactly one file part named 'file'");
  }
  if (error instanceof SyntaxError && fe.statusCode === 400) return errors.malformedJson();
  // One rule for every route: a store that is down, busy past its timeouts, read-only or full is 503.
  if (isStoreUnavailable(error)) return errors.storeUnavailable();
  const missing = missingReference(error);
  if (missing !== null) return errors.referenceDeleted(missing);
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // Fastify's own client errors carry safe, user-facing messages.
    return new AppError(fe.statusCode, 'bad_request', fe.message);
  }
  return errors.internal();
}

/**
 * A foreign-key violation: the request named a record (an agent, a team, a ticket) that another
 * request deleted after this one had checked it and before it wrote. Services check references
 * first, so this is only ever that race. Resolves to the column when the store names it
 * (PostgreSQL's `Key (column)=(...)`), '' when it does not (SQLite), null for other errors.
 */
function missingReference(error: unknown): string | null {
  const e = error as { code?: unknown; detail?: unknown };
  if (e.code === '23503') return typeof e.detail === 'string' ? (/^Key \((?:[^,)]+, )*([^,)]+)\)=/.exec(e.detail)?.[1] ?? '') : '';
  return e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ? '' : null;
}

/** The one error handler: every error response of the service goes through here. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
}

/** Where failures are logged: a request's logger or a background job's. */
type FailureLog = Pick<FastifyBaseLogger, 'warn' | 'error' | 'level'>;

/**
 * How every failure is logged, by the error handlers (the JSON API's and the portal pages') and by
 * the background jobs (webhook delivery, event pruning, the storage sweep): the store being
 * unavailable is expected during an outage, possibly for every request and every poll, and is
 * retried, so it is one short warning, no stack; anything else is an error. No stack traces, SQL
 * or keys in log lines at info level: the stack only when debugging.
 */
export function logFailure(log: FailureLog, error: unknown, message: string, bindings: Record<string, unknown> = {}): void {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as { name?: string; code?: unknown; message?: string; stack?: string };
  if (isStoreUnavailable(error) || (error instanceof AppError && error.code === 'store_unavailable')) {
    log.warn({ ...bindings, err: { type: e.name, code: e.code, message: e.message } }, 'store unavailable: ' + message);
    return;
  }
  const stack = log.level === 'debug' || log.level === 'trace' ? e.stack : undefined;
  log.error({ ...bindings, err: { type: e.name, code: e.code, message: e.message, stack } }, message);
}

/**
 * Turns any error into the public `{ detail, errors? }` reply. Also given to Fastify as its
 * `frameworkErrors` handler, so errors raised before routing (a badly percent-encoded address)
 * get the same shape instead of Fastify's default body.
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(error);
  if (appError.statusCode >= 500) logFailure(request.log, error, 'request failed');
  if (appError.headers) void reply.headers(appError.headers);
  // Also here: errors raised before routing (frameworkErrors) skip the onSend hooks that add them.
  void reply.headers(JSON_SECURITY_HEADERS);
  const body: { detail: string; errors?: FieldError[] } = { detail: appError.detail };
  if (appError.errors) body.errors = appError.errors;
  return reply.code(appError.statusCode).type('application/json; charset=utf-8').send(body);
}
