import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { createMessageIds } from '../mail/mail.message-ids.js';
import { automationsSweep } from './automations.job.js';
import { startTriggerWorker, type TriggerWorker } from './triggers.worker.js';

/** Automations at work: once per period in which a ticket matches, by the hours_since_* conditions. */

type Ticket = Record<string, unknown> & { id: string; status: string; tags: string[] };
type Comment = { body: string; is_internal: boolean; author_user_id: string | null };
type Event = { type: string; actor: { type: string; automation_id?: string } };

let t: TestApp;
let sweep: (at?: Date) => Promise<number>;
let triggers: TriggerWorker;
beforeAll(async () => {
  t = await buildTestApp({ AUTOMATIONS_INTERVAL_MS: '1000' });
  const mailer = { messageIds: createMessageIds(t.config), publicUrl: t.config.publicUrl };
  sweep = automationsSweep({ store: t.store, mailer, config: t.config, log: t.app.log });
  triggers = startTriggerWorker({ store: t.store, mailer, log: t.app.log });
});
afterAll(async () => {
  await triggers.stop();
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
async function ok<T>(org: TestOrg, method: Method, url: string, body?: unknown): Promise<T> {
  const res = await t.request({ method, url, body, key: org.adminKey });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? undefined : res.json()) as T;
}
let n = 0;
const newTicket = (org: TestOrg, extra: Record<string, unknown> = {}) =>
  ok<Ticket>(org, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${n++}@customer.example`, subject: 'S', description: 'D', ...extra });
const ticket = (org: TestOrg, id: string) => ok<Ticket>(org, 'GET', `/v1/tickets/${id}`);
const notes = async (org: TestOrg, id: string) => (await ok<Comment[]>(org, 'GET', `/v1/tickets/${id}/comments`)).filter((c) => c.is_internal);
/** Sweeps as of `minutes` from now (each sweep's automations are due again an interval later). */
let clock = Date.now();
const sweepAt = (minutes = 1) => sweep(new Date((clock += minutes * 60_000)));

const closeWhenPending = (hours: number) => ({
  name: `Pending for ${hours} hours: close with a note`,
  conditions: { all: [{ field: 'status', operator: 'is', value: 'pending' }, { field: 'hours_since_status_change', operator: 'at_least', value: hours }] },
  actions: [{ field: 'status', value: 'closed' }, { field: 'comment', value: { body: 'Closed: no answer.', is_internal: true } }],
});

describe('automations', () => {
  it('"pending for 0 hours → closed with a note": once, not again on the next sweep, again after the ticket is pending again', async () => {
    const org = await t.newOrg();
    const rule = await ok<{ id: string }>(org, 'POST', '/v1/automations', closeWhenPending(0));
    const waiting = await newTicket(org);
    const open = await newTicket(org);
    await ok(org, 'PATCH', `/v1/tickets/${waiting.id}`, { status: 'pending' });
    await ok(org, 'PATCH', `/v1/tickets/${open.id}`, { status: 'open' });
    expect(await sweepAt()).toBe(1);
    expect(await ticket(org, waiting.id)).toMatchObject({ status: 'closed' });
    expect(await ticket(org, open.id)).toMatchObject({ status: 'open' });
    expect((await notes(org, waiting.id)).map((c) => c.body)).toEqual(['Closed: no answer.']);
    const events = await ok<Event[]>(org, 'GET', `/v1/tickets/${waiting.id}/events`);
    expect(events.filter((e) => e.actor.type === 'automation').map((e) => [e.type, e.actor.automation_id])).toEqual([['ticket.updated', rule.id], ['comment.created', rule.id]]);

    expect(await sweepAt()).toBe(0);
    expect(await notes(org, waiting.id)).toHaveLength(1);

    await ok(org, 'PATCH', `/v1/tickets/${waiting.id}`, { status: 'pending' });
    expect(await sweepAt()).toBe(1);
    expect(await ticket(org, waiting.id)).toMatchObject({ status: 'closed' });
    expect(await notes(org, waiting.id)).toHaveLength(2);
    expect(await sweepAt()).toBe(0);
  });

  it('hours_since_* count from the time of the sweep; a ticket that still matches gets it once per period', async () => {
    const org = await t.newOrg();
    await ok(org, 'POST', '/v1/automations', {
      name: 'Old and untouched: tag',
      conditions: { all: [{ field: 'hours_since_created', operator: 'at_least', value: 1.5 }, { field: 'hours_since_updated', operator: 'at_least', value: 1.5 }] },
      actions: [{ field: 'add_tags', value: ['stale'] }],
    });
    const old = await newTicket(org);
    expect(await sweepAt()).toBe(0);
    expect((await ticket(org, old.id)).tags).toEqual([]);
    // An hour and a half later by the sweep's clock: its tag, once, though it still matches after.
    clock = Date.now() + 91 * 60_000;
    expect(await sweep(new Date(clock))).toBe(1);
    expect((await ticket(org, old.id)).tags).toEqual(['stale']);
    expect(await sweepAt()).toBe(0);
  });

  it("the changes of an automation run no trigger; another organization's tickets are never touched", async () => {
    const org = await t.newOrg();
    const other = await t.newOrg();
    const trigger = await ok<{ id: string }>(org, 'POST', '/v1/triggers', { name: 'Closed: tag', on: ['ticket.updated'], conditions: { all: [{ field: 'status', operator: 'is', value: 'closed' }] }, actions: [{ field: 'add_tags', value: ['by-trigger'] }] });
    await ok(org, 'POST', '/v1/automations', closeWhenPending(0));
    const mine = await newTicket(org);
    const theirs = await newTicket(other);
    await ok(org, 'PATCH', `/v1/tickets/${mine.id}`, { status: 'pending' });
    await ok(other, 'PATCH', `/v1/tickets/${theirs.id}`, { status: 'pending' });
    await triggers.runOnce();
    expect(await sweepAt()).toBe(1);
    await triggers.runOnce();
    expect(await ticket(org, mine.id)).toMatchObject({ status: 'closed', tags: [] });
    expect(await ticket(other, theirs.id)).toMatchObject({ status: 'pending' });
    expect(await t.store.db.selectFrom('trigger_runs').select('event_id').where('trigger_id', '=', trigger.id).execute()).toEqual([]);
  });
});
