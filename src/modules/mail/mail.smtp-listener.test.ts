import nodemailer, { type Transporter } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { createMessageIds } from './mail.message-ids.js';
import { startSmtpListener, type SmtpListener } from './mail.smtp-listener.js';

type Json = Record<string, unknown>;

let t: TestApp;
let listener: SmtpListener;
let send: Transporter;
beforeAll(async () => {
  t = await buildTestApp();
  const mailer = { messageIds: createMessageIds(t.config), publicUrl: t.config.publicUrl };
  listener = await startSmtpListener({ store: t.store, blobs: t.blobs, config: t.config, mailer, log: t.app.log }, { host: '127.0.0.1', port: 0 });
  send = nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true });
  for (const [address, inbound] of [['in@acme.example', { type: 'smtp' }], ['api-only@acme.example', { type: 'none' }]] as const) {
    const res = await t.request({ method: 'POST', url: '/v1/mailboxes', body: { address, name: 'Acme', inbound } });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(async () => {
  send.close();
  await listener.stop();
  await t.close();
});

const tickets = async (): Promise<Array<Json & { subject: string; id: string }>> => (await t.request({ method: 'GET', url: '/v1/tickets?limit=100' })).json();

describe('the SMTP listener', () => {
  it('takes mail for a mailbox of inbound type smtp through the intake', async () => {
    const info = await send.sendMail({ from: 'Ada <ada@customer.example>', to: 'In@Acme.Example', subject: 'By SMTP', text: 'Hello by SMTP.', messageId: '<smtp-1@customer.example>' });
    expect(info.accepted).toHaveLength(1);
    const made = (await tickets()).find((x) => x.subject === 'By SMTP');
    expect(made).toMatchObject({ channel: 'email', description: 'Hello by SMTP.', email: { message_id: 'smtp-1@customer.example', from: 'ada@customer.example' } });
    // The same message again is a duplicate: still one ticket.
    await send.sendMail({ from: 'ada@customer.example', to: 'in@acme.example', subject: 'By SMTP', text: 'Hello by SMTP.', messageId: '<smtp-1@customer.example>' });
    expect((await tickets()).filter((x) => x.subject === 'By SMTP')).toHaveLength(1);
  });

  it('refuses other recipients at RCPT: unknown addresses, and mailboxes that do not take mail by SMTP', async () => {
    for (const to of ['nobody@acme.example', 'api-only@acme.example']) {
      const error = await send.sendMail({ from: 'x@customer.example', to, subject: 'Refused', text: 'x' }).then(
        () => null,
        (e: Error & { responseCode?: number }) => e,
      );
      expect(error?.responseCode, to).toBe(550);
      expect(error?.message).toContain('no such mailbox here');
    }
    const mixed = await send.sendMail({ from: 'x@customer.example', to: ['nobody@acme.example', 'in@acme.example'], subject: 'Half', text: 'x' });
    expect(mixed.accepted).toEqual(['in@acme.example']);
    expect(mixed.rejected).toEqual(['nobody@acme.example']);
    expect((await tickets()).filter((x) => x.subject === 'Refused')).toHaveLength(0);
  });

  it('a paused mailbox takes nothing', async () => {
    const box = (await t.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'paused@acme.example', name: 'P', inbound: { type: 'smtp' } } })).json<{ id: string }>();
    await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { state: 'paused' } });
    const error = await send.sendMail({ from: 'x@customer.example', to: 'paused@acme.example', subject: 'Paused', text: 'x' }).then(
      () => null,
      (e: Error & { responseCode?: number }) => e,
    );
    expect(error?.responseCode).toBe(550);
  });
});
