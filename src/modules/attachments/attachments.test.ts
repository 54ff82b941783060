import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, filesOnDisk, nothingStaged, PNG, SAMPLES, storedBytes, storedIds, upload, uploadParts } from '../../../test/helpers/attachments.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { insertUser } from '../users/users.repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const LIMIT = 31_457_280;
/** The spec's list of allowed types, as the 400 for any other names them. */
const ALLOWED_LIST =
  'text/plain, text/html, application/pdf, image/png, image/jpeg, image/gif, image/webp, video/mp4, video/webm, video/ogg, ' +
  'video/quicktime, application/zip, application/x-7z-compressed, application/gzip';
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface AttachmentJson {
  id: string;
  ticket_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  uploaded_by_user_id: string | null;
  created_at: string;
}

async function attachmentRows(): Promise<number> {
  const row = await t.store.db.selectFrom('attachments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('upload', () => {
  it('accepts each allowed type and lists them oldest first', async () => {
    const ticketId = await createTicket(t);
    const uploaded: AttachmentJson[] = [];
    for (const [type, data] of Object.entries(SAMPLES)) {
      const res = await upload(t, ticketId, `sample.${type.split('/')[1] ?? 'bin'}`, type, data);
      expect(res.statusCode, `${type}: ${res.body}`).toBe(201);
      const body = res.json<AttachmentJson>();
      expect(body).toMatchObject({ ticket_id: ticketId, content_type: type, size_bytes: data.length, uploaded_by_user_id: null });
      expect(body.created_at).toMatch(ISO_MS);
      uploaded.push(body);
    }
    expect(uploaded).toHaveLength(14);
    const list = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments` });
    expect(list.statusCode).toBe(200);
    expect(list.json<AttachmentJson[]>().map((a) => a.id)).toEqual(uploaded.map((a) => a.id));
    expect((await storedIds(t)).filter((id) => uploaded.some((a) => a.id === id))).toHaveLength(14);
  });

  it('takes the part type lower-cased without parameters, and records the key holder', async () => {
    const ticketId = await createTicket(t);
    const userId = randomUUID();
    const now = new Date().toISOString();
    await insertUser(t.store.db, {
      id: userId, organization_id: t.org.id, email: 'agent@example.com', email_normalized: 'agent@example.com',
      full_name: 'Agent', role: 'agent', is_active: 1, created_at: now, updated_at: now,
    });
    const key = await t.org.key({ holderUserId: userId });
    const res = await upload(t, ticketId, 'notes.txt', 'Text/Plain; charset=UTF-8', 'some notes', key);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ content_type: 'text/plain', uploaded_by_user_id: userId, filename: 'notes.txt' });
  });

  it('stores the filename without its directories, never as a path', async () => {
    const ticketId = await createTicket(t);
    const res = await upload(t, ticketId, '../../etc/passwd', 'text/plain', 'x');
    expect(res.statusCode, res.body).toBe(201);
    const { id, filename } = res.json<AttachmentJson>();
    expect(filename).toBe('passwd');
    expect((await storedIds(t)).filter((stored) => stored === id)).toHaveLength(1);
    expect(filesOnDisk(t).some((f) => f.includes('passwd'))).toBe(false);
  });

  it('rejects a type off the list, naming it', async () => {
    const ticketId = await createTicket(t);
    const res = await upload(t, ticketId, 'setup.exe', 'application/x-msdownload', Buffer.from('MZ\x90\x00'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: `File type 'application/x-msdownload' is not allowed; allowed types: ${ALLOWED_LIST}` });
  });

  it('for application/octet-stream (what curl sends for an unknown file) says to send the real type', async () => {
    const ticketId = await createTicket(t);
    const res = await upload(t, ticketId, 'notes.txt', 'application/octet-stream', 'some notes');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      detail:
        `File type 'application/octet-stream' is not allowed; allowed types: ${ALLOWED_LIST}. ` +
        `'application/octet-stream' names no type: send the file's real type with its part, e.g. curl -F "file=@notes.txt;type=text/plain"`,
    });
  });

  it('rejects content that does not match the declared type, naming both', async () => {
    const ticketId = await createTicket(t);
    const before = await attachmentRows();
    const png = await upload(t, ticketId, 'photo.jpg', 'image/jpeg', PNG);
    expect(png.statusCode).toBe(400);
    expect(png.json<{ detail: string }>().detail).toMatch(/'image\/jpeg'.*'image\/png'/);
    const pdf = await upload(t, ticketId, 'doc.pdf', 'application/pdf', randomBytes(4096));
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json<{ detail: string }>().detail).toMatch(/'application\/pdf'.*'application\/octet-stream'/);
    const exe = await upload(t, ticketId, 'archive.zip', 'application/zip', Buffer.from('MZ\x90\x00rest of a program'));
    expect(exe.json<{ detail: string }>().detail).toMatch(/'application\/zip'.*'application\/x-msdownload'/);
    expect(await attachmentRows()).toBe(before);
    expect(await nothingStaged(t)).toBe(true);
  });

  it('needs a file part named file, in a multipart body', async () => {
    const ticketId = await createTicket(t);
    const url = `/v1/tickets/${ticketId}/attachments`;
    const before = await attachmentRows();
    const noFile = await uploadParts(t, ticketId, [{ name: 'comment', data: 'just a field' }]);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json<{ detail: string }>().detail).toMatch(/no file part/);
    const otherName = await uploadParts(t, ticketId, [{ name: 'document', filename: 'a.txt', type: 'text/plain', data: 'x' }]);
    expect(otherName.statusCode).toBe(400);
    expect(otherName.json<{ detail: string }>().detail).toMatch(/named 'file'/);
    const two = await uploadParts(t, ticketId, [
      { name: 'file', filename: 'a.txt', type: 'text/plain', data: 'a' },
      { name: 'file', filename: 'b.txt', type: 'text/plain', data: 'b' },
    ]);
    expect(two.statusCode).toBe(400);
    expect(two.json<{ detail: string }>().detail).toMatch(/exactly one file part/);
    const json = await t.request({ method: 'POST', url, body: { file: 'abc' } });
    expect(json.statusCode).toBe(400);
    expect(json.json<{ detail: string }>().detail).toMatch(/multipart\/form-data/);
    const bare = await t.request({ method: 'POST', url });
    expect(bare.statusCode).toBe(400);
    const octets = await t.request({ method: 'POST', url, body: 'bytes', headers: { 'content-type': 'application/octet-stream' } });
    expect(octets.statusCode).toBe(400);
    expect(await attachmentRows()).toBe(before);
    expect(await nothingStaged(t)).toBe(true);
  });

  it('keeps a file of exactly 30 MiB and refuses one byte more, keeping nothing', async () => {
    const ticketId = await createTicket(t);
    const exact = await upload(t, ticketId, 'big.txt', 'text/plain', Buffer.alloc(LIMIT, 0x61));
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json()).toMatchObject({ size_bytes: LIMIT });

    const rowsBefore = await attachmentRows();
    const storedBefore = await storedBytes(t);
    const over = await upload(t, ticketId, 'bigger.txt', 'text/plain', Buffer.alloc(LIMIT + 1, 0x61));
    expect(over.statusCode).toBe(400);
    expect(over.json<{ detail: string }>().detail).toMatch(/File size exceeds the 30 MB maximum/);
    expect(await attachmentRows()).toBe(rowsBefore);
    expect(await storedBytes(t)).toEqual(storedBefore);
  });

  it('refuses a declared length far above the limit without reading the body', async () => {
    const ticketId = await createTicket(t);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticketId}/attachments`,
      headers: { authorization: `Bearer ${t.org.adminKey}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(LIMIT * 2) },
      payload: '--x\r\n',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ detail: string }>().detail).toMatch(/30 MB/);
  });
});

describe('metadata, delete and access', () => {
  it('gets and deletes an attachment, removing its file', async () => {
    const ticketId = await createTicket(t);
    const created = (await upload(t, ticketId, 'a.txt', 'text/plain', 'hello')).json<AttachmentJson>();
    const url = `/v1/tickets/${ticketId}/attachments/${created.id}`;
    const got = await t.request({ method: 'GET', url });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);
    expect((await storedIds(t)).filter((id) => id === created.id)).toHaveLength(1);

    const deleted = await t.request({ method: 'DELETE', url });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url })).statusCode).toBe(404);
    expect((await storedIds(t)).filter((id) => id === created.id)).toHaveLength(0);
  });

  it('deleting the ticket removes its attachments and their files', async () => {
    const ticketId = await createTicket(t);
    const ids: string[] = [];
    for (const name of ['a.txt', 'b.txt']) ids.push((await upload(t, ticketId, name, 'text/plain', name)).json<AttachmentJson>().id);
    expect((await storedIds(t)).filter((id) => ids.includes(id))).toHaveLength(2);
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${ticketId}` })).statusCode).toBe(204);
    expect((await storedIds(t)).filter((id) => ids.includes(id))).toHaveLength(0);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments` })).statusCode).toBe(404);
  });

  it('answers 401, 403, 404 and 422 on every route', async () => {
    const ticketId = await createTicket(t);
    const id = (await upload(t, ticketId, 'a.txt', 'text/plain', 'x')).json<AttachmentJson>().id;
    const readOnly = await t.org.key({ role: 'readonly' });
    const base = `/v1/tickets/${ticketId}/attachments`;
    const reads = [base, `${base}/${id}`, `${base}/${id}/download`];
    for (const url of reads) {
      expect((await t.request({ method: 'GET', url, key: null })).statusCode, url).toBe(401);
      expect((await t.request({ method: 'GET', url, key: readOnly })).statusCode, url).toBe(200);
      const noScope = await t.org.key({ scopes: ['tickets:read'] });
      const forbidden = await t.request({ method: 'GET', url, key: noScope });
      expect(forbidden.statusCode, url).toBe(403);
      expect(forbidden.json()).toEqual({ detail: 'Insufficient permissions: requires attachments:read' });
    }
    expect((await upload(t, ticketId, 'a.txt', 'text/plain', 'x', null)).statusCode).toBe(401);
    const denied = await upload(t, ticketId, 'a.txt', 'text/plain', 'x', readOnly);
    expect(denied.statusCode).toBe(403);
    expect(denied.json<{ detail: string }>().detail).toMatch(/attachments:write/);
    const del = await t.request({ method: 'DELETE', url: `${base}/${id}`, key: readOnly });
    expect(del.json<{ detail: string }>().detail).toMatch(/attachments:delete/);

    const missing = randomUUID();
    for (const url of [`/v1/tickets/${missing}/attachments`, `${base}/${missing}`, `${base}/${missing}/download`]) {
      expect((await t.request({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect((await upload(t, missing, 'a.txt', 'text/plain', 'x')).json()).toEqual({ detail: 'Ticket not found' });
    for (const url of ['/v1/tickets/nope/attachments', `${base}/nope`, `${base}/nope/download`]) {
      expect((await t.request({ method: 'GET', url })).statusCode, url).toBe(422);
    }
    expect((await t.request({ method: 'DELETE', url: `${base}/nope` })).statusCode).toBe(422);
    expect((await upload(t, 'nope', 'a.txt', 'text/plain', 'x')).statusCode).toBe(422);
  });

  it("hides another organization's tickets and attachments behind 404", async () => {
    const ticketId = await createTicket(t);
    const id = (await upload(t, ticketId, 'a.txt', 'text/plain', 'x')).json<AttachmentJson>().id;
    const other = await t.newOrg('Other');
    const base = `/v1/tickets/${ticketId}/attachments`;
    for (const url of [base, `${base}/${id}`, `${base}/${id}/download`]) {
      expect((await t.request({ method: 'GET', url, key: other.adminKey })).statusCode, url).toBe(404);
    }
    expect((await t.request({ method: 'DELETE', url: `${base}/${id}`, key: other.adminKey })).statusCode).toBe(404);
    expect((await upload(t, ticketId, 'b.txt', 'text/plain', 'x', other.adminKey)).statusCode).toBe(404);
    // The attachment under another ticket of the same organization is not found either.
    const otherTicket = await createTicket(t);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${otherTicket}/attachments/${id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `${base}/${id}` })).statusCode).toBe(200);
  });
});
