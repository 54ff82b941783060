import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

/**
 * Request and response rules that hold for every route, applied in one place each instead of
 * route by route: which query parameters are known, what an empty JSON body means, the headers
 * every JSON answer carries, and the shape of errors Node's HTTP parser answers on its own.
 */

/** The JSON API: every route under /v1, the customer portal's JSON routes included. */
export const isApiRoute = (url: string): boolean => url.startsWith('/v1/');

const NO_QUERY = Type.Object({}, { additionalProperties: false });

/**
 * Unknown query parameters are a 422 naming them on every route of the JSON API, also on routes
 * that take no query at all, so a typo (`?limt=5`, `?expand=...`) never silently does nothing.
 * Addresses outside /v1 are opened by people and infrastructure rather than API clients (signed
 * downloads, portal pages, /docs, health checks, /openapi.json); a tracking or cache-busting
 * parameter appended to them (`?utm_source=...`) is ignored there, and only the parameters they
 * know are checked. Applied to every route as it is registered.
 */
export function registerStrictQueries(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    const schema = route.schema ?? {};
    const query = schema.querystring as Record<string, unknown> | undefined;
    if (query === undefined) route.schema = { ...schema, querystring: NO_QUERY };
    else if (query.additionalProperties !== false) route.schema = { ...schema, querystring: { ...query, additionalProperties: false } };
  });
}

/**
 * `Content-Type: application/json` with an empty body is accepted on routes that take no body
 * (DELETE, the token rotation POST): many clients send that header on every request. Routes that
 * take a body keep answering 400 to an empty one. Everything else is Fastify's own JSON parser
 * (prototype poisoning refused).
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && !request.routeOptions.schema?.body) {
      done(null, undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });
}

/** What every JSON answer carries: never sniffed into something else, never kept by a cache. */
export const JSON_SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' } as const;

const SECURITY_HEADER_NAMES = Object.keys(JSON_SECURITY_HEADERS) as Array<keyof typeof JSON_SECURITY_HEADERS>;
const JSON_TYPE = /^application\/json\b/i;

/**
 * Adds `X-Content-Type-Options: nosniff` and `Cache-Control: no-store` to every JSON answer
 * (records are private to a key's organization; errors included). A route that set either header
 * itself keeps its own (the signed download's `Cache-Control: private`); non-JSON answers (files,
 * portal pages, /docs) set their own headers.
 */
export function registerJsonSecurityHeaders(app: FastifyInstance): void {
  // Synchronous (no promise per answer): it runs on every request.
  app.addHook('onSend', (_request: FastifyRequest, reply: FastifyReply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && JSON_TYPE.test(type)) {
      for (const name of SECURITY_HEADER_NAMES) if (!reply.hasHeader(name)) void reply.header(name, JSON_SECURITY_HEADERS[name]);
    }
    done(null, payload);
  });
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
