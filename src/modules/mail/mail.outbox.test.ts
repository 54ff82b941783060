import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { message, takeIn } from '../../../test/helpers/mail.js';
import { SmtpReceiver, waitFor, type Received } from '../../../test/helpers/smtp.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { createMessageIds } from './mail.message-ids.js';
import { startMailOutbox, type MailOutboxWorker } from './mail.outbox.worker.js';

type Json = Record<string, unknown>;
type Ticket = Json & { id: string; ticket_number: number; tracking_token: string };

let t: TestApp;
let smtp: SmtpReceiver;
let worker: MailOutboxWorker;
let box: string;
beforeAll(async () => {
  smtp = new SmtpReceiver();
  const url = await smtp.listen();
  t = await buildTestApp({ SMTP_URL: url, MAIL_OUTBOX_POLL_INTERVAL_MS: '20', MAIL_RETRY_SCHEDULE: '50ms,50ms', MAIL_DOMAIN: 'mail.acme.example' });
  worker = startMailOutbox({ store: t.store, blobs: t.blobs, config: t.config, log: t.app.log });
  box = (await t.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'support@acme.example', name: 'Acme Support' } })).json<{ id: string }>().id;
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.received.length = 0;
  smtp.refuse = 0;
});

const idOf = (raw: string): string => /Message-ID: <([^>]+)>/i.exec(raw)![1]!;
const to = (address: string) => (r: Received) => r.envelopeTo.includes(address);
const ticket = async (id: string): Promise<Ticket> => (await t.request({ method: 'GET', url: `/v1/tickets/${id}` })).json();

describe('mail going out', () => {
  it('acknowledges a ticket opened by mail, threaded and marked automated; a reply to it is appended to the same ticket', async () => {
    const first = message({ from: 'Ada <ada@customer.example>', subject: 'Printer on fire' });
    const intake = await takeIn(t, box, first);
    const opened = await ticket(intake.ticket_id!);
    const ack = await waitFor(() => smtp.received.find(to('ada@customer.example')), 'the acknowledgement');
    expect(ack.parsed.subject).toBe(`[TKT-${opened.ticket_number}] Printer on fire`);
    expect(ack.parsed.from).toEqual({ name: 'Acme Support', address: 'support@acme.example' });
    expect(ack.header('auto-submitted')).toBe('auto-replied');
    expect(ack.header('x-auto-response-suppress')).toBe('All');
    expect(ack.header('precedence')).toBe('bulk');
    expect(ack.parsed.inReplyTo).toBe(`<${idOf(first)}>`);
    expect(ack.parsed.references).toContain(`<${idOf(first)}>`);
    expect(ack.parsed.text).toContain(`http://localhost:8080/portal/${opened.tracking_token}`);
    const ours = ack.parsed.messageId!.slice(1, -1);
    expect(ours).toMatch(/^tkt\..+@mail\.acme\.example$/);
    expect(createMessageIds(t.config).ticketOf(ours)).toBe(opened.id);
    // The customer answers the acknowledgement: same ticket.
    const reply = await takeIn(t, box, message({ from: 'ada@customer.example', subject: `Re: ${ack.parsed.subject}`, inReplyTo: `<${ours}>` }));
    expect(reply).toMatchObject({ outcome: 'appended', ticket_id: opened.id });
  });

  it('mails a public agent comment to the customer, with its delivery block; internal notes never', async () => {
    const first = message({ from: 'grace@customer.example' });
    const intake = await takeIn(t, box, first);
    await waitFor(() => smtp.received.find(to('grace@customer.example')), 'the acknowledgement');
    const ackId = smtp.received[0]!.parsed.messageId!;
    smtp.received.length = 0;
    const note = await t.request({ method: 'POST', url: `/v1/tickets/${intake.ticket_id}/comments`, body: { body: 'Internal: check the fuser', is_internal: true } });
    expect(note.json()).toMatchObject({ delivery: null });
    const res = await t.request({ method: 'POST', url: `/v1/tickets/${intake.ticket_id}/comments`, body: { body: 'We sent a technician.' } });
    expect(res.statusCode).toBe(201);
    const comment = res.json<{ id: string; delivery: Json }>();
    expect(comment.delivery).toMatchObject({ status: 'queued', to: 'grace@customer.example', attempts: 0, last_error: null });
    const mail = await waitFor(() => smtp.received.find(to('grace@customer.example')), 'the reply');
    expect(mail.parsed.text?.trim()).toBe('We sent a technician.');
    expect(mail.header('auto-submitted')).toBeUndefined();
    expect(mail.header('precedence')).toBeUndefined();
    expect(mail.parsed.subject).toMatch(/^Re: \[TKT-\d+\] /);
    expect(mail.parsed.messageId).toBe(`<${String(comment.delivery.message_id)}>`);
    expect(mail.parsed.inReplyTo).toBe(ackId);
    expect(mail.parsed.references).toContain(`<${idOf(first)}>`);
    const sent = await waitFor(async () => {
      const got = (await t.request({ method: 'GET', url: `/v1/tickets/${intake.ticket_id}/comments/${comment.id}` })).json<{ delivery: Json }>();
      return got.delivery.status === 'sent' ? got : null;
    }, 'delivery sent');
    expect(sent.delivery).toEqual({ status: 'sent', to: 'grace@customer.example', message_id: comment.delivery.message_id, attempts: 1, last_error: null });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.received.filter((r) => r.parsed.text?.includes('fuser'))).toHaveLength(0);
  });

  it('tickets created through the API are answered through the default mailbox', async () => {
    const created = (await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'Api', customer_email: 'api@customer.example', subject: 'Via API', description: 'D' } })).json<Ticket>();
    await t.request({ method: 'POST', url: `/v1/tickets/${created.id}/comments`, body: { body: 'Answer by mail' } });
    const mail = await waitFor(() => smtp.received.find(to('api@customer.example')), 'the reply');
    expect(mail.parsed.from?.address).toBe('support@acme.example');
    expect(mail.parsed.subject).toBe(`Re: [TKT-${created.ticket_number}] Via API`);
  });

  it('the assigned agent hears when the customer replies (automated, not for automated replies)', async () => {
    const user = (await t.request({ method: 'POST', url: '/v1/users', body: { email: 'agent.smith@acme.example', full_name: 'Smith' } })).json<{ id: string }>();
    const first = message({ from: 'neo@customer.example' });
    const intake = await takeIn(t, box, first);
    await t.request({ method: 'PATCH', url: `/v1/tickets/${intake.ticket_id}`, body: { assigned_user_id: user.id } });
    await takeIn(t, box, message({ from: 'neo@customer.example', inReplyTo: `<${idOf(first)}>`, body: 'There is no spoon.' }));
    const notice = await waitFor(() => smtp.received.find(to('agent.smith@acme.example')), 'the notice');
    expect(notice.header('auto-submitted')).toBe('auto-generated');
    expect(notice.parsed.text).toContain('There is no spoon.');
    smtp.received.length = 0;
    await takeIn(t, box, message({ from: 'neo@customer.example', inReplyTo: `<${idOf(first)}>`, headers: { 'Auto-Submitted': 'auto-replied' } }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(smtp.received.filter(to('agent.smith@acme.example'))).toHaveLength(0);
  });

  it('at most 10 automated mails per recipient per hour; automated mail is never acknowledged', async () => {
    for (let i = 0; i < 12; i++) await takeIn(t, box, message({ from: 'flood@customer.example', subject: `Flood ${i}` }));
    await takeIn(t, box, message({ from: 'robot@customer.example', headers: { Precedence: 'bulk' } }));
    await waitFor(() => smtp.received.filter(to('flood@customer.example')).length >= 10, 'ten acknowledgements');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.received.filter(to('flood@customer.example'))).toHaveLength(10);
    expect(smtp.received.filter(to('robot@customer.example'))).toHaveLength(0);
  });

  it('retries a message the server refuses, then sends it; gives up after the schedule, with the server\'s words', async () => {
    smtp.refuse = 1;
    const created = (await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'R', customer_email: 'retry@customer.example', subject: 'Retry', description: 'D' } })).json<Ticket>();
    const comment = (await t.request({ method: 'POST', url: `/v1/tickets/${created.id}/comments`, body: { body: 'First try fails' } })).json<{ id: string }>();
    await waitFor(() => smtp.received.find(to('retry@customer.example')), 'the retried reply');
    const delivered = await waitFor(async () => {
      const got = (await t.request({ method: 'GET', url: `/v1/tickets/${created.id}/comments/${comment.id}` })).json<{ delivery: Json }>();
      return got.delivery.status === 'sent' ? got.delivery : null;
    }, 'sent after a retry');
    expect(delivered).toMatchObject({ attempts: 2, last_error: null });

    smtp.refuse = 3;
    const failing = (await t.request({ method: 'POST', url: `/v1/tickets/${created.id}/comments`, body: { body: 'Never arrives' } })).json<{ id: string }>();
    const failed = await waitFor(async () => {
      const got = (await t.request({ method: 'GET', url: `/v1/tickets/${created.id}/comments/${failing.id}` })).json<{ delivery: Json }>();
      return got.delivery.status === 'failed' ? got.delivery : null;
    }, 'failed after the schedule');
    expect(failed.attempts).toBe(3);
    expect(String(failed.last_error)).toContain('Try again later');
  });
});

/** A delivery-status report about one of our messages, as a receiving server sends it. */
function bounce(messageId: string, to: string, status: string): string {
  const body = [
    '--r1',
    'Content-Type: text/plain',
    '',
    'Delivery to the following recipient failed.',
    '--r1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.customer.example',
    '',
    `Final-Recipient: rfc822; ${to}`,
    'Action: failed',
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${status.startsWith('5') ? '550 5.1.1 User unknown' : '451 4.2.0 Mailbox busy'}`,
    '--r1',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: <${messageId}>`,
    `To: ${to}`,
    '--r1--',
    '',
  ].join('\r\n');
  return message({
    from: 'Mail Delivery System <MAILER-DAEMON@mx.customer.example>',
    subject: 'Undelivered Mail Returned to Sender',
    headers: { 'Auto-Submitted': 'auto-replied' },
    mime: { contentType: 'multipart/report; report-type=delivery-status; boundary="r1"', body },
  });
}

describe('bounces', () => {
  it("mark the comment's delivery bounced with an internal note; 3 hard bounces in a row make the customer bouncing, mailed no more until the address changes", async () => {
    const created = (await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'Gone', customer_email: 'gone@customer.example', subject: 'Bouncy', description: 'D' } })).json<Ticket & { customer_id: string }>();
    const comment = async (body: string) => (await t.request({ method: 'POST', url: `/v1/tickets/${created.id}/comments`, body: { body } })).json<{ id: string; delivery: Json | null }>();
    const sentIds: string[] = [];
    for (const [i, status] of ['4.2.0', '5.1.1', '5.1.1', '5.1.1'].entries()) {
      const c = await comment(`Attempt ${i}`);
      const messageId = String(c.delivery!.message_id);
      await waitFor(() => smtp.received.find((r) => r.parsed.messageId === `<${messageId}>`), `mail ${i}`);
      sentIds.push(messageId);
      const intake = await takeIn(t, box, bounce(messageId, 'gone@customer.example', status));
      expect(intake).toMatchObject({ outcome: 'appended', ticket_id: created.id });
      const got = await waitFor(async () => {
        const one = (await t.request({ method: 'GET', url: `/v1/tickets/${created.id}/comments/${c.id}` })).json<{ delivery: Json }>();
        return one.delivery.status === 'bounced' ? one.delivery : null;
      }, 'bounced');
      expect(got).toMatchObject({ status: 'bounced', to: 'gone@customer.example', message_id: messageId });
      const notes = (await t.request({ method: 'GET', url: `/v1/tickets/${created.id}/comments?limit=100` })).json<Array<{ id: string; body: string; is_internal: boolean }>>();
      expect(notes.find((n) => n.id === intake.comment_id)).toMatchObject({ is_internal: true });
      expect(notes.find((n) => n.id === intake.comment_id)?.body).toMatch(new RegExp(`^Mail to gone@customer\\.example bounced \\((permanent|temporary) failure\\)`));
      const customer = (await t.request({ method: 'GET', url: `/v1/customers/${created.customer_id}` })).json<Json>();
      expect(customer.email_status, `after bounce ${i}`).toBe(i === 3 ? 'bouncing' : 'ok');
    }
    // Bouncing: a public comment is not mailed.
    smtp.received.length = 0;
    expect((await comment('Not mailed')).delivery).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(smtp.received).toHaveLength(0);
    // A new address starts afresh.
    const changed = await t.request({ method: 'PATCH', url: `/v1/customers/${created.customer_id}`, body: { email: 'back@customer.example' } });
    expect(changed.json()).toMatchObject({ email_status: 'ok' });
    expect((await comment('Mailed again')).delivery).toMatchObject({ status: 'queued', to: 'back@customer.example' });
    // A report that names no message of ours is taken in as any automated mail.
    const stray = await takeIn(t, box, bounce('someone-else@other.example', 'x@y.example', '5.1.1'));
    expect(stray.outcome).toBe('created');
  });
});
