import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PNG, upload } from '../../../test/helpers/attachments.js';
import { SmtpReceiver, waitFor, type Received } from '../../../test/helpers/smtp.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { startMailOutbox, type MailOutboxWorker } from './mail.outbox.worker.js';

// A public agent comment goes out by mail with the attachments it carries (decisions §14).

let t: TestApp;
let smtp: SmtpReceiver;
let worker: MailOutboxWorker;
beforeAll(async () => {
  smtp = new SmtpReceiver();
  const url = await smtp.listen();
  t = await buildTestApp({ SMTP_URL: url, MAIL_OUTBOX_POLL_INTERVAL_MS: '20', MAIL_RETRY_SCHEDULE: '50ms,50ms' });
  worker = startMailOutbox({ store: t.store, blobs: t.blobs, config: t.config, log: t.app.log });
  await t.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'support@files.example', name: 'Files Support' } });
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.received.length = 0;
});

const to = (address: string) => (r: Received) => r.envelopeTo.includes(address);

async function ticketFor(email: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'Ada', customer_email: email, subject: 'Invoice', description: 'Please send it' } });
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

async function attach(ticketId: string, name: string, type: string, data: Buffer | string): Promise<string> {
  const res = await upload(t, ticketId, name, type, data);
  expect(res.statusCode).toBe(201);
  return res.json<{ id: string }>().id;
}

describe('comments carrying attachments', () => {
  it('mails a public comment with each of its attachments: names, types and bytes as uploaded, in its order', async () => {
    const ticketId = await ticketFor('ada@files.example');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const png = await attach(ticketId, 'screen shot.png', 'image/png', PNG);
    const doc = await attach(ticketId, 'Rechnung März.pdf', 'application/pdf', pdf);
    const res = await t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, body: { body: 'Here is your invoice.', attachment_ids: [doc, png] } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ attachment_ids: [doc, png] });
    const got = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/comments/${res.json<{ id: string }>().id}` });
    expect(got.json()).toMatchObject({ attachment_ids: [doc, png] });

    const mail = await waitFor(() => smtp.received.find(to('ada@files.example')), 'the reply');
    expect(mail.parsed.text?.trim()).toBe('Here is your invoice.');
    const parts = mail.parsed.attachments;
    expect(parts.map((p) => [p.filename, p.mimeType])).toEqual([
      ['Rechnung März.pdf', 'application/pdf'],
      ['screen shot.png', 'image/png'],
    ]);
    expect(Buffer.from(parts[0]!.content as ArrayBuffer).equals(pdf)).toBe(true);
    expect(Buffer.from(parts[1]!.content as ArrayBuffer).equals(PNG)).toBe(true);
  });

  it('refuses an attachment of another ticket or organization, naming the entry; the comment is not written', async () => {
    const ticketId = await ticketFor('grace@files.example');
    const other = await ticketFor('grace@files.example');
    const own = await attach(ticketId, 'a.txt', 'text/plain', 'a');
    const foreign = await attach(other, 'b.txt', 'text/plain', 'b');
    const res = await t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, body: { body: 'Files', attachment_ids: [own, foreign] } });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toContain('body.attachment_ids[1]');
    const otherOrg = await t.newOrg();
    const theirs = await t.request({ method: 'POST', url: '/v1/tickets', key: otherOrg.adminKey, body: { customer_name: 'X', customer_email: 'x@files.example', subject: 'S', description: 'D' } });
    const theirFile = await upload(t, theirs.json<{ id: string }>().id, 'c.txt', 'text/plain', 'c', otherOrg.adminKey);
    const cross = await t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, body: { body: 'Files', attachment_ids: [theirFile.json<{ id: string }>().id] } });
    expect(cross.statusCode).toBe(422);
    expect(cross.json<{ detail: string }>().detail).toContain('body.attachment_ids[0]');
    const list = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/comments` });
    expect(list.json<unknown[]>()).toHaveLength(0);
    const dup = await t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, body: { body: 'Files', attachment_ids: [own, own] } });
    expect(dup.statusCode).toBe(422);
  });

  it('a deleted attachment leaves the comments that carried it', async () => {
    const ticketId = await ticketFor('linus@files.example');
    const a = await attach(ticketId, 'a.txt', 'text/plain', 'aaa');
    const b = await attach(ticketId, 'b.txt', 'text/plain', 'bbb');
    const note = await t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, body: { body: 'Two files', is_internal: true, attachment_ids: [a, b] } });
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${ticketId}/attachments/${a}` })).statusCode).toBe(204);
    const got = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/comments/${note.json<{ id: string }>().id}` });
    expect(got.json()).toMatchObject({ attachment_ids: [b] });
    // An internal note is never mailed, attachments or not.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.filter(to('linus@files.example'))).toHaveLength(0);
  });
});
