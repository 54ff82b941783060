import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpReceiver, waitFor } from '../../../test/helpers/smtp.js';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { createMessageIds } from '../mail/mail.message-ids.js';
import { startMailOutbox, type MailOutboxWorker } from '../mail/mail.outbox.worker.js';
import { startTriggerWorker, type TriggerWorker } from './triggers.worker.js';

/** Triggers at work: after the commit, once per (event, trigger), never on their own changes. */

type Ticket = Record<string, unknown> & { id: string; ticket_number: number; tags: string[]; priority: string; status: string };
type Event = { id: string; type: string; actor: { type: string; trigger_id?: string } };

let t: TestApp;
let worker: TriggerWorker;
let smtp: SmtpReceiver;
let outbox: MailOutboxWorker;
beforeAll(async () => {
  smtp = new SmtpReceiver();
  t = await buildTestApp({ SMTP_URL: await smtp.listen(), MAIL_OUTBOX_POLL_INTERVAL_MS: '20' });
  worker = startTriggerWorker({ store: t.store, mailer: { messageIds: createMessageIds(t.config), publicUrl: t.config.publicUrl }, log: t.app.log });
  outbox = startMailOutbox({ store: t.store, blobs: t.blobs, config: t.config, log: t.app.log });
});
afterAll(async () => {
  await worker.stop();
  await outbox.stop();
  await t.close();
  await smtp.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
async function ok<T>(org: TestOrg, method: Method, url: string, body?: unknown): Promise<T> {
  const res = await t.request({ method, url, body, key: org.adminKey });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? undefined : res.json()) as T;
}
let n = 0;
const newTicket = (org: TestOrg, extra: Record<string, unknown> = {}) =>
  ok<Ticket>(org, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${n++}@customer.example`, subject: 'Printer', description: 'D', ...extra });
const ticket = (org: TestOrg, id: string) => ok<Ticket>(org, 'GET', `/v1/tickets/${id}`);
const eventsOf = (org: TestOrg, id: string) => ok<Event[]>(org, 'GET', `/v1/tickets/${id}/events`);
const byTriggers = async (org: TestOrg, id: string) => (await eventsOf(org, id)).filter((e) => e.actor.type === 'trigger');
const runsOf = async (triggerId: string) => (await t.store.db.selectFrom('trigger_runs').select(['event_id', 'outcome']).where('trigger_id', '=', triggerId).execute());

describe('triggers', () => {
  it('run once on a matching event, after it commits; not on a non-matching one; never twice', async () => {
    const org = await t.newOrg();
    const team = await ok<{ id: string }>(org, 'POST', '/v1/teams', { name: 'Escalations' });
    const rule = await ok<{ id: string }>(org, 'POST', '/v1/triggers', {
      name: 'Urgent to escalations',
      on: ['ticket.created'],
      conditions: { all: [{ field: 'priority', operator: 'is', value: 'urgent' }] },
      actions: [{ field: 'assigned_team_id', value: team.id }, { field: 'add_tags', value: ['escalated'] }],
    });
    const hot = await newTicket(org, { priority: 'urgent' });
    const cold = await newTicket(org, { priority: 'low' });
    // The create's answer is the ticket as committed: the trigger runs after, beside the request.
    expect(hot.tags).toEqual([]);
    await worker.runOnce();
    expect(await ticket(org, hot.id)).toMatchObject({ assigned_team_id: team.id, tags: ['escalated'] });
    expect(await ticket(org, cold.id)).toMatchObject({ assigned_team_id: null, tags: [] });
    const made = await byTriggers(org, hot.id);
    expect(made.map((e) => [e.type, e.actor])).toEqual([['ticket.updated', { type: 'trigger', api_key_id: null, user_id: null, customer_id: null, trigger_id: rule.id }]]);
    // Followed again from scratch (as after a crash before the cursor moved): the runs' rows hold.
    await t.store.db.updateTable('trigger_cursors').set({ position: 0 }).where('organization_id', '=', org.id).execute();
    await worker.runOnce();
    expect(await byTriggers(org, hot.id)).toHaveLength(1);
    expect(await runsOf(rule.id)).toHaveLength(1);
  });

  it("fire no trigger on their own changes, nor another trigger's (no chains, no loops)", async () => {
    const org = await t.newOrg();
    const first = await ok<{ id: string }>(org, 'POST', '/v1/triggers', {
      name: 'Opened: tag',
      on: ['ticket.updated'],
      conditions: { all: [{ field: 'status', operator: 'is', value: 'open' }] },
      actions: [{ field: 'add_tags', value: ['seen'] }, { field: 'priority', value: 'high' }],
    });
    const second = await ok<{ id: string }>(org, 'POST', '/v1/triggers', {
      name: 'Tagged: urgent',
      on: ['ticket.updated'],
      conditions: { all: [{ field: 'tags', operator: 'includes_any', value: ['seen'] }] },
      actions: [{ field: 'priority', value: 'urgent' }],
    });
    const created = await newTicket(org);
    await worker.runOnce();
    await ok(org, 'PATCH', `/v1/tickets/${created.id}`, { status: 'open' });
    await worker.runOnce();
    await worker.runOnce();
    // The first ran on the agent's change; its own ticket.updated ran neither itself nor the second.
    expect(await ticket(org, created.id)).toMatchObject({ status: 'open', tags: ['seen'], priority: 'high' });
    expect(await byTriggers(org, created.id)).toHaveLength(1);
    expect(await runsOf(first.id)).toHaveLength(1);
    expect(await runsOf(second.id)).toHaveLength(0);
    // The next change by an agent is a new event: the first runs again (its actions change nothing now).
    await ok(org, 'PATCH', `/v1/tickets/${created.id}`, { subject: 'Printer (again)' });
    await worker.runOnce();
    expect(await runsOf(first.id)).toHaveLength(2);
    // And the second, whose conditions now hold on an agent's change, runs once too.
    expect(await runsOf(second.id)).toHaveLength(1);
    expect((await ticket(org, created.id)).priority).toBe('urgent');
  });

  it('run on events after they were made, when active, on the event types of `on`', async () => {
    const org = await t.newOrg();
    const before = await newTicket(org);
    const rule = await ok<{ id: string }>(org, 'POST', '/v1/triggers', { name: 'Comments', on: ['comment.created'], conditions: {}, actions: [{ field: 'add_tags', value: ['commented'] }] });
    await ok(org, 'PATCH', `/v1/tickets/${before.id}`, { subject: 'Changed' });
    await worker.runOnce();
    expect((await ticket(org, before.id)).tags).toEqual([]);
    await ok(org, 'PATCH', `/v1/triggers/${rule.id}`, { active: false });
    await ok(org, 'POST', `/v1/tickets/${before.id}/comments`, { body: 'While off', is_internal: true });
    await worker.runOnce();
    expect((await ticket(org, before.id)).tags).toEqual([]);
    await ok(org, 'PATCH', `/v1/triggers/${rule.id}`, { active: true });
    await ok(org, 'POST', `/v1/tickets/${before.id}/comments`, { body: 'While on', is_internal: true });
    await worker.runOnce();
    expect((await ticket(org, before.id)).tags).toEqual(['commented']);
    expect(await runsOf(rule.id)).toHaveLength(1);
  });

  it('several triggers of one batch each take the tickets they match; the events none follows are passed over to the head', async () => {
    const org = await t.newOrg();
    const rule = (name: string, on: string[], priority: string) =>
      ok<{ id: string }>(org, 'POST', '/v1/triggers', { name, on, conditions: { all: [{ field: 'priority', operator: 'is', value: priority }] }, actions: [{ field: 'add_tags', value: [name] }] });
    const urgent = await rule('urgent', ['ticket.created'], 'urgent');
    const low = await rule('low', ['ticket.created'], 'low');
    const updates = await rule('updated', ['ticket.updated'], 'low');
    const [a, b, c] = [await newTicket(org, { priority: 'urgent' }), await newTicket(org, { priority: 'low' }), await newTicket(org, { priority: 'high' })];
    await worker.runOnce();
    expect([(await ticket(org, a.id)).tags, (await ticket(org, b.id)).tags, (await ticket(org, c.id)).tags]).toEqual([['urgent'], ['low'], []]);
    // The update by the trigger sets off no trigger, so `updated` never ran; the cursor is at the head.
    expect([(await runsOf(urgent.id)).length, (await runsOf(low.id)).length, (await runsOf(updates.id)).length]).toEqual([1, 1, 0]);
    const cursor = async () => Number((await t.store.db.selectFrom('trigger_cursors').select('position').where('organization_id', '=', org.id).executeTakeFirstOrThrow()).position);
    const head = async () => Number((await t.store.db.selectFrom('event_counters').select('position').where('organization_id', '=', org.id).executeTakeFirstOrThrow()).position);
    expect(await cursor()).toBe(await head());
    // A stretch of the log longer than the worker looks through at once (positions of events since
    // pruned, say) before an event to follow: walked over, window by window, to that event.
    await t.store.db.updateTable('event_counters').set({ position: (await head()) + 2_500 }).where('organization_id', '=', org.id).execute();
    await ok(org, 'PATCH', `/v1/tickets/${b.id}`, { subject: 'After the gap' });
    await worker.runOnce();
    expect((await runsOf(updates.id)).length).toBe(1);
    expect((await ticket(org, b.id)).tags).toEqual(['low', 'updated']);
    expect(await cursor()).toBe(await head());
  });

  it('notify queues a mail in the outbox, which sends it', async () => {
    const org = await t.newOrg();
    await ok(org, 'POST', '/v1/mailboxes', { address: 'support@acme.example', name: 'Acme Support' });
    await ok(org, 'POST', '/v1/triggers', {
      name: 'Tell the requester',
      on: ['ticket.created'],
      conditions: {},
      actions: [{ field: 'notify', value: { to: 'requester', subject: 'We have your ticket', body: 'Hello from a trigger.' } }],
    });
    const created = await newTicket(org, { customer_email: 'grace@customer.example' });
    await worker.runOnce();
    const rows = await t.store.db.selectFrom('mail_outbox').select(['kind', 'to_address', 'subject']).where('organization_id', '=', org.id).execute();
    expect(rows).toEqual([{ kind: 'notification', to_address: 'grace@customer.example', subject: `[TKT-${created.ticket_number}] We have your ticket` }]);
    const mail = await waitFor(() => smtp.received.find((r) => r.envelopeTo.includes('grace@customer.example')), 'the notification');
    expect(mail.parsed.text?.trim()).toBe('Hello from a trigger.');
    expect(mail.header('auto-submitted')).toBe('auto-generated');
  });

  it('a failing run is recorded as failed and the worker moves on', async () => {
    const org = await t.newOrg();
    const user = await ok<{ id: string }>(org, 'POST', '/v1/users', { email: `gone${n++}@example.com`, full_name: 'Gone' });
    const rule = await ok<{ id: string }>(org, 'POST', '/v1/triggers', { name: 'Assign', on: ['ticket.created'], conditions: {}, actions: [{ field: 'assigned_user_id', value: user.id }] });
    await ok(org, 'DELETE', `/v1/users/${user.id}`);
    const created = await newTicket(org);
    const later = await newTicket(org);
    await worker.runOnce();
    expect((await runsOf(rule.id)).map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(await byTriggers(org, created.id)).toEqual([]);
    expect((await ticket(org, later.id)).assigned_user_id).toBeNull();
  });
});
