import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, postMessage, takeIn } from '../../../test/helpers/mail.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

type Json = Record<string, unknown>;
type Ticket = Json & { id: string; subject: string; description: string; customer_id: string };

let t: TestApp;
let box: string;
beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'support@acme.example', name: 'Acme Support' } });
  box = res.json<{ id: string }>().id;
});
afterAll(async () => {
  await t.close();
});

const ticket = async (id: string): Promise<Ticket> => (await t.request({ method: 'GET', url: `/v1/tickets/${id}` })).json();

async function openedTicket(raw: string | Buffer): Promise<Ticket> {
  const intake = await takeIn(t, box, raw);
  expect(intake.outcome).toBe('created');
  return ticket(intake.ticket_id!);
}

describe('decoding', () => {
  it('ISO-2022-JP headers (encoded words) and body', async () => {
    const jis = (text: string) => Buffer.from(text, 'latin1');
    // "こんにちは" in ISO-2022-JP: ESC $ B ... ESC ( B.
    const hello = '\x1b$B$3$s$K$A$O\x1b(B';
    const raw = Buffer.concat([
      jis(message({ from: '=?ISO-2022-JP?B?GyRCJDMkcyRLJEEkTxsoQg==?= <jp@customer.example>', subject: '=?ISO-2022-JP?B?GyRCJDMkcyRLJEEkTxsoQg==?=', mime: { contentType: 'text/plain; charset=ISO-2022-JP', encoding: '7bit', body: `${hello}\r\n` } })),
    ]);
    const created = await openedTicket(raw);
    expect(created.subject).toBe('こんにちは');
    expect(created.description).toBe('こんにちは');
    const customer = (await t.request({ method: 'GET', url: `/v1/customers/${created.customer_id}` })).json<Json>();
    expect(customer.name).toBe('こんにちは');
  });

  it('windows-1252 quoted-printable (its 0x80-0x9F characters too), base64 UTF-8, and encoded-word subjects', async () => {
    const cp = await openedTicket(message({ subject: '=?windows-1252?Q?Caf=E9_=93menu=94?=', mime: { contentType: 'text/plain; charset=windows-1252', encoding: 'quoted-printable', body: 'caf=E9 =93quoted=94 =80 5\r\n' } }));
    expect(cp.subject).toBe('Café “menu”');
    expect(cp.description).toBe('café “quoted” € 5');
    const b64 = await openedTicket(message({ subject: '=?UTF-8?B?w5xiZXJwcsO8ZnVuZw==?=', mime: { contentType: 'text/plain; charset=utf-8', encoding: 'base64', body: Buffer.from('Grüße aus Köln ✓').toString('base64') } }));
    expect(b64.subject).toBe('Überprüfung');
    expect(b64.description).toBe('Grüße aus Köln ✓');
  });

  it('HTML-only mail becomes text, scripts and styles dropped', async () => {
    const html = '<html><head><style>p{color:red}</style><script>alert(1)</script></head><body><p>Hello <b>there</b></p><p>Line two &amp; more</p><img src="x" onerror="alert(2)"></body></html>';
    const created = await openedTicket(message({ mime: { contentType: 'text/html; charset=utf-8', body: html } }));
    expect(created.description).toContain('Hello there');
    expect(created.description).toContain('Line two & more');
    expect(created.description).not.toMatch(/alert|color:red|<|onerror/);
  });

  it('an unknown charset is read as well as it can be, not refused', async () => {
    const created = await openedTicket(message({ mime: { contentType: 'text/plain; charset=x-no-such-charset', body: 'plain words' } }));
    expect(created.description).toBe('plain words');
  });
});

describe('mail that cannot be used, and mail that is not taken', () => {
  it('no From: rejected with the reason, kept once (a second time is a duplicate)', async () => {
    const raw = message().replace(/^From: .*\r\n/, '');
    const res = await postMessage(t, box, raw);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ outcome: 'rejected', ticket_id: null, comment_id: null, reason: 'the message has no usable From address' });
    expect((await takeIn(t, box, raw)).outcome).toBe('duplicate');
    const kept = await t.store.db.selectFrom('mail_messages').select(['outcome', 'raw']).where('outcome', '=', 'rejected').execute();
    expect(kept.some((row) => Buffer.from(row.raw).toString() === raw)).toBe(true);
  });

  it('a header bomb is rejected without a crash', async () => {
    const bomb = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`X-Filler-${i}`, 'y'.repeat(100)]));
    const res = await postMessage(t, box, message({ headers: bomb }));
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ outcome: 'rejected', ticket_id: null });
    expect(res.json<{ reason: string }>().reason).toMatch(/cannot be parsed/);
  });

  it('truncated MIME still makes a ticket of what can be read', async () => {
    const raw = message({ mime: { contentType: 'multipart/mixed; boundary="b1"', body: '--b1\r\nContent-Type: text/plain\r\n\r\nBeginning of the text\r\n--b1\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0x' } });
    const created = await openedTicket(raw);
    expect(created.description).toContain('Beginning of the text');
  });

  it("mail from one of the organization's own mailboxes is ignored", async () => {
    const res = await takeIn(t, box, message({ from: 'Acme <SUPPORT@acme.example>' }));
    expect(res).toEqual({ outcome: 'ignored', ticket_id: null, comment_id: null, reason: "sent from one of this organization's own mailboxes" });
  });

  it('automated mail that opens a ticket is kept and marked automated', async () => {
    const automated: Array<Record<string, string>> = [{ Precedence: 'bulk' }, { 'List-Unsubscribe': '<mailto:u@list.example>' }, { 'Return-Path': '<>' }, { 'X-Autoreply': 'yes' }];
    for (const headers of automated) {
      const created = await openedTicket(message({ headers }));
      expect(created.email, JSON.stringify(headers)).toMatchObject({ automated: true });
    }
    const daemon = await openedTicket(message({ from: 'MAILER-DAEMON@mx.example' }));
    expect(daemon.email).toMatchObject({ automated: true });
    const human = await openedTicket(message({ headers: { 'Auto-Submitted': 'no' } }));
    expect(human.email).toMatchObject({ automated: false });
  });
});

describe('the raw intake route', () => {
  it('takes message/rfc822 only (415), up to 40 MiB (413 naming the limit), for the organization\'s mailboxes with mailboxes:write', async () => {
    const json = await t.request({ method: 'POST', url: `/v1/mailboxes/${box}/messages`, body: { raw: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ detail: 'Content-Type must be message/rfc822, with the raw message as the body' });
    const big = await t.app.inject({
      method: 'POST',
      url: `/v1/mailboxes/${box}/messages`,
      headers: { authorization: `Bearer ${t.org.adminKey}`, 'content-type': 'message/rfc822' },
      payload: Buffer.alloc(40 * 1024 * 1024 + 1, 0x61),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ detail: 'The message exceeds the 41943040 byte (40 MiB) maximum of a raw message' });
    // Without a declared length (chunked), cut off at the limit: the same answer.
    const chunked = await t.app.inject({
      method: 'POST',
      url: `/v1/mailboxes/${box}/messages`,
      headers: { authorization: `Bearer ${t.org.adminKey}`, 'content-type': 'message/rfc822' },
      payload: Readable.from([Buffer.alloc(20 * 1024 * 1024, 0x61), Buffer.alloc(20 * 1024 * 1024 + 1, 0x61)]),
    });
    expect(chunked.statusCode).toBe(413);
    expect(chunked.json()).toEqual(big.json());
    const other = await t.newOrg('Intake elsewhere');
    expect((await postMessage(t, box, message(), other.adminKey)).statusCode).toBe(404);
    const readonly = await t.org.key({ role: 'readonly' });
    const refused = await postMessage(t, box, message(), readonly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Insufficient permissions: requires mailboxes:write' });
    // The originals are read with tickets:read and comments:read; another organization's are 404.
    const created = await takeIn(t, box, message());
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${created.ticket_id}/raw`, key: readonly })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${created.ticket_id}/raw`, key: other.adminKey })).statusCode).toBe(404);
  });
});
