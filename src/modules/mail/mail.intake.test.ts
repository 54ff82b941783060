import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { message, takeIn, type Intake } from '../../../test/helpers/mail.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { createMessageIds } from './mail.message-ids.js';

type Json = Record<string, unknown>;
type Ticket = Json & { id: string; status: string; ticket_number: number; customer_id: string; description: string; subject: string };
type Comment = Json & { id: string; body: string };

let t: TestApp;
let box: string;
beforeAll(async () => {
  t = await buildTestApp();
  box = await mailbox(t.org.adminKey, 'support@acme.example');
});
afterAll(async () => {
  await t.close();
});

async function mailbox(key: string, address: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/v1/mailboxes', key, body: { address, name: 'Acme Support' } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

const ticket = async (id: string, key?: string): Promise<Ticket> => (await t.request({ method: 'GET', url: `/v1/tickets/${id}`, key })).json();
const comments = async (id: string): Promise<Comment[]> => (await t.request({ method: 'GET', url: `/v1/tickets/${id}/comments` })).json();
const patchTicket = (id: string, body: Json) => t.request({ method: 'PATCH', url: `/v1/tickets/${id}`, body });

/** A new ticket by mail; its intake answer and the ticket. */
async function opened(options: Parameters<typeof message>[0] = {}): Promise<{ intake: Intake; ticket: Ticket; raw: string }> {
  const raw = message(options);
  const intake = await takeIn(t, box, raw);
  expect(intake.outcome).toBe('created');
  return { intake, ticket: await ticket(intake.ticket_id!), raw };
}

const idOf = (raw: string): string => /Message-ID: <([^>]+)>/.exec(raw)![1]!;

describe('a message that opens a ticket', () => {
  it('becomes a ticket of channel email with its email block; the customer is found or made from From; the original is downloadable', async () => {
    const { intake, ticket: created, raw } = await opened({
      from: '"Grace Hopper" <Grace@Navy.Example>',
      cc: 'Boss <boss@navy.example>',
      subject: 'Compiler   broken',
      body: 'The compiler\nis broken.\n\n-- \nGrace',
    });
    expect(intake).toEqual({ outcome: 'created', ticket_id: created.id, comment_id: null, reason: null });
    expect(created).toMatchObject({
      subject: 'Compiler broken',
      description: 'The compiler\nis broken.\n\n-- \nGrace',
      status: 'new',
      channel: 'email',
      email: { message_id: idOf(raw).toLowerCase(), from: 'grace@navy.example', to: ['support@acme.example'], cc: ['boss@navy.example'], automated: false },
    });
    const customer = (await t.request({ method: 'GET', url: `/v1/customers/${created.customer_id}` })).json<Json>();
    expect(customer).toMatchObject({ name: 'Grace Hopper', email: 'grace@navy.example' });
    const original = await t.request({ method: 'GET', url: `/v1/tickets/${created.id}/raw` });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('message/rfc822');
    expect(original.body).toBe(raw);
    // The ticket.created event carries the same ticket.
    const history = (await t.request({ method: 'GET', url: `/v1/tickets/${created.id}/events` })).json<Array<{ type: string; object: Json }>>();
    expect(history.find((e) => e.type === 'ticket.created')?.object).toMatchObject({ channel: 'email', email: created.email });
  });

  it('a second message from the same address is the same customer; a long subject is cut with …; no subject or text get a stand-in', async () => {
    const first = await opened({ from: 'repeat@customer.example' });
    const long = await opened({ from: 'Repeat <REPEAT@customer.example>', subject: 'x'.repeat(600), body: '' });
    expect(long.ticket.customer_id).toBe(first.ticket.customer_id);
    expect(long.ticket.subject).toHaveLength(500);
    expect(long.ticket.subject.endsWith('x…')).toBe(true);
    expect(long.ticket.description).toBe('(no text)');
    const none = await opened({ subject: '' });
    expect(none.ticket.subject).toBe('(no subject)');
  });

  it('tickets and comments made otherwise say so: api, portal', async () => {
    const api = (await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'A', customer_email: 'a@x.example', subject: 'S', description: 'D' } })).json<Ticket>();
    expect(api).toMatchObject({ channel: 'api', email: null });
    const note = await t.request({ method: 'POST', url: `/v1/tickets/${api.id}/comments`, body: { body: 'hi' } });
    expect(note.json()).toMatchObject({ channel: 'api', email: null });
    const token = api.tracking_token as string;
    const reply = await t.app.inject({ method: 'POST', url: `/v1/portal/tickets/${token}/comments`, headers: { 'content-type': 'application/json' }, payload: { body: 'From the portal' } });
    expect(reply.statusCode, reply.body).toBe(201);
    const listed = await comments(api.id);
    expect(listed.map((c) => c.channel)).toEqual(['api', 'portal']);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${api.id}/raw` })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${api.id}/comments/${listed[0]!.id}/raw` })).statusCode).toBe(404);
  });
});

describe('threading', () => {
  it('a reply naming a received Message-ID is appended as the customer\'s comment, the quoted conversation cut; its original is downloadable', async () => {
    const { ticket: first, raw } = await opened({ from: 'Ada <ada@customer.example>' });
    const reply = message({
      from: 'Ada <ada@customer.example>',
      subject: 'Re: Printer on fire',
      inReplyTo: `<${idOf(raw)}>`,
      body: 'Now it is out.\n\nOn Fri, Nov 27, 2026 at 3:00 AM Support <support@acme.example> wrote:\n> Is it still burning?\n> Please check.\n',
    });
    const intake = await takeIn(t, box, reply);
    expect(intake).toMatchObject({ outcome: 'appended', ticket_id: first.id });
    const [comment] = await comments(first.id);
    expect(comment).toMatchObject({
      id: intake.comment_id,
      body: 'Now it is out.',
      is_internal: false,
      author_customer_id: first.customer_id,
      author_user_id: null,
      channel: 'email',
      email: { from: 'ada@customer.example', automated: false },
    });
    const original = await t.request({ method: 'GET', url: `/v1/tickets/${first.id}/comments/${comment!.id}/raw` });
    expect(original.body).toBe(reply);
    // References (newest last) work too, as does a reply to the reply.
    const again = await takeIn(t, box, message({ from: 'ada@customer.example', references: `<unknown@else.example> <${idOf(reply)}>` }));
    expect(again).toMatchObject({ outcome: 'appended', ticket_id: first.id });
  });

  it('keeps inline answers between quoted lines', async () => {
    const { ticket: first, raw } = await opened();
    await takeIn(t, box, message({ inReplyTo: `<${idOf(raw)}>`, body: '> Which model?\n\nThe LX-200.\n\n> Since when?\n\nSince Tuesday.\n' }));
    const [comment] = await comments(first.id);
    expect(comment!.body).toContain('The LX-200.');
    expect(comment!.body).toContain('Since Tuesday.');
  });

  it('a reply naming a Message-ID of ours is appended, verified by its signature; a tampered one is not', async () => {
    const { ticket: first } = await opened();
    const ids = createMessageIds(t.config);
    const ours = ids.create(first.id);
    const appended = await takeIn(t, box, message({ inReplyTo: `<${ours}>` }));
    expect(appended).toMatchObject({ outcome: 'appended', ticket_id: first.id });
    const other = await opened();
    // The ticket part swapped for another ticket's: the signature no longer matches.
    const forged = ids.create(other.ticket.id).replace(/^tkt\.[^.]+/, ours.split('.').slice(0, 2).join('.'));
    const refused = await takeIn(t, box, message({ inReplyTo: `<${forged}>` }));
    expect(refused.outcome).toBe('created');
    expect(refused.ticket_id).not.toBe(first.id);
  });

  it('a [TKT-n] subject token threads only from the customer, a cc of the first message, or an agent; never the subject alone', async () => {
    const { ticket: first } = await opened({ from: 'owner@customer.example', cc: 'colleague@customer.example', subject: 'VPN down' });
    const token = `[TKT-${first.ticket_number}]`;
    expect(await takeIn(t, box, message({ from: 'owner@customer.example', subject: `Re: ${token} VPN down` }))).toMatchObject({ outcome: 'appended', ticket_id: first.id });
    expect(await takeIn(t, box, message({ from: 'colleague@customer.example', subject: `Re: ${token}` }))).toMatchObject({ outcome: 'appended', ticket_id: first.id });
    const stranger = await takeIn(t, box, message({ from: 'stranger@elsewhere.example', subject: `Re: ${token} VPN down` }));
    expect(stranger.outcome).toBe('created');
    expect(stranger.ticket_id).not.toBe(first.id);
    const sameSubject = await takeIn(t, box, message({ from: 'owner@customer.example', subject: 'VPN down' }));
    expect(sameSubject.outcome).toBe('created');
    // An agent's address: a public agent comment.
    const user = (await t.request({ method: 'POST', url: '/v1/users', body: { email: 'Agent@Acme.Example', full_name: 'Agent' } })).json<{ id: string }>();
    const agent = await takeIn(t, box, message({ from: 'agent@acme.example', subject: `${token} update` }));
    expect(agent).toMatchObject({ outcome: 'appended', ticket_id: first.id });
    const byAgent = (await comments(first.id)).find((c) => c.id === agent.comment_id);
    expect(byAgent).toMatchObject({ author_user_id: user.id, author_customer_id: null, is_internal: false });
    // Another organization's ticket number is not this organization's.
    const other = await t.newOrg('Token elsewhere');
    const otherBox = await mailbox(other.adminKey, 'help@other.example');
    const elsewhere = await takeIn(t, otherBox, message({ from: 'owner@customer.example', subject: `Re: ${token}` }), other.adminKey);
    expect(elsewhere.outcome).toBe('created');
  });

  it('a reply to a pending or resolved ticket reopens it; an automated one does not; a reply to a closed ticket opens a new one naming it', async () => {
    const { ticket: first, raw } = await opened();
    expect((await patchTicket(first.id, { status: 'resolved' })).statusCode).toBe(200);
    const auto = await takeIn(t, box, message({ inReplyTo: `<${idOf(raw)}>`, headers: { 'Auto-Submitted': 'auto-replied' }, body: 'I am on holiday.' }));
    expect(auto.outcome).toBe('appended');
    expect((await ticket(first.id)).status).toBe('resolved');
    expect((await comments(first.id)).at(-1)).toMatchObject({ email: { automated: true } });
    await takeIn(t, box, message({ inReplyTo: `<${idOf(raw)}>`, body: 'Still broken.' }));
    expect(await ticket(first.id)).toMatchObject({ status: 'open', resolved_at: null });
    const events = (await t.request({ method: 'GET', url: `/v1/tickets/${first.id}/events` })).json<Array<{ type: string; changes: Json | null }>>();
    expect(events.at(-1)).toMatchObject({ type: 'ticket.updated', changes: { status: { old: 'resolved', new: 'open' } } });
    await patchTicket(first.id, { status: 'pending' });
    await takeIn(t, box, message({ inReplyTo: `<${idOf(raw)}>` }));
    expect((await ticket(first.id)).status).toBe('open');

    await patchTicket(first.id, { status: 'closed' });
    const late = await takeIn(t, box, message({ inReplyTo: `<${idOf(raw)}>`, body: 'One more thing.' }));
    expect(late.outcome).toBe('created');
    const followUp = await ticket(late.ticket_id!);
    expect(followUp.description).toBe(`This message replies to TKT-${first.ticket_number}, which is closed.\n\nOne more thing.`);
    expect(followUp.customer_id).toBe(first.customer_id);
  });
});

describe('duplicates', () => {
  it('a message is taken once per organization: by Message-ID, or by its bytes without one; across mailboxes', async () => {
    const raw = message();
    const first = await takeIn(t, box, raw);
    expect(await takeIn(t, box, raw)).toEqual({ outcome: 'duplicate', ticket_id: first.ticket_id, comment_id: null, reason: null });
    const second = await mailbox(t.org.adminKey, 'sales@acme.example');
    expect(await takeIn(t, second, raw)).toMatchObject({ outcome: 'duplicate', ticket_id: first.ticket_id });
    const bare = message({ messageId: null });
    const once = await takeIn(t, box, bare);
    expect(once.outcome).toBe('created');
    expect(await takeIn(t, box, bare)).toMatchObject({ outcome: 'duplicate', ticket_id: once.ticket_id });
    // Another organization takes it in for itself.
    const other = await t.newOrg('Duplicates elsewhere');
    expect((await takeIn(t, await mailbox(other.adminKey, 'support@acme.example'), raw, other.adminKey)).outcome).toBe('created');
  });

  it('concurrent intakes of one message make one ticket (and of one reply, one comment)', async () => {
    const raw = message();
    const results = await Promise.all(Array.from({ length: 6 }, () => takeIn(t, box, raw)));
    expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'duplicate')).toHaveLength(5);
    const id = results.find((r) => r.outcome === 'created')!.ticket_id!;
    const reply = message({ inReplyTo: `<${idOf(raw)}>` });
    const replies = await Promise.all(Array.from({ length: 6 }, () => takeIn(t, box, reply)));
    expect(replies.filter((r) => r.outcome === 'appended')).toHaveLength(1);
    expect(await comments(id)).toHaveLength(1);
  });
});
