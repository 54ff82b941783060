import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, postMessage } from '../../../test/helpers/mail.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { recoverPendingAttachments } from './mail.attachments.recovery.js';
import { takeIn } from './mail.intake.js';
import { createMessageIds } from './mail.message-ids.js';
import { findMailboxByAddress } from './mailboxes.repository.js';

// A crash between a mail's ticket and the storage of its attachments (decisions §14: lost mail,
// half-written records): the process "dies" while keeping the second of three parts. The ticket
// is committed with its message marked; the recovery pass keeps the rest, none twice, the note once.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await t.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'crash@acme.example', name: 'Acme' } });
});
afterAll(async () => {
  await t.close();
});

class Crash extends Error {}

/** The test app's blob store, but the process "dies" when the nth file is staged. */
function dyingAt(blobs: BlobStore, nth: number): BlobStore {
  let staged = 0;
  return new Proxy(blobs, {
    get(target, property, receiver) {
      if (property === 'stage') {
        return (...args: Parameters<BlobStore['stage']>) => {
          if (++staged === nth) throw new Crash('killed while keeping an attachment');
          return target.stage(...args);
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
const part = (filename: string, type: string, bytes: Buffer) =>
  [`--b1`, `Content-Type: ${type}; name="${filename}"`, `Content-Disposition: attachment; filename="${filename}"`, 'Content-Transfer-Encoding: base64', '', bytes.toString('base64')].join('\r\n');

describe('a crash while a mail\'s attachments are kept', () => {
  it('leaves the ticket and a mark; recovery keeps the rest once, with one note for the refused part', async () => {
    const body = ['--b1', 'Content-Type: text/plain', '', 'Three files.', part('a.pdf', 'application/pdf', PDF), part('b.txt', 'text/plain', Buffer.from('bee')),
      part('c.exe', 'application/x-msdownload', Buffer.from('MZ')), part('d.txt', 'text/plain', Buffer.from('dee')), '--b1--', ''].join('\r\n');
    const raw = Buffer.from(message({ from: 'ada@crash.example', subject: 'Files', mime: { contentType: 'multipart/mixed; boundary="b1"', body } }));
    const mailbox = (await findMailboxByAddress(t.store.db, t.org.id, 'crash@acme.example'))!;
    const mailer = { messageIds: createMessageIds(t.config), publicUrl: t.config.publicUrl };
    const dying = { store: t.store, blobs: dyingAt(t.blobs, 2), config: t.config, mailer };
    await expect(takeIn(dying, mailbox, raw)).rejects.toBeInstanceOf(Crash);

    const tickets = (await t.request({ method: 'GET', url: '/v1/tickets?limit=100' })).json<Array<{ id: string; subject: string }>>();
    const ticket = tickets.find((x) => x.subject === 'Files')!;
    const files = async () => (await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}/attachments` })).json<Array<{ filename: string }>>().map((a) => a.filename);
    const notes = async () => (await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}/comments` })).json<Array<{ body: string }>>();
    expect(await files()).toEqual(['a.pdf']);
    expect(await notes()).toEqual([]);
    const marked = () => t.store.db.selectFrom('mail_messages').select('attachments_pending').where('ticket_id', '=', ticket.id).executeTakeFirstOrThrow();
    expect((await marked()).attachments_pending).toBe(1);

    // Too young to be taken from an intake that may still be running: left alone.
    const deps = { store: t.store, blobs: t.blobs, config: t.config };
    expect(await recoverPendingAttachments(deps)).toBe(0);
    // Two processes recovering at once: each part kept once, the note written once.
    await Promise.all([recoverPendingAttachments(deps, 0), recoverPendingAttachments(deps, 0)]);
    expect((await files()).sort()).toEqual(['a.pdf', 'b.txt', 'd.txt']);
    const written = await notes();
    expect(written).toHaveLength(1);
    expect(written[0]!.body).toContain("c.exe (application/x-msdownload, 2 bytes): File type 'application/x-msdownload' is not allowed");
    expect((await marked()).attachments_pending).toBe(0);
    expect(await recoverPendingAttachments(deps, 0)).toBe(0);
    expect((await files()).sort()).toEqual(['a.pdf', 'b.txt', 'd.txt']);
  });

  it('a mail taken in whole leaves no mark', async () => {
    const body = ['--b1', 'Content-Type: text/plain', '', 'One file.', part('one.txt', 'text/plain', Buffer.from('one')), '--b1--', ''].join('\r\n');
    const mailbox = (await findMailboxByAddress(t.store.db, t.org.id, 'crash@acme.example'))!;
    const res = await postMessage(t, mailbox.id, message({ from: 'bob@crash.example', subject: 'Whole', mime: { contentType: 'multipart/mixed; boundary="b1"', body } }));
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json(), res.body).toMatchObject({ outcome: 'created' });
    const row = await t.store.db.selectFrom('mail_messages').select('attachments_pending').where('ticket_id', '=', res.json<{ ticket_id: string }>().ticket_id).executeTakeFirstOrThrow();
    expect(row.attachments_pending).toBe(0);
  });
});
