import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, multipartBody, storedBytes, upload } from '../../../test/helpers/attachments.js';
import { runMain } from '../../../test/helpers/cli.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { buildApp } from '../../app.js';
import { openStore, type Store } from '../../db/store.js';
import { openBlobStore } from '../../storage/open-blob-store.js';

/**
 * The per-organization storage quota (STORAGE_QUOTA_BYTES) and the per-key upload rate
 * (RATE_LIMIT_UPLOADS_PER_MINUTE): a refused upload is a 4xx with a detail and keeps nothing.
 */

const bytes = (n: number) => Buffer.alloc(n, 'q');
const refusal = (used: number, quota: number) => ({
  detail: `Storage quota exceeded: this organization's attachments take ${used} of its ${quota} bytes and the file does not fit; delete attachments to make room`,
});

describe.each(['disk', 'database'] as const)('storage quota, STORAGE_BACKEND=%s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_BACKEND: backend, STORAGE_QUOTA_BYTES: '100' });
  });
  afterAll(async () => {
    await t.close();
  });

  const put = async (ticketId: string, size: number, key = t.org.adminKey) => upload(t, ticketId, 'q.txt', 'text/plain', bytes(size), key);

  it('counts every byte stored: what fits is kept, what does not is a 413 keeping nothing', async () => {
    const org = await t.newOrg('Quota org');
    const ticketId = await createTicket(t, org.adminKey);
    expect((await put(ticketId, 60, org.adminKey)).statusCode).toBe(201);
    const before = await storedBytes(t);
    const over = await put(ticketId, 41, org.adminKey);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual(refusal(60, 100));
    expect(await storedBytes(t)).toEqual(before);
    expect((await put(ticketId, 40, org.adminKey)).statusCode).toBe(201);
    expect((await put(ticketId, 1, org.adminKey)).json()).toEqual(refusal(100, 100));
    // An empty file takes no room.
    expect((await put(ticketId, 0, org.adminKey)).statusCode).toBe(201);
    // Another organization has a quota of its own.
    expect((await put(await createTicket(t), 100)).statusCode).toBe(201);
  });

  it('gives the room back when an attachment, a ticket or a customer is deleted', async () => {
    const org = await t.newOrg('Deleting org');
    const key = org.adminKey;
    const req = (method: 'DELETE', url: string) => t.request({ method, url, key });
    const ticketId = await createTicket(t, key);
    const file = (await put(ticketId, 70, key)).json<{ id: string }>();
    expect((await put(ticketId, 70, key)).statusCode).toBe(413);
    expect((await req('DELETE', `/v1/tickets/${ticketId}/attachments/${file.id}`)).statusCode).toBe(204);

    expect((await put(ticketId, 70, key)).statusCode).toBe(201);
    expect((await req('DELETE', `/v1/tickets/${ticketId}`)).statusCode).toBe(204);

    const other = await t.request({
      method: 'POST',
      url: '/v1/tickets',
      key,
      body: { customer_name: 'Grace', customer_email: 'grace@example.com', subject: 'Files', description: 'Two of them' },
    });
    const { id: otherTicket, customer_id: customerId } = other.json<{ id: string; customer_id: string }>();
    expect((await put(otherTicket, 50, key)).statusCode).toBe(201);
    expect((await put(otherTicket, 50, key)).statusCode).toBe(201);
    expect((await put(otherTicket, 1, key)).statusCode).toBe(413);
    expect((await req('DELETE', `/v1/customers/${customerId}`)).statusCode).toBe(204);

    expect((await put(await createTicket(t, key), 100, key)).statusCode).toBe(201);
  });
});

describe('storage quota under concurrent uploads from two processes', () => {
  let t: TestApp;
  let secondStore: Store;
  let second: FastifyInstance;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_QUOTA_BYTES: '1000' });
    // Another process of the same installation: its own connections to the same store.
    secondStore = openStore({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
    second = await buildApp({ config: t.config, store: secondStore, blobs: openBlobStore(t.config, secondStore) });
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
    await secondStore.close();
    await t.close();
  });

  it('lets in exactly what fits, whichever process takes each upload', async () => {
    const ticketId = await createTicket(t);
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'c.txt', type: 'text/plain', data: bytes(300) }]);
    const send = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: `/v1/tickets/${ticketId}/attachments`,
        headers: { authorization: `Bearer ${t.org.adminKey}`, 'content-type': contentType },
        payload,
      });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 === 0 ? t.app : second)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 413, 413, 413, 413, 413, 413, 413]);
    const listed = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments` });
    expect(listed.json()).toHaveLength(3);
    // 900 of 1000 bytes used: 100 more fit, then nothing.
    expect((await upload(t, ticketId, 'd.txt', 'text/plain', bytes(100))).statusCode).toBe(201);
    expect((await upload(t, ticketId, 'e.txt', 'text/plain', bytes(1))).statusCode).toBe(413);
  });
});

describe('storage quota while the file streams in', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_QUOTA_BYTES: String(1024 * 1024) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses an upload that cannot fit once it passes the room left, without reading the rest', async () => {
    const ticketId = await createTicket(t);
    const total = 30 * 1024 * 1024;
    const outcome = await new Promise<{ response: string; sent: number }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let response = '';
      let sent = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        socket.destroy();
        resolve({ response, sent });
      };
      socket.on('data', (d: Buffer) => {
        response += d.toString('latin1');
        setTimeout(finish, 500).unref();
      });
      socket.on('close', finish);
      // The server may close as it answers while the body is still being written (EPIPE): what it answered is judged below.
      socket.on('error', (error) => (response || (error as NodeJS.ErrnoException).code === 'EPIPE' ? finish() : reject(error)));
      // Without an answer the body was read to the end and the server waits for the rest.
      setTimeout(finish, 20_000).unref();
      const head = '--q\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n';
      socket.write(
        `POST /v1/tickets/${ticketId}/attachments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.org.adminKey}\r\n` +
          `Content-Type: multipart/form-data; boundary=q\r\nContent-Length: ${head.length + total + 7}\r\n\r\n${head}`,
      );
      const chunk = bytes(64 * 1024);
      const pump = () => {
        while (!done && sent < total) {
          sent += chunk.length;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
    expect(outcome.response).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.response).toContain('Storage quota exceeded');
    expect(outcome.response.toLowerCase()).toContain('connection: close');
    // Stopped soon after the room left (1 MiB), far from the 30 MB sent at full speed.
    expect(outcome.sent).toBeLessThan(total / 2);
    expect(await storedBytes(t)).toEqual({ files: [], blobs: [], chunks: 0 });
  });
});

describe('storage quota across export and import', () => {
  let source: TestApp;
  let target: TestApp;
  let dir: string;
  beforeAll(async () => {
    source = await buildTestApp();
    target = await buildTestApp({ STORAGE_QUOTA_BYTES: '100' });
    dir = mkdtempSync(join(tmpdir(), 'ticketing-quota-transfer-'));
  });
  afterAll(async () => {
    await source.close();
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = (t: TestApp, argv: string[]) => {
    const env: NodeJS.ProcessEnv = { DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', STORAGE_BACKEND: t.config.storageBackend };
    if (t.config.databaseUrl) env.DATABASE_URL = t.config.databaseUrl;
    return runMain(argv, env);
  };

  it('an imported organization brings its usage along', async () => {
    const ticketId = await createTicket(source);
    for (const size of [30, 40]) expect((await upload(source, ticketId, 'x.txt', 'text/plain', bytes(size))).statusCode).toBe(201);
    const file = join(dir, 'org.ndjson');
    expect((await cli(source, ['export', '--org', source.org.id, '--out', file])).code).toBe(0);
    const imported = await cli(target, ['import', '--in', file]);
    expect(imported.code, imported.stderr).toBe(0);
    // 70 of the target's 100 bytes are taken by the imported files.
    const key = source.org.adminKey;
    expect((await upload(target, ticketId, 'y.txt', 'text/plain', bytes(31), key)).json()).toEqual(refusal(70, 100));
    expect((await upload(target, ticketId, 'y.txt', 'text/plain', bytes(30), key)).statusCode).toBe(201);
  });
});

describe('upload rate per key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_UPLOADS_PER_MINUTE: '2' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses uploads past the rate with 429 and Retry-After, keeping nothing; other keys and other requests go on', async () => {
    const ticketId = await createTicket(t);
    const key = await t.org.key();
    for (let i = 0; i < 2; i++) expect((await upload(t, ticketId, 'a.txt', 'text/plain', 'a', key)).statusCode).toBe(201);
    const before = await storedBytes(t);
    const over = await upload(t, ticketId, 'a.txt', 'text/plain', 'a', key);
    expect(over.statusCode).toBe(429);
    expect(over.json<{ detail: string }>().detail).toMatch(/^Upload rate exceeded: at most 2 uploads per minute per API key\. Retry after \d+ seconds\.$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await storedBytes(t)).toEqual(before);
    // Malformed attempts count too, so they cannot be used to probe past the limit.
    expect((await t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/attachments`, key, body: 'x', headers: { 'content-type': 'text/plain' } })).statusCode).toBe(429);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments`, key })).statusCode).toBe(200);
    expect((await upload(t, ticketId, 'b.txt', 'text/plain', 'b')).statusCode).toBe(201);
  });
});
