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
export type UnauthorizedReason = 'missing' | 'scheme' | 'malformed' | 'invalid' | 'session';

/**
 * What a 401 says. The first three can be told from the request alone; an unknown, revoked and
 * expired key all get the same last one, so an answer never tells which keys exist.
 */
export const UNAUTHORIZED_DETAILS: Record<UnauthorizedReason, string> = {
  missing: 'Missing API key: send the header Authorization: Bearer <API key>',
  scheme: 'Invalid Authorization header: use the Bearer scheme, as in Authorization: Bearer <API key>',
  malformed: 'Malformed API key: a key is key_admin_ or key_ro_ followed by 38 letters and digits (a typo fails their checksum), sent alone after Bearer',
  invalid: 'Invalid API key: it is unknown, revoked or expired',
  session: 'Invalid session: it is unknown, expired or signed out; sign in again (POST /v1/sessions) or send an API key',
};

/** The error catalogue: every error the service answers with on purpose is made here. */
export const errors = {
  malformedJson: () => new AppError(400, 'malformed_json', 'Malformed JSON body: the request body is not valid JSON'),
  badRequest: (detail: string) => new AppError(400, 'bad_request', detail),
  fileTooLarge: () => new AppError(400, 'file_too_large', 'File size exceeds the 30 MB maximum (31457280 bytes)'),
  /** The spec's wording first; then what is allowed, and for a type that says nothing (curl's default) what to do. */
  fileTypeNotAllowed: (type: string, allowed: readonly string[]) =>
    new AppError(
      400,
      'file_type_not_allowed',
      `File type '${type}' is not allowed; allowed types: ${allowed.join(', ')}` +
        (type === 'application/octet-stream' || type === ''
          ? `. '${type || '(none)'}' names no type: send the file's real type with its part, e.g. curl -F "file=@notes.txt;type=text/plain"`
          : ''),
    ),
  /** An If-Match that is not `*` nor a list of quoted entity tags (RFC 9110 §13.1.1): refused rather than ignored. */
  malformedIfMatch: (value: string) =>
    new AppError(
      400,
      'malformed_if_match',
      `Malformed If-Match header '${value.length > 80 ? `${value.slice(0, 80)}…` : value}': send the record's ETag exactly as a GET returned it, ` +
        'quotes included (If-Match: "3q2-7Hc1..."), several separated by commas, or * for any version',
    ),
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
  /** A cookie-authenticated change without the session's CSRF token (docs/api-behaviour.md, "Signing in"). */
  csrfTokenInvalid: (missing: boolean) =>
    new AppError(
      403,
      'csrf_token_invalid',
      `${missing ? 'Missing' : 'Wrong'} X-CSRF-Token header: a request signed in with the session cookie that changes anything must send the csrf_token its sign-in answered (GET /v1/sessions/current gives it again)`,
    ),
  /** A failed sign-in: the same words whether the email exists or not; a challenge as every 401 has (RFC 9110). */
  signInFailed: () => new AppError(401, 'sign_in_failed', 'Wrong email or password', undefined, { 'www-authenticate': 'Bearer' }),
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
  /** Too many live streams open at once (GET /v1/stream): whose, the cap and its setting. */
  tooManyStreams: (whose: string, max: number, setting: string) =>
    new AppError(
      429,
      'too_many_streams',
      `Too many live streams are open for ${whose} (at most ${max}, ${setting}); close one (another tab or client) and retry`,
      undefined,
      { 'retry-after': '5' },
    ),
  /** A bounded collection is full (src/limits/collection-caps.ts): the cap, its setting and how to make room. */
  collectionFull: (held: number, cap: { max: number; setting: string; noun: string; remedy: string }) =>
    new AppError(
      422,
      'limit_reached',
      `This organization already has ${held} ${cap.noun}, the most allowed (${cap.setting}=${cap.max}); ${cap.remedy}`,
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
