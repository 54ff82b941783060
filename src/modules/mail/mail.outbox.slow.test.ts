import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpReceiver, waitFor } from '../../../test/helpers/smtp.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { startMailOutbox, type MailOutboxWorker } from './mail.outbox.worker.js';

/**
 * The outbox keeps its sends in flight continuously: a mail server that takes seconds to accept one
 * message holds that send only, and mail queued after it leaves while it is still being sent.
 */

type Delivery = { status: string; attempts: number };

const SLOW_MS = 6_000;
let t: TestApp;
let smtp: SmtpReceiver;
let worker: MailOutboxWorker;
beforeAll(async () => {
  smtp = new SmtpReceiver();
  t = await buildTestApp({ SMTP_URL: await smtp.listen(), MAIL_OUTBOX_POLL_INTERVAL_MS: '20', MAIL_SEND_TIMEOUT_MS: '30000' });
  worker = startMailOutbox({ store: t.store, blobs: t.blobs, config: t.config, log: t.app.log });
  await t.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'support@acme.example', name: 'Acme Support' } });
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await smtp.close();
});

/** A ticket of `email` with a public comment, mailed to them; the comment's address. */
async function mailTo(email: string): Promise<string> {
  const ticket = (await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'C', customer_email: email, subject: 'Mail', description: 'D' } })).json<{ id: string }>();
  const res = await t.request({ method: 'POST', url: `/v1/tickets/${ticket.id}/comments`, body: { body: `To ${email}` } });
  expect(res.statusCode, res.body).toBe(201);
  return `/v1/tickets/${ticket.id}/comments/${res.json<{ id: string }>().id}`;
}
const deliveryOf = async (comment: string) => (await t.request({ method: 'GET', url: comment })).json<{ delivery: Delivery }>().delivery;
const receivedBy = (email: string) => smtp.received.filter((r) => r.envelopeTo.includes(email)).length;

describe('a slow mail server', () => {
  it('holds its own send only: mail queued after it is sent while it is still in flight, each once', async () => {
    smtp.slow.set('slow@customer.example', SLOW_MS);
    const slow = await mailTo('slow@customer.example');
    // The slow server has the message and is taking its time to answer.
    await waitFor(() => receivedBy('slow@customer.example') === 1, 'the slow mail to arrive');
    const fast = [];
    for (let i = 0; i < 3; i++) fast.push(await mailTo(`fast${i}@customer.example`));
    const started = Date.now();
    for (const comment of fast) await waitFor(async () => (await deliveryOf(comment)).status === 'sent', 'a fast mail sent', SLOW_MS - 1_500);
    expect(Date.now() - started).toBeLessThan(SLOW_MS);
    // The slow one is still being sent (its comment shows the attempt once it ends).
    expect(await deliveryOf(slow)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await waitFor(async () => ((await deliveryOf(slow)).status === 'sent' ? deliveryOf(slow) : null), 'the slow mail sent', SLOW_MS * 2)).toMatchObject({ status: 'sent', attempts: 1 });
    for (let i = 0; i < 3; i++) expect(receivedBy(`fast${i}@customer.example`)).toBe(1);
    expect(receivedBy('slow@customer.example')).toBe(1);
  }, 30_000);
});
