import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, takeIn } from '../../../test/helpers/mail.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

type Json = Record<string, unknown>;
type Attachment = { id: string; filename: string; content_type: string; size_bytes: number };
type Comment = { body: string; is_internal: boolean; channel: string };

let t: TestApp;
let box: string;
beforeAll(async () => {
  t = await buildTestApp();
  box = (await t.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'support@acme.example', name: 'Acme' } })).json<{ id: string }>().id;
});
afterAll(async () => {
  await t.close();
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

function part(filename: string, type: string, bytes: Buffer): string {
  return [`--b1`, `Content-Type: ${type}; name="${filename}"`, `Content-Disposition: attachment; filename="${filename}"`, 'Content-Transfer-Encoding: base64', '', bytes.toString('base64')].join('\r\n');
}

function withParts(parts: string[], extra: Parameters<typeof message>[0] = {}): string {
  const body = ['--b1', 'Content-Type: text/plain; charset=utf-8', '', 'See attached.', ...parts, '--b1--', ''].join('\r\n');
  return message({ ...extra, mime: { contentType: 'multipart/mixed; boundary="b1"', body } });
}

const attachmentsOf = async (ticketId: string): Promise<Attachment[]> => (await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments` })).json();
const commentsOf = async (ticketId: string): Promise<Comment[]> => (await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/comments` })).json();

async function bytesOf(ticketId: string, attachmentId: string): Promise<Buffer> {
  const link = (await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments/${attachmentId}/download` })).json<{ signed_url: string }>();
  const url = new URL(link.signed_url);
  return (await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).rawPayload;
}

describe('attachments of mail', () => {
  it('allowed parts become the ticket\'s attachments; refused ones are named, with why, in one internal note', async () => {
    const raw = withParts([
      part('report.pdf', 'application/pdf', PDF),
      part('notes.txt', 'text/plain', Buffer.from('plain notes')),
      part('setup.exe', 'application/x-msdownload', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x62, 0x69, 0x6e])),
      part('photo.png', 'image/png', Buffer.from('not a png at all')),
    ]);
    const intake = await takeIn(t, box, raw);
    expect(intake.outcome).toBe('created');
    const kept = await attachmentsOf(intake.ticket_id!);
    expect(kept.map((a) => [a.filename, a.content_type, a.size_bytes])).toEqual([
      ['report.pdf', 'application/pdf', PDF.length],
      ['notes.txt', 'text/plain', 11],
    ]);
    expect(await bytesOf(intake.ticket_id!, kept[0]!.id)).toEqual(PDF);
    const [note] = await commentsOf(intake.ticket_id!);
    expect(note).toMatchObject({ is_internal: true, channel: 'email' });
    expect(note!.body).toContain('Parts of the message were not kept as attachments');
    expect(note!.body).toContain("setup.exe (application/x-msdownload, 7 bytes): File type 'application/x-msdownload' is not allowed");
    expect(note!.body).toMatch(/photo\.png \(image\/png, 16 bytes\): File content does not match its declared type/);
    // The raw message keeps them all.
    const original = await t.request({ method: 'GET', url: `/v1/tickets/${intake.ticket_id}/raw` });
    expect(original.body).toBe(raw);
    // The ticket's events show each attachment.
    const types = (await t.request({ method: 'GET', url: `/v1/tickets/${intake.ticket_id}/events` })).json<Array<{ type: string }>>().map((e) => e.type);
    expect(types.filter((type) => type === 'attachment.created')).toHaveLength(2);
  });

  it("a reply's attachments join the ticket it continues", async () => {
    const first = message();
    const opened = await takeIn(t, box, first);
    const id = /Message-ID: <([^>]+)>/.exec(first)![1];
    const reply = await takeIn(t, box, withParts([part('more.pdf', 'application/pdf', PDF)], { inReplyTo: `<${id}>` }));
    expect(reply).toMatchObject({ outcome: 'appended', ticket_id: opened.ticket_id });
    expect((await attachmentsOf(opened.ticket_id!)).map((a) => a.filename)).toEqual(['more.pdf']);
  });

  it('500 attachments: the first 50 kept, the rest named in the note, no crash', async () => {
    const parts = Array.from({ length: 500 }, (_, i) => part(`f${i}.txt`, 'text/plain', Buffer.from(`file ${i}`)));
    const intake = await takeIn(t, box, withParts(parts));
    expect(intake.outcome).toBe('created');
    const kept: Attachment[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await t.request({ method: 'GET', url: `/v1/tickets/${intake.ticket_id}/attachments?limit=100&offset=${offset}` })).json<Attachment[]>();
      kept.push(...page);
      if (page.length < 100) break;
    }
    expect(kept).toHaveLength(50);
    const [note] = await commentsOf(intake.ticket_id!);
    expect(note!.body.split('\n').filter((line) => line.includes('a message keeps at most 50 attachments'))).toHaveLength(450);
  });

  it('over the storage quota: the part is refused and named', async () => {
    const small = await buildTestApp({ STORAGE_QUOTA_BYTES: '20' });
    try {
      const mailbox = (await small.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'q@acme.example', name: 'Q' } })).json<Json & { id: string }>();
      const intake = await takeIn(small, mailbox.id, withParts([part('big.pdf', 'application/pdf', PDF)]));
      expect(intake.outcome).toBe('created');
      expect((await small.request({ method: 'GET', url: `/v1/tickets/${intake.ticket_id}/attachments` })).json()).toEqual([]);
      const [note] = (await small.request({ method: 'GET', url: `/v1/tickets/${intake.ticket_id}/comments` })).json<Comment[]>();
      expect(note!.body).toContain(`big.pdf (application/pdf, ${PDF.length} bytes): the organization's storage quota is used up`);
    } finally {
      await small.close();
    }
  });
});
