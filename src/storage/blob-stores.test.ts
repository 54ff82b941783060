import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, filesOnDisk, storedBytes, storedIds, upload } from '../../test/helpers/attachments.js';
import { buildTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { buildApp } from '../app.js';
import { existingAttachmentIds, insertAttachment } from '../modules/attachments/attachments.repository.js';
import { CHUNK_BYTES, DatabaseBlobStore } from './database-store.js';
import { DiskBlobStore } from './disk-store.js';
import { sweepBlobStore, sweepWhileServing } from './open-blob-store.js';

const LIMIT = 31_457_280;
const HOUR = 3_600_000;

/** The attachment essentials, once per backend (STORAGE_BACKEND), on whichever store the run uses. */
describe.each(['disk', 'database'] as const)('STORAGE_BACKEND=%s', (backend) => {
  let t: TestApp;
  let ticketId: string;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_BACKEND: backend });
    ticketId = await createTicket(t);
  });
  afterAll(async () => {
    await t.close();
  });

  // Random bytes are not text: QuickTime is an allowed type whose content is not checked.
  async function uploaded(data: Buffer | string, ticket = ticketId, type = 'video/quicktime'): Promise<string> {
    const res = await upload(t, ticket, 'file.txt', type, data);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  }

  /** The signed address of an attachment, as a path on this service, asked of `app`. */
  async function signedPath(id: string, ticket = ticketId, app: FastifyInstance = t.app): Promise<string> {
    const res = await app.inject({
      method: 'GET',
      url: `/v1/tickets/${ticket}/attachments/${id}/download`,
      headers: { authorization: `Bearer ${t.org.adminKey}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json<{ signed_url: string }>().signed_url);
    return `${url.pathname}${url.search}`;
  }

  async function attachmentRows(): Promise<number> {
    const row = await t.store.db.selectFrom('attachments').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function ticketFor(email: string): Promise<{ id: string; customer_id: string }> {
    const res = await t.request({
      method: 'POST',
      url: '/v1/tickets',
      body: { customer_name: 'Grace', customer_email: email, subject: 'Files', description: 'See attached' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  it('keeps the bytes where the configuration says, cut into chunks as they stream in', async () => {
    expect(t.config.storageBackend).toBe(backend);
    const before = await storedBytes(t);
    const id = await uploaded(randomBytes(2 * CHUNK_BYTES + 1000));
    const after = await storedBytes(t);
    if (backend === 'disk') {
      expect(after.files).toEqual([...before.files, join(t.dataDir, 'attachments', 'files', id.slice(0, 2), id)].sort());
      expect(after.blobs).toEqual([]);
      expect(after.chunks).toBe(0);
    } else {
      expect(after.files).toEqual([]);
      expect(after.blobs).toContain(id);
      const chunks = await t.store.db
        .selectFrom('attachment_chunks')
        .select((eb) => ['seq', 'organization_id', eb.fn<number>('length', ['data']).as('bytes')])
        .where('blob_id', '=', id)
        .orderBy('seq')
        .execute();
      // Every row full but the last: the writer cut the stream as it arrived, at a fixed size.
      expect(chunks.map((c) => [c.seq, Number(c.bytes), c.organization_id])).toEqual([
        [0, CHUNK_BYTES, t.org.id],
        [1, CHUNK_BYTES, t.org.id],
        [2, 1000, t.org.id],
      ]);
    }
  });

  it('uploads, lists and downloads the exact bytes, whole and in ranges across chunk boundaries', async () => {
    const ticket = await createTicket(t);
    const data = randomBytes(2 * CHUNK_BYTES + 4321);
    const id = await uploaded(data, ticket, 'video/webm');
    const list = await t.request({ method: 'GET', url: `/v1/tickets/${ticket}/attachments` });
    expect(list.json<{ id: string; size_bytes: number }[]>()).toEqual([expect.objectContaining({ id, size_bytes: data.length })]);

    const path = await signedPath(id, ticket);
    const whole = await t.app.inject({ method: 'GET', url: path });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-length']).toBe(String(data.length));
    expect(whole.rawPayload.equals(data)).toBe(true);

    const size = data.length;
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      [`bytes=${CHUNK_BYTES - 1}-${CHUNK_BYTES}`, CHUNK_BYTES - 1, CHUNK_BYTES],
      [`bytes=${CHUNK_BYTES}-${2 * CHUNK_BYTES - 1}`, CHUNK_BYTES, 2 * CHUNK_BYTES - 1],
      [`bytes=10-${2 * CHUNK_BYTES + 10}`, 10, 2 * CHUNK_BYTES + 10],
      [`bytes=${2 * CHUNK_BYTES + 100}-`, 2 * CHUNK_BYTES + 100, size - 1],
      ['bytes=-5', size - 5, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await t.app.inject({ method: 'GET', url: path, headers: { range } });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(data.subarray(start, end + 1)), range).toBe(true);
    }
    const beyond = await t.app.inject({ method: 'GET', url: path, headers: { range: `bytes=${size}-` } });
    expect(beyond.statusCode).toBe(416);
  });

  it('serves an empty file', async () => {
    const id = await uploaded('');
    const res = await t.app.inject({ method: 'GET', url: await signedPath(id) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('0');
    expect(res.rawPayload.length).toBe(0);
    const ranged = await t.app.inject({ method: 'GET', url: await signedPath(id), headers: { range: 'bytes=0-0' } });
    expect(ranged.statusCode).toBe(416);
  });

  it('deleting an attachment removes its bytes', async () => {
    const before = await storedBytes(t);
    const id = await uploaded(randomBytes(CHUNK_BYTES + 1));
    expect(await storedIds(t)).toContain(id);
    const path = await signedPath(id);
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${ticketId}/attachments/${id}` })).statusCode).toBe(204);
    expect(await storedBytes(t)).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(403);
  });

  it("deleting a ticket, or its customer, removes its attachments' bytes", async () => {
    const before = await storedBytes(t);
    const first = await ticketFor(`first-${backend}@example.com`);
    await uploaded(randomBytes(CHUNK_BYTES * 2), first.id);
    await uploaded('small', first.id);
    expect((await storedBytes(t)).chunks).toBe(before.chunks + (backend === 'database' ? 3 : 0));
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${first.id}` })).statusCode).toBe(204);
    expect(await storedBytes(t)).toEqual(before);

    const second = await ticketFor(`second-${backend}@example.com`);
    await uploaded(randomBytes(CHUNK_BYTES + 7), second.id);
    expect((await t.request({ method: 'DELETE', url: `/v1/customers/${second.customer_id}` })).statusCode).toBe(204);
    expect(await storedBytes(t)).toEqual(before);
  });

  it('keeps exactly 30 MiB, and refuses one byte more leaving nothing behind', async () => {
    const ticket = await createTicket(t);
    const id = await uploaded(Buffer.alloc(LIMIT, 0x61), ticket);
    const head = await t.app.inject({ method: 'HEAD', url: await signedPath(id, ticket) });
    expect(head.headers['content-length']).toBe(String(LIMIT));
    if (backend === 'database') {
      const rows = await t.store.db.selectFrom('attachment_chunks').select((eb) => eb.fn.countAll().as('n')).where('blob_id', '=', id).executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(LIMIT / CHUNK_BYTES);
    }
    const tail = await t.app.inject({ method: 'GET', url: await signedPath(id, ticket), headers: { range: 'bytes=-3' } });
    expect(tail.body).toBe('aaa');

    const before = await storedBytes(t);
    const rows = await attachmentRows();
    // Refused only after the whole limit has streamed into storage: every chunk written goes again.
    const over = await upload(t, ticket, 'over.txt', 'text/plain', Buffer.alloc(LIMIT + 1, 0x61));
    expect(over.statusCode).toBe(400);
    expect(over.json<{ detail: string }>().detail).toMatch(/File size exceeds the 30 MB maximum/);
    expect(await storedBytes(t)).toEqual(before);
    expect(await attachmentRows()).toBe(rows);
  });

  it('leaves nothing behind for a disallowed type or a content mismatch', async () => {
    const before = await storedBytes(t);
    const rows = await attachmentRows();
    const exe = await upload(t, ticketId, 'setup.exe', 'application/x-msdownload', Buffer.concat([Buffer.from('MZ'), randomBytes(CHUNK_BYTES)]));
    expect(exe.statusCode).toBe(400);
    expect(exe.json<{ detail: string }>().detail).toMatch(/^File type 'application\/x-msdownload' is not allowed; allowed types: text\/plain, /);
    const fake = await upload(t, ticketId, 'photo.png', 'image/png', Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(CHUNK_BYTES)]));
    expect(fake.statusCode).toBe(400);
    expect(await storedBytes(t)).toEqual(before);
    expect(await attachmentRows()).toBe(rows);
  });

  it.runIf(backend === 'database')(
    'serves a file from another process with its own data directory, reading only the chunks a range needs',
    async () => {
      const data = randomBytes(3 * CHUNK_BYTES);
      const id = await uploaded(data);
      // What a second `ticketing serve` on the same database would run, its queries counted.
      const chunkReads: number[] = [];
      const counter: KyselyPlugin = {
        transformQuery: ({ node }) => {
          if (isChunkSelect(node)) chunkReads.push(1);
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      const otherDir = mkdtempSync(join(tmpdir(), 'ticketing-other-'));
      const other = await buildApp({
        config: { ...t.config, dataDir: otherDir },
        store: t.store,
        blobs: new DatabaseBlobStore(t.store.db.withPlugin(counter)),
      });
      try {
        const path = await signedPath(id, ticketId, other);
        const whole = await other.inject({ method: 'GET', url: path });
        expect(whole.rawPayload.equals(data)).toBe(true);
        expect(chunkReads).toHaveLength(3);

        chunkReads.length = 0;
        const inner = await other.inject({ method: 'GET', url: path, headers: { range: `bytes=${CHUNK_BYTES + 5}-${2 * CHUNK_BYTES - 5}` } });
        expect(inner.rawPayload.equals(data.subarray(CHUNK_BYTES + 5, 2 * CHUNK_BYTES - 4))).toBe(true);
        expect(chunkReads).toHaveLength(1);

        chunkReads.length = 0;
        await other.inject({ method: 'HEAD', url: path });
        expect(chunkReads).toHaveLength(0);
      } finally {
        await other.close();
        rmSync(otherDir, { recursive: true, force: true });
      }
    },
  );
});

/** A SELECT that reads attachment_chunks. */
function isChunkSelect(node: RootOperationNode): boolean {
  return node.kind === 'SelectQueryNode' && JSON.stringify(node.from).includes('"attachment_chunks"');
}

describe('the database backend outside requests', () => {
  let t: TestApp;
  let ticketId: string;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_BACKEND: 'database' });
    ticketId = await createTicket(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const stageText = (store: DatabaseBlobStore, id: string, text: string) => store.stage(id, Readable.from([Buffer.from(text)]), { organizationId: t.org.id });
  const attachmentRow = (id: string) => ({
    id, organization_id: t.org.id, ticket_id: ticketId, filename: `${id}.txt`,
    content_type: 'text/plain', size_bytes: 4, uploaded_by_user_id: null, created_at: new Date().toISOString(),
  });
  const ageStaged = (id: string, ms: number) =>
    t.store.db.updateTable('attachment_blobs').set({ updated_at: new Date(Date.now() - ms).toISOString() }).where('id', '=', id).execute();

  it('sweeps: publishes a committed upload, drops an abandoned one, keeps one still streaming', async () => {
    const store = new DatabaseBlobStore(t.store.db);
    // A crash after the attachment row was committed but before the bytes were published.
    const committed = randomUUID();
    await stageText(store, committed, 'late');
    await insertAttachment(t.store.db, attachmentRow(committed));
    // A crash before the row was committed, over an hour ago.
    const abandoned = randomUUID();
    await stageText(store, abandoned, 'gone');
    await ageStaged(abandoned, HOUR + 60_000);
    // An upload another process is still streaming: begun long ago, but written to just now.
    const inFlight = randomUUID();
    await stageText(store, inFlight, 'busy');
    await t.store.db.updateTable('attachment_blobs').set({ created_at: new Date(Date.now() - 2 * HOUR).toISOString() }).where('id', '=', inFlight).execute();

    expect(await sweepBlobStore(store, t.store.db)).toEqual({ published: 1, removed: 1 });
    expect((await storedBytes(t)).blobs.sort()).toEqual([committed, `staged:${inFlight}`].sort());
    // Published: it now goes with its ticket.
    const ticket = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments/${committed}` });
    expect(ticket.statusCode).toBe(200);
    await store.discard(inFlight);
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${ticketId}` })).statusCode).toBe(204);
    expect(await storedBytes(t)).toEqual({ files: [], blobs: [], chunks: 0 });
    ticketId = await createTicket(t);
  });

  it('drops staged bytes whose attachment was deleted before they were published', async () => {
    const store = new DatabaseBlobStore(t.store.db);
    const id = randomUUID();
    await stageText(store, id, 'racy');
    await insertAttachment(t.store.db, attachmentRow(id));
    await t.store.db.deleteFrom('attachments').where('id', '=', id).execute();
    await store.publish(id);
    expect(await storedBytes(t)).toEqual({ files: [], blobs: [], chunks: 0 });
  });

  it('refuses to stage bytes without their organization', async () => {
    const store = new DatabaseBlobStore(t.store.db);
    await expect(store.stage(randomUUID(), Readable.from([Buffer.from('x')]))).rejects.toThrow(/organization/);
    expect(await storedBytes(t)).toEqual({ files: [], blobs: [], chunks: 0 });
  });

  it('a running server sweeps again on its interval, and stops when closed', async () => {
    const store = new DatabaseBlobStore(t.store.db, { sweepIntervalMs: 20, stagingTtlMs: 0 });
    // Staged before sweeping starts: with a TTL of 0 a sweep could remove the blob's row between
    // its insert and its first chunk's.
    await stageText(store, randomUUID(), 'abandoned');
    const app = await buildApp({ config: t.config, store: t.store, blobs: store });
    sweepWhileServing(app, store, t.store.db);
    await app.ready();
    await expect.poll(async () => (await storedBytes(t)).blobs, { timeout: 2000, interval: 20 }).toEqual([]);
    await app.close();
    const late = randomUUID();
    await stageText(store, late, 'after close');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await storedBytes(t)).blobs).toEqual([`staged:${late}`]);
    await store.discard(late);
  });
});

describe('the disk backend sweep', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_BACKEND: 'disk' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('publishes staged files with a row, removes stale staged and stored files without one, keeps fresh staged ones', async () => {
    const ticketId = await createTicket(t);
    const root = join(t.dataDir, 'attachments');
    const res = await upload(t, ticketId, 'kept.txt', 'text/plain', 'kept');
    const kept = res.json<{ id: string }>().id;

    // A crash after the row was committed but before the file was moved into place.
    const committed = randomUUID();
    await insertAttachment(t.store.db, {
      id: committed, organization_id: t.org.id, ticket_id: ticketId, filename: 'late.txt',
      content_type: 'text/plain', size_bytes: 4, uploaded_by_user_id: null, created_at: new Date().toISOString(),
    });
    writeFileSync(join(root, 'staging', committed), 'late');
    // A crash before the row was committed, over an hour ago.
    const abandoned = randomUUID();
    writeFileSync(join(root, 'staging', abandoned), 'abandoned');
    const anHourAgo = new Date(Date.now() - HOUR - 60_000);
    utimesSync(join(root, 'staging', abandoned), anHourAgo, anHourAgo);
    // An upload still streaming (here, or in another process sharing the directory).
    const inFlight = randomUUID();
    writeFileSync(join(root, 'staging', inFlight), 'busy');
    // A crash after the row was deleted but before the file was removed.
    const orphan = randomUUID();
    mkdirSync(join(root, 'files', orphan.slice(0, 2)), { recursive: true });
    writeFileSync(join(root, 'files', orphan.slice(0, 2), orphan), 'orphan');

    const store = new DiskBlobStore(root);
    const result = await store.sweep((ids) => existingAttachmentIds(t.store.db, ids));
    expect(result).toEqual({ published: 1, removed: 2 });

    const names = filesOnDisk(t).map((f) => f.slice(root.length));
    expect(names.sort()).toEqual(
      [`/files/${committed.slice(0, 2)}/${committed}`, `/files/${kept.slice(0, 2)}/${kept}`, `/staging/${inFlight}`].sort(),
    );
    await store.discard(inFlight);
    // The recovered attachment downloads like any other.
    const link = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments/${committed}/download` });
    const url = new URL(link.json<{ signed_url: string }>().signed_url);
    expect((await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body).toBe('late');
  });

  it("staging an id another writer holds fails and leaves that writer's file to publish", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ticketing-stage-'));
    try {
      const store = new DiskBlobStore(root);
      const id = randomUUID();
      await store.stage(id, Readable.from([Buffer.from('first')]));
      // Two recoveries of one mail stage the same part id: the second cannot open it (EEXIST).
      await expect(store.stage(id, Readable.from([Buffer.from('second')]))).rejects.toMatchObject({ code: 'EEXIST' });
      await store.publish(id);
      const chunks: Buffer[] = [];
      for await (const chunk of store.open(id)) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('first');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("an upload's own publish succeeds when a sweep moved its file first", async () => {
    const ticketId = await createTicket(t);
    const store = new DiskBlobStore(join(t.dataDir, 'attachments'));
    const id = randomUUID();
    await store.stage(id, Readable.from([Buffer.from('raced')]));
    await insertAttachment(t.store.db, {
      id, organization_id: t.org.id, ticket_id: ticketId, filename: 'raced.txt',
      content_type: 'text/plain', size_bytes: 5, uploaded_by_user_id: null, created_at: new Date().toISOString(),
    });
    expect(await store.sweep((ids) => existingAttachmentIds(t.store.db, ids))).toEqual({ published: 1, removed: 0 });
    await expect(store.publish(id)).resolves.toBeUndefined();
    await expect(store.publish(randomUUID())).rejects.toThrow(/ENOENT/);
  });
});
