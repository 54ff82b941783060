import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config.js';

/**
 * HTTP connections: how long the server waits for a client, and when it closes a connection
 * instead of keeping it alive (docs/operations.md#timeouts).
 */

/** How often Node checks connections against the request and headers timeouts (its default is 30 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

/**
 * Fastify's server options for the configured timeouts. Node enforces them: a request (headers
 * and body) not received within `requestTimeoutMs`, or its headers within `headersTimeoutMs`, is
 * answered 408 and its connection closed; a connection on which no byte moves either way for
 * `connectionTimeoutMs` is closed; an idle keep-alive connection after `keepAliveTimeoutMs`.
 *
 * Shutting down is server.ts's business (it keeps idle connections open for a grace, see there),
 * so Fastify neither closes them itself nor answers requests 503 while closing.
 */
export function httpServerOptions(config: Pick<Config, 'http'>): FastifyHttpOptions<Server> {
  const { requestTimeoutMs, headersTimeoutMs, connectionTimeoutMs, keepAliveTimeoutMs } = config.http;
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: connectionTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    forceCloseConnections: false,
    return503OnClosing: false,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** True once the app has started closing (SIGTERM): readiness fails, every answer closes its connection. */
    shuttingDown: boolean;
  }
}

/**
 * Whether a request has a body to wait for (RFC 9112 §6.3: without Transfer-Encoding or
 * Content-Length, a request's body is empty). A request without one is complete as soon as its
 * headers are, though Node marks it `complete` only after the parser's headers callback returns:
 * an answer made synchronously within that callback (a cached key, a synchronous read) would
 * otherwise close a connection that has nothing left to read.
 */
function hasBody(headers: IncomingMessage['headers']): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * One rule for every route: an answer sent before the request's body has fully arrived closes the
 * connection (`Connection: close`). Early answers are the norm for requests refused by their
 * headers — 401 without a valid key, 403, 404 for an unknown address, a portal token that opens
 * nothing, a rejected upload — and keeping such a connection alive would mean reading the rest of
 * the body first, at whatever pace the client sends it, or forever. So a client cannot hold a
 * connection open by sending an unauthenticated body slowly, and the server never drains 30 MB of
 * a refused upload. (`complete` turns true once the request has been parsed to its end: at once for
 * a request without a body, once read for one with a body; a request without a body is taken as
 * complete even before that, see hasBody. A body nobody read may not be parsed yet
 * when the answer goes, so such a connection is closed even if its body did arrive: a client that
 * sent a refused request makes a new connection, which is cheap.)
 *
 * While shutting down every answer closes its connection, so keep-alive clients move on to
 * another process instead of sending their next request to one that is leaving.
 */
export function registerConnectionHandling(app: FastifyInstance): void {
  let closing = false;
  app.decorate('shuttingDown', { getter: () => closing });
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Synchronous (no promise per answer): it runs on every request.
  app.addHook('onSend', (request, reply, payload, done) => {
    // `=== false`: injected requests (tests) have no such property and no connection to close.
    if (closing || (request.raw.complete === false && hasBody(request.raw.headers))) void reply.header('connection', 'close');
    done(null, payload);
  });
}

/** The connections of a listening server, and what each is doing, for a graceful shutdown. */
export interface ConnectionTracker {
  /**
   * Destroys every connection that is not sending a response: idle keep-alive connections, and
   * connections whose request (headers or body) has not fully arrived. Returns how many of the
   * latter it cut. Connections whose request is being answered are left to finish.
   */
  closeAllButResponding(): number;
}

interface Exchange {
  req?: IncomingMessage;
  res?: ServerResponse;
}

export function trackConnections(server: Server): ConnectionTracker {
  const exchanges = new Map<Socket, Exchange>();
  server.on('connection', (socket: Socket) => {
    exchanges.set(socket, {});
    socket.once('close', () => exchanges.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const exchange = exchanges.get(req.socket);
    if (exchange) Object.assign(exchange, { req, res });
  });
  return {
    closeAllButResponding() {
      let cut = 0;
      for (const [socket, { req, res }] of exchanges) {
        const idle = !req || !res || res.writableFinished;
        if (!idle && req.complete) continue;
        if (!idle) cut++;
        socket.destroy();
      }
      return cut;
    },
  };
}
