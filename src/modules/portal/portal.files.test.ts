import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody, nothingStaged, PNG, storedIds, type Part } from '../../../test/helpers/attachments.js';
import { agentComments, portalTicket, setStatus } from '../../../test/helpers/portal.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

/**
 * Files attached to a reply through the portal's form: the upload rules of the API (decisions §8),
 * the reply and its files committed together, and a refused file refusing the whole reply.
 */

interface AgentAttachment {
  id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  uploaded_by_user_id: string | null;
}

function send(t: TestApp, token: string, parts: Part[]) {
  const { payload, contentType } = multipartBody(parts);
  return t.app.inject({ method: 'POST', url: `/portal/${token}/reply`, headers: { 'content-type': contentType }, payload });
}

const text = (body: string): Part => ({ name: 'body', data: body });
const file = (filename: string, type: string, data: Buffer | string): Part => ({ name: 'files', filename, type, data });

async function attachmentsOf(t: TestApp, ticketId: string): Promise<AgentAttachment[]> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments`, key: t.org.adminKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AgentAttachment[]>();
}

/** Nothing of a refused reply was kept: no comment, no attachment row, no bytes stored or staged. */
async function expectNothingKept(t: TestApp, ticketId: string, before: string[]): Promise<void> {
  expect(await agentComments(t, ticketId)).toEqual([]);
  expect(await attachmentsOf(t, ticketId)).toEqual([]);
  expect((await storedIds(t)).sort()).toEqual([...before].sort());
  expect(await nothingStaged(t)).toBe(true);
}

describe.each(['disk', 'database'] as const)('files with a portal reply, STORAGE_BACKEND=%s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_BACKEND: backend });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the files with the reply, links them to its comment and lists them under it with working links', async () => {
    const ticket = await portalTicket(t);
    const res = await send(t, ticket.tracking_token, [
      text('Here are the invoice and a screenshot'),
      file('invoice.txt', 'text/plain', 'Total: 120 EUR'),
      file('screen.png', 'image/png', PNG),
    ]);
    expect(res.statusCode, res.body).toBe(303);
    const [comment] = await agentComments(t, ticket.id);
    expect(comment?.body).toBe('Here are the invoice and a screenshot');
    expect(res.headers.location).toMatch(new RegExp(`\\?sent=1#comment-${comment!.id}$`));

    const files = (await attachmentsOf(t, ticket.id)).sort((a, b) => a.filename.localeCompare(b.filename));
    expect(files.map((f) => [f.filename, f.content_type, f.size_bytes, f.uploaded_by_user_id])).toEqual([
      ['invoice.txt', 'text/plain', 14, null],
      ['screen.png', 'image/png', PNG.length, null],
    ]);
    const full = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}/comments/${comment!.id}`, key: t.org.adminKey });
    expect(full.json<{ attachment_ids: string[] }>().attachment_ids.sort()).toEqual(files.map((f) => f.id).sort());
    expect((await storedIds(t)).filter((id) => files.some((f) => f.id === id))).toHaveLength(2);
    expect(await nothingStaged(t)).toBe(true);

    // The JSON view and the page carry the files under their comment, with the confirmation.
    const json = await t.app.inject({ method: 'GET', url: `/v1/portal/tickets/${ticket.tracking_token}` });
    expect(json.json<{ comments: { attachment_ids: string[] }[] }>().comments[0]?.attachment_ids.sort()).toEqual(files.map((f) => f.id).sort());
    const page = await t.app.inject({ method: 'GET', url: `/portal/${ticket.tracking_token}?sent=1` });
    const li = new RegExp(`<li id="comment-${comment!.id}"[\\s\\S]*?</li>\\n</ul>`).exec(page.body)?.[0] ?? '';
    expect(li).toContain(`<a href="/portal/${ticket.tracking_token}/attachments/${files[0]!.id}">invoice.txt</a>`);
    expect(li).toContain('screen.png</a>');
    expect(page.body).toContain('id="reply-sent"');

    // The customer's link opens the file.
    const open = await t.app.inject({ method: 'GET', url: `/portal/${ticket.tracking_token}/attachments/${files[0]!.id}` });
    expect(open.statusCode).toBe(303);
    const download = await t.app.inject({ method: 'GET', url: new URL(String(open.headers.location)).pathname + new URL(String(open.headers.location)).search });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('Total: 120 EUR');
  });

  it('the page form is multipart with a file input, and an empty file input is no file', async () => {
    const ticket = await portalTicket(t);
    const page = await t.app.inject({ method: 'GET', url: `/portal/${ticket.tracking_token}` });
    expect(page.body).toContain('enctype="multipart/form-data"');
    expect(page.body).toMatch(/<input type="file" id="reply-files" name="files" multiple aria-describedby="files-hint">/);
    const res = await send(t, ticket.tracking_token, [text('No file this time'), file('', 'application/octet-stream', '')]);
    expect(res.statusCode, res.body).toBe(303);
    expect((await agentComments(t, ticket.id)).map((c) => c.body)).toEqual(['No file this time']);
    expect(await attachmentsOf(t, ticket.id)).toEqual([]);
  });

  it('refuses the whole reply for a file of a type not allowed, with the reason on the page and the text kept', async () => {
    const ticket = await portalTicket(t);
    const before = await storedIds(t);
    const res = await send(t, ticket.tracking_token, [
      text('Please run this <tool>'),
      file('fine.txt', 'text/plain', 'fine'),
      file('tool.exe', 'application/x-msdownload', 'MZ...'),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<p class="error" id="reply-error" role="alert">Your reply was not sent, and no file was kept. One of the files is of a type we do not accept');
    expect(res.body).toContain('>Please run this &lt;tool&gt;</textarea>');
    await expectNothingKept(t, ticket.id, before);
  });

  it('refuses a file whose content does not match its declared type', async () => {
    const ticket = await portalTicket(t);
    const before = await storedIds(t);
    const res = await send(t, ticket.tracking_token, [text('Photo'), file('photo.jpg', 'image/jpeg', PNG)]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('does not contain what its type says');
    await expectNothingKept(t, ticket.id, before);
  });

  it('refuses a file over 30 MB, and more than five files', async () => {
    const ticket = await portalTicket(t);
    const before = await storedIds(t);
    const big = await send(t, ticket.tracking_token, [text('Big'), file('big.txt', 'text/plain', Buffer.alloc(31_457_281, 'a'))]);
    expect(big.statusCode).toBe(400);
    expect(big.body).toContain('Each file can be at most 30 MB.');
    await expectNothingKept(t, ticket.id, before);
    const many = await send(t, ticket.tracking_token, [text('Many'), ...Array.from({ length: 6 }, (_, i) => file(`f${i}.txt`, 'text/plain', `file ${i}`))]);
    expect(many.statusCode).toBe(422);
    expect(many.body).toContain('Please attach at most 5 files to one reply.');
    expect(many.body).toContain('>Many</textarea>');
    await expectNothingKept(t, ticket.id, before);
  });

  it('keeps no file of a reply that is refused for its text or because the ticket is closed', async () => {
    const ticket = await portalTicket(t);
    const before = await storedIds(t);
    const empty = await send(t, ticket.tracking_token, [text('   '), file('a.txt', 'text/plain', 'a')]);
    expect(empty.statusCode).toBe(422);
    await expectNothingKept(t, ticket.id, before);
    await setStatus(t, ticket.id, 'closed');
    const closed = await send(t, ticket.tracking_token, [text('Hello?'), file('a.txt', 'text/plain', 'a')]);
    expect(closed.statusCode).toBe(409);
    await expectNothingKept(t, ticket.id, before);
  });
});

describe.each(['disk', 'database'] as const)("a portal reply's files and the storage quota, STORAGE_BACKEND=%s", (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_BACKEND: backend, STORAGE_QUOTA_BYTES: '100' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses the whole reply when its files together do not fit, and takes them when they do', async () => {
    const ticket = await portalTicket(t);
    const before = await storedIds(t);
    const over = await send(t, ticket.tracking_token, [text('Two files'), file('a.txt', 'text/plain', Buffer.alloc(60, 'a')), file('b.txt', 'text/plain', Buffer.alloc(41, 'b'))]);
    expect(over.statusCode).toBe(413);
    expect(over.body).toContain('There is no room left for these files');
    expect(over.body).toContain('>Two files</textarea>');
    await expectNothingKept(t, ticket.id, before);
    const fits = await send(t, ticket.tracking_token, [text('Two files'), file('a.txt', 'text/plain', Buffer.alloc(60, 'a')), file('b.txt', 'text/plain', Buffer.alloc(40, 'b'))]);
    expect(fits.statusCode, fits.body).toBe(303);
    expect((await attachmentsOf(t, ticket.id)).map((f) => f.size_bytes).sort()).toEqual([40, 60]);
  });
});
