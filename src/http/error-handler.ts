import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable } from '../db/unavailable.js';
import { AppError, errors, type FieldError } from '../errors.js';
import { JSON_SECURITY_HEADERS } from './json-rules.js';

/**
 * The one error handler: every error answer of the service is `{ "detail", "errors"? }` made
 * here from the catalogue (src/errors.ts), whether the error came from a route, from Fastify
 * before routing, or from Node's HTTP parser; and the one way failures are logged.
 */

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
  void reply.headers(JSON_SECURITY_HEADERS).header('x-request-id', request.id);
  const body: { detail: string; errors?: FieldError[]; request_id?: string } = { detail: appError.detail };
  // What to quote when reporting a failure: it finds the request's log lines (docs/api-behaviour.md#requests-and-errors).
  if (appError.statusCode >= 500) body.request_id = request.id;
  if (appError.errors) body.errors = appError.errors;
  return reply.code(appError.statusCode).type('application/json; charset=utf-8').send(body);
}

/** Status and detail for an error Node's HTTP parser raised before any route saw the request. */
function clientErrorAnswer(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, `Request headers are too large: the request line and headers may take at most ${maxHeaderSize} bytes`];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_REQUEST_HEADERS_TIMEOUT':
      return [408, 'Request timeout: the request was not received in time'];
    default:
      return [400, 'Malformed HTTP request: it could not be parsed'];
  }
}

/**
 * Fastify's `clientErrorHandler`: errors of Node's HTTP parser (headers too large, a malformed
 * request line or header, a broken chunked body, a request that took too long) happen before
 * routing, so no Fastify error handler sees them. They get the one error shape `{ "detail" }`,
 * JSON headers and `Connection: close`, then the connection is closed: after a parse error the
 * rest of the stream cannot be trusted.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] = clientErrorAnswer(error.code);
  this.log.debug({ err: { code: error.code, message: error.message } }, 'client error');
  // As Node does: answer only if no response has started on this connection.
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ detail });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    'Connection: close',
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
  // end() flushes the answer first; a client that keeps sending is cut off shortly after.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
