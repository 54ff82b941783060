import { randomUUID } from 'node:crypto';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/**
 * HTTP connections over real sockets: slow or half-sent requests are timed out, and an answer sent
 * before the body arrived (401, 404, a portal token that opens nothing) closes the connection, so
 * a flood of unauthenticated slow bodies cannot hold the server's descriptors
 * (bench/RESULTS.md#resilience).
 */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({
    HTTP_REQUEST_TIMEOUT_MS: '1500',
    HTTP_HEADERS_TIMEOUT_MS: '1000',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
    RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: '100000',
    RATE_LIMIT_PORTAL_PER_MINUTE: '100000',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

interface Exchange {
  socket: Socket;
  /** Everything the server sent. */
  text(): string;
  /** Resolves with the milliseconds from opening until the server closed the connection. */
  closed: Promise<number>;
}

/** Opens a connection and writes `data` (the client sends nothing more unless the test does). */
function open(data: string): Exchange {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => {
    socket.on('end', () => resolve(Date.now() - started));
    socket.on('close', () => resolve(Date.now() - started));
  });
  socket.write(data);
  return { socket, text: () => received, closed };
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);

/** Headers of a POST announcing a large body, of which only a few bytes follow. */
const slowPost = (path: string, headers: Record<string, string> = {}, type = 'application/json'): string =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: 100000\r\n` +
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('') +
  '\r\n{"subj';

describe('a flood of unauthenticated slow bodies', () => {
  it('is answered before the bodies and shed within seconds: 401, 404, a portal token that opens nothing', async () => {
    const kinds = [
      { path: '/v1/tickets', status: /^HTTP\/1\.1 401 /, type: 'application/json' },
      { path: '/v1/nowhere', status: /^HTTP\/1\.1 404 /, type: 'application/json' },
      { path: `/v1/portal/tickets/${randomUUID()}/comments`, status: /^HTTP\/1\.1 404 /, type: 'application/json' },
      { path: `/portal/${randomUUID()}/reply`, status: /^HTTP\/1\.1 404 /, type: 'application/x-www-form-urlencoded' },
      { path: '/portal/not-a-token/reply', status: /^HTTP\/1\.1 404 /, type: 'application/x-www-form-urlencoded' },
    ];
    const started = Date.now();
    const flood = Array.from({ length: 300 }, (_, i) => {
      const kind = kinds[i % kinds.length]!;
      return { kind, exchange: open(slowPost(kind.path, {}, kind.type)) };
    });
    // Every connection is closed by the server, none waits for its body.
    await within(Promise.all(flood.map((f) => f.exchange.closed)), 10_000, 'closing the flood');
    for (const { kind, exchange } of flood) {
      expect(exchange.text(), kind.path).toMatch(kind.status);
      expect(exchange.text().toLowerCase()).toContain('connection: close');
    }
    console.info(`[connections] 300 slow unauthenticated bodies answered and closed in ${Date.now() - started} ms`);
    const res = await fetch(`http://127.0.0.1:${port}/v1/test`, { headers: { authorization: `Bearer ${t.org.adminKey}` } });
    expect(res.status).toBe(200);
  });

  it('keeps connections alive otherwise: a body read whole (422), a request without one (401)', async () => {
    const body = '{"subject":"x"}';
    const requests = [
      `POST /v1/tickets HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.org.adminKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      'GET /v1/tickets HTTP/1.1\r\nHost: localhost\r\n\r\n',
    ];
    for (const [i, request] of requests.entries()) {
      const exchange = open(request);
      const answered = (pattern: RegExp) =>
        within(new Promise<void>((resolve) => exchange.socket.on('data', () => pattern.test(exchange.text()) && resolve())), 5_000, `answer ${i}`);
      await answered(/\r\n\r\n/);
      expect(exchange.text()).toMatch(i === 0 ? /^HTTP\/1\.1 422 / : /^HTTP\/1\.1 401 /);
      expect(exchange.text().toLowerCase()).toContain('connection: keep-alive');
      // The same connection takes the next request.
      exchange.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await answered(/HTTP\/1\.1 200 /);
      exchange.socket.destroy();
    }
  });

  it('keeps connections alive for answers made while the request is still being parsed: a ticket read by a cached key', async () => {
    // The key is cached and its ticket read synchronously, so the answer is written from within the
    // parser's headers callback, before it has marked the (bodiless) request complete.
    const made = await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Kept', description: 'Alive' } });
    expect(made.statusCode).toBe(201);
    const get = `GET /v1/tickets/${made.json<{ id: string }>().id} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.org.adminKey}\r\n\r\n`;
    const exchange = open(get);
    for (let n = 1; n <= 3; n++) {
      await within(
        new Promise<void>((resolve) => {
          const check = () => (exchange.text().split('HTTP/1.1 200 ').length > n && /\r\n\r\n\{[^]*\}$/.test(exchange.text()) ? resolve() : undefined);
          exchange.socket.on('data', check);
          check();
        }),
        5_000,
        `answer ${n}`,
      );
      if (n < 3) exchange.socket.write(get);
    }
    const answers = exchange.text().toLowerCase();
    expect(answers).not.toContain('connection: close');
    expect(answers.split('connection: keep-alive').length - 1).toBe(3);
    exchange.socket.destroy();
  });
});

describe('timeouts', () => {
  it('a body that never finishes arriving gets 408 after HTTP_REQUEST_TIMEOUT_MS, even with a valid key', async () => {
    const exchange = open(slowPost('/v1/tickets', { Authorization: `Bearer ${t.org.adminKey}` }));
    // Keeps sending a byte now and then, so it is never idle: only the request deadline stops it.
    const drip = setInterval(() => exchange.socket.write('a'), 200);
    try {
      const closedAfter = await within(exchange.closed, 6_000, 'the request timeout');
      expect(exchange.text()).toMatch(/^HTTP\/1\.1 408 /);
      expect(closedAfter).toBeGreaterThanOrEqual(1_400);
    } finally {
      clearInterval(drip);
    }
  });

  it('headers that never finish arriving get 408 after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const exchange = open('GET /v1/tickets HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    const drip = setInterval(() => exchange.socket.write('a'), 200);
    try {
      await within(exchange.closed, 5_000, 'the headers timeout');
      expect(exchange.text()).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
    }
  });

  it('an idle keep-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const exchange = open('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const closedAfter = await within(exchange.closed, 5_000, 'the keep-alive timeout');
    expect(exchange.text()).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfter).toBeGreaterThanOrEqual(900);
  });
});

describe('configuration', () => {
  it('has defaults for every timeout and refuses headers allowed longer than the whole request', () => {
    const config = loadConfig({});
    expect(config.http).toEqual({ requestTimeoutMs: 120_000, headersTimeoutMs: 30_000, connectionTimeoutMs: 60_000, keepAliveTimeoutMs: 72_000 });
    expect(config.databaseTimeouts).toEqual({ connectMs: 5_000, poolMs: 30_000, statementMs: 10_000, queryMs: 15_000, idleInTransactionMs: 30_000, keepAliveMs: 10_000 });
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '60000' }).databaseTimeouts.queryMs).toBe(65_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).databaseTimeouts.queryMs).toBe(0);
    expect(loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '7000' }).databaseTimeouts.queryMs).toBe(7_000);
    expect(config.redisCommandTimeoutMs).toBe(500);
    expect(config.shutdownGraceMs).toBe(2_000);
    expect(config.minFreeBytes).toBe(64 * 1024 * 1024);
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '2000' })).toThrow(ConfigError);
    for (const bad of ['-1', 'soon']) expect(() => loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: bad }), bad).toThrow(ConfigError);
  });
});
