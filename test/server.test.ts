import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/db/store.js';
import { startServer } from '../src/server.js';
import { buildCli, listening, spawnServe, waitFor, type Child } from './helpers/processes.js';
import { openStream } from './helpers/sse.js';

const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ticketing-server-'));
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function capture() {
  const text = { stdout: '', stderr: '' };
  return {
    text,
    output: { stdout: { write: (t: string) => (text.stdout += t) }, stderr: { write: (t: string) => (text.stderr += t) } },
  };
}

const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

describe('startServer (in process)', () => {
  it('bootstraps an empty store once, serves the API and shuts down cleanly', async () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });

    const first = capture();
    const server = await startServer(config, { output: first.output, handleSignals: false });
    const key = ADMIN_KEY.exec(first.text.stdout)?.[1];
    expect(key).toBe(server.bootstrapKey);
    expect(first.text.stderr).toContain(`listening on ${server.address}`);
    // The banner names the documentation, at an address that answers.
    expect(first.text.stderr).toContain(`API documentation at ${server.address}/docs`);
    expect((await fetch(`${server.address}/docs`)).status).toBe(200);
    const root = await fetch(`${server.address}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(new URL(root.headers.get('location') ?? '', `${server.address}/`).href).toBe(`${server.address}/docs`);

    const res = await fetch(`${server.address}/v1/test`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(await server.shutdown()).toBe(0);
    expect(await server.closed).toBe(0);
    await expect(fetch(`${server.address}/v1/test`)).rejects.toThrow();

    // A second start over the same store keeps the key and prints none.
    const second = capture();
    const again = await startServer(config, { output: second.output, handleSignals: false });
    expect(second.text.stdout).toBe('');
    expect(again.bootstrapKey).toBeNull();
    const res2 = await fetch(`${again.address}/v1/test`, { headers: { authorization: `Bearer ${key}` } });
    expect(res2.status).toBe(200);
    expect(await again.shutdown()).toBe(0);
  });
});

describe('startServer with live streams open', () => {
  it('ends the streams when shutting down, without waiting for them or for the grace', async () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: '0', LOG_LEVEL: 'silent', SHUTDOWN_GRACE_MS: '5000' });
    const out = capture();
    const server = await startServer(config, { output: out.output, handleSignals: false });
    const streams = await Promise.all(
      [0, 1].map(() => openStream(server.address, { authorization: `Bearer ${server.bootstrapKey}` })),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const started = Date.now();
    expect(await server.shutdown()).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    await Promise.all(streams.map((s) => s.ended));
  });
});

describe('startServer with the email channel', () => {
  it('starts the SMTP listener when MAIL_SMTP_PORT is set: mail for an smtp mailbox becomes a ticket; it stops with the server', async () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PORT: '0', LOG_LEVEL: 'silent', MAIL_SMTP_PORT: '0', MAIL_SMTP_HOST: '127.0.0.1' });
    const out = capture();
    const server = await startServer(config, { output: out.output, handleSignals: false });
    const auth = { authorization: `Bearer ${server.bootstrapKey}`, 'content-type': 'application/json' };
    const port = Number(/SMTP listener for mailboxes on 127\.0\.0\.1:(\d+)/.exec(out.text.stderr)?.[1]);
    expect(port).toBeGreaterThan(0);
    const box = await fetch(`${server.address}/v1/mailboxes`, { method: 'POST', headers: auth, body: JSON.stringify({ address: 'in@acme.example', name: 'In', inbound: { type: 'smtp' } }) });
    expect(box.status).toBe(201);
    const { default: nodemailer } = await import('nodemailer');
    const send = nodemailer.createTransport({ host: '127.0.0.1', port, ignoreTLS: true });
    await send.sendMail({ from: 'ada@customer.example', to: 'in@acme.example', subject: 'Through serve', text: 'Hi' });
    send.close();
    const list = (await (await fetch(`${server.address}/v1/tickets`, { headers: auth })).json()) as Array<{ subject: string; channel: string }>;
    expect(list.find((x) => x.subject === 'Through serve')).toMatchObject({ channel: 'email' });
    expect(await server.shutdown()).toBe(0);
    await expect(new Promise((resolve, reject) => connect(port, '127.0.0.1').once('connect', resolve).once('error', reject))).rejects.toThrow();
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Served extends Child {
  key: string;
  address: string;
}

describe('ticketing serve (the built CLI as a child process)', () => {
  const children: ChildProcess[] = [];

  // The CLI runs from dist/, as it does after `npm install`; rebuilt only when sources are newer.
  beforeAll(buildCli, 200_000);

  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  async function serve(env: Record<string, string> = {}): Promise<Served> {
    const child = spawnServe({ DATA_DIR: tempDir(), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });
    children.push(child.proc);
    const key = (await waitFor(child.proc.stdout!, ADMIN_KEY, child.out))[1]!;
    return { ...child, key, address: await listening(child) };
  }

  /** Starts a ticket create and sends only the first part of its body: the request is in flight. */
  function slowCreate(server: Served) {
    const body = JSON.stringify({ customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Slow', description: 'Sent slowly' });
    const req = httpRequest({
      host: '127.0.0.1',
      port: new URL(server.address).port,
      method: 'POST',
      path: '/v1/tickets',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      req.on('response', (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8').on('data', (t: string) => (text += t));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
    });
    // A stalled request ends in a socket error when the server goes; only some tests await it.
    response.catch(() => undefined);
    req.write(body.slice(0, 20));
    return { response, finish: () => req.end(body.slice(20)), abort: () => req.destroy() };
  }

  it('prints the admin key, answers /v1/test, and on SIGTERM finishes the in-flight request and exits 0', async () => {
    const server = await serve({ SHUTDOWN_TIMEOUT_MS: '30000', SHUTDOWN_GRACE_MS: '20000' });
    const ok = await fetch(`${server.address}/v1/test`, { headers: { authorization: `Bearer ${server.key}` } });
    expect(ok.status).toBe(200);

    const slow = slowCreate(server);
    await sleep(300);
    server.proc.kill('SIGTERM');
    await waitFor(server.proc.stderr!, /SIGTERM received/, server.err);
    // New connections are refused while the old request is still being read.
    let refused = false;
    for (let i = 0; i < 20 && !refused; i++) {
      refused = await fetch(`${server.address}/v1/test`).then(() => false, () => true);
      if (!refused) await sleep(100);
    }
    expect(refused).toBe(true);

    slow.finish();
    const done = await slow.response;
    const answeredAt = Date.now();
    expect(done.status, done.text).toBe(201);
    expect(JSON.parse(done.text)).toMatchObject({ ticket_display_id: 'TKT-1', subject: 'Slow' });
    expect(await server.exited).toBe(0);
    // The client keeps its connection alive; the server must not wait for it to go away.
    expect(Date.now() - answeredAt).toBeLessThan(5_000);
    expect(server.err.text).toContain('stopped');
  });

  it('exits 1 at once on a second signal, and after SHUTDOWN_TIMEOUT_MS when a request never ends', async () => {
    const twice = await serve();
    const stuck = slowCreate(twice);
    await sleep(300);
    twice.proc.kill('SIGINT');
    await waitFor(twice.proc.stderr!, /SIGINT received/, twice.err);
    twice.proc.kill('SIGINT');
    expect(await twice.exited).toBe(1);
    stuck.abort();

    const slow = await serve({ SHUTDOWN_TIMEOUT_MS: '500' });
    const stalled = slowCreate(slow);
    await sleep(300);
    const signalledAt = Date.now();
    slow.proc.kill('SIGTERM');
    expect(await slow.exited).toBe(1);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    expect(slow.err.text).toContain('timed out');
    stalled.abort();
  });
  /** A kept-alive connection of a raw client: sends a request, resolves with the whole answer. */
  function keptAlive(server: Served) {
    const socket: Socket = connect(Number(new URL(server.address).port), '127.0.0.1');
    let received = '';
    let failure: Error | null = null;
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    socket.on('error', (error) => (failure = error));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const send = async (path: string): Promise<string> => {
      const start = received.length;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${server.key}\r\n\r\n`);
      for (let i = 0; i < 100; i++) {
        const answer = received.slice(start);
        const head = answer.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(answer)?.[1];
        if (head >= 0 && length !== undefined && answer.length >= head + 4 + Number(length)) return answer;
        if (failure) throw failure;
        await sleep(50);
      }
      throw new Error(`no answer to ${path}; received: ${received.slice(start)}`);
    };
    return { send, ended, failed: () => failure };
  }

  it('answers requests sent on idle keep-alive connections just after SIGTERM (no resets), with Connection: close', async () => {
    const server = await serve({ SHUTDOWN_GRACE_MS: '3000' });
    const clients = Array.from({ length: 12 }, () => keptAlive(server));
    for (const client of clients) expect(await client.send('/v1/test')).toMatch(/^HTTP\/1\.1 200 /);

    server.proc.kill('SIGTERM');
    await waitFor(server.proc.stderr!, /SIGTERM received/, server.err);
    // Sent while the process is shutting down, staggered over the first half second, as traffic does.
    const answers = await Promise.all(
      clients.map(async (client, i) => {
        await sleep(i * 40);
        return client.send(i === 0 ? '/readyz' : '/v1/test');
      }),
    );
    expect(answers[0]).toMatch(/^HTTP\/1\.1 503 /);
    expect(answers[0]).toContain('"detail":"Not ready: shutting down"');
    for (const answer of answers.slice(1)) expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    for (const answer of answers) expect(answer.toLowerCase()).toContain('connection: close');
    // Each connection is closed once answered, and none was reset.
    await Promise.all(clients.map((c) => c.ended));
    expect(clients.map((c) => c.failed())).toEqual(clients.map(() => null));
    expect(await server.exited).toBe(0);
  });

  it('does not let a half-sent request hold a shutdown past SHUTDOWN_GRACE_MS: it is cut, nothing is stored, exit 0', async () => {
    const dataDir = tempDir();
    const server = await serve({ DATA_DIR: dataDir, SHUTDOWN_GRACE_MS: '500', SHUTDOWN_TIMEOUT_MS: '30000' });
    const stalled = slowCreate(server);
    await sleep(300);
    const signalledAt = Date.now();
    server.proc.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(5_000);
    expect(server.err.text).toContain('closed 1 connection(s) whose request had not fully arrived');
    await expect(stalled.response).rejects.toThrow();
    const store = openStore({ dataDir });
    try {
      expect(await store.db.selectFrom('tickets').select('id').execute()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
