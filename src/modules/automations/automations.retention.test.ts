import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { createMessageIds } from '../mail/mail.message-ids.js';
import { automationsSweep } from './automations.job.js';
import { pruneRuleRuns } from './automations.retention.js';
import { startTriggerWorker } from './triggers.worker.js';

/**
 * Retention of trigger and automation runs (AUTOMATION_RUNS_RETENTION_DAYS): old runs go, a batch
 * at a time, but never one whose absence would run a rule twice: a trigger run of an event the
 * worker may read again, an automation run of a ticket still in the period it ran in.
 */

type Comment = { body: string; is_internal: boolean };

let t: TestApp;
let sweep: (at?: Date) => Promise<number>;
const mailer = () => ({ messageIds: createMessageIds(t.config), publicUrl: t.config.publicUrl });
beforeAll(async () => {
  t = await buildTestApp({ AUTOMATIONS_INTERVAL_MS: '1000' });
  sweep = automationsSweep({ store: t.store, mailer: mailer(), config: t.config, log: t.app.log });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
async function ok<T>(org: TestOrg, method: Method, url: string, body?: unknown): Promise<T> {
  const res = await t.request({ method, url, body, key: org.adminKey });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? undefined : res.json()) as T;
}
let n = 0;
const newTicket = async (org: TestOrg) => (await ok<{ id: string }>(org, 'POST', '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${n++}@customer.example`, subject: 'S', description: 'D' })).id;
const notes = async (org: TestOrg, id: string, body: string) => (await ok<Comment[]>(org, 'GET', `/v1/tickets/${id}/comments?limit=100`)).filter((c) => c.is_internal && c.body === body).length;
/** Follows the logs to their end with a worker of its own, then stops it. */
async function followTriggers(): Promise<void> {
  const worker = startTriggerWorker({ store: t.store, mailer: mailer(), log: t.app.log });
  await worker.runOnce();
  await worker.stop();
}
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
let clock = Date.now();
const sweepNext = () => sweep(new Date((clock += 60_000)));

describe('retention of trigger and automation runs', () => {
  it('prunes old runs a batch at a time, keeping those a rule still needs, so no rule runs twice', async () => {
    // Triggers: a note on each ticket created.
    const withTriggers = await t.newOrg();
    await ok(withTriggers, 'POST', '/v1/triggers', { name: 'Note', on: ['ticket.created'], conditions: {}, actions: [{ field: 'comment', value: { body: 'Seen', is_internal: true } }] });
    const created = [await newTicket(withTriggers), await newTicket(withTriggers), await newTicket(withTriggers)];
    await followTriggers();
    const fresh = await newTicket(withTriggers);
    await followTriggers();
    for (const id of [...created, fresh]) expect(await notes(withTriggers, id, 'Seen')).toBe(1);
    await t.store.db.updateTable('trigger_runs').set({ created_at: daysAgo(40) }).where('organization_id', '=', withTriggers.id).where('ticket_id', 'in', created).execute();
    // As if the process that applied the third ticket's run died before moving the cursor past its event.
    const third = await t.store.db.selectFrom('events').select('position').where('ticket_id', '=', created[2]!).where('type', '=', 'ticket.created').executeTakeFirstOrThrow();
    await t.store.db.updateTable('trigger_cursors').set({ position: Number(third.position) - 1 }).where('organization_id', '=', withTriggers.id).execute();

    // Automations: a note on pending tickets (which leaves them pending: one period).
    const withAutomations = await t.newOrg();
    await ok(withAutomations, 'POST', '/v1/automations', { name: 'Pending: note', conditions: { all: [{ field: 'status', operator: 'is', value: 'pending' }] }, actions: [{ field: 'comment', value: { body: 'Waiting', is_internal: true } }] });
    const [still, reopened, deleted] = [await newTicket(withAutomations), await newTicket(withAutomations), await newTicket(withAutomations)];
    for (const id of [still, reopened, deleted]) await ok(withAutomations, 'PATCH', `/v1/tickets/${id}`, { status: 'pending' });
    expect(await sweepNext()).toBe(3);
    await ok(withAutomations, 'PATCH', `/v1/tickets/${reopened}`, { status: 'open' });
    await ok(withAutomations, 'DELETE', `/v1/tickets/${deleted}`);
    await t.store.db.updateTable('automation_runs').set({ created_at: daysAgo(40) }).where('organization_id', '=', withAutomations.id).execute();

    // One row a statement: two rows of each organization, then a statement that finds fewer.
    expect(await pruneRuleRuns(t.store.db, daysAgo(30), 1)).toEqual({ triggerRuns: 2, automationRuns: 2, batches: 6 });
    const left = async (table: 'trigger_runs' | 'automation_runs', org: TestOrg) =>
      (await t.store.db.selectFrom(table).select('ticket_id').where('organization_id', '=', org.id).execute()).map((r) => r.ticket_id).sort();
    expect(await left('trigger_runs', withTriggers)).toEqual([created[2]!, fresh].sort());
    expect(await left('automation_runs', withAutomations)).toEqual([still]);
    expect(await pruneRuleRuns(t.store.db, daysAgo(30), 1)).toEqual({ triggerRuns: 0, automationRuns: 0, batches: 2 });

    // The worker reads the third ticket's event again: its run, kept, makes it a no-op.
    await followTriggers();
    for (const id of [...created, fresh]) expect(await notes(withTriggers, id, 'Seen')).toBe(1);
    // The ticket still pending is not noted again; the reopened one is, once pending again (a new period).
    expect(await sweepNext()).toBe(0);
    expect(await notes(withAutomations, still, 'Waiting')).toBe(1);
    await ok(withAutomations, 'PATCH', `/v1/tickets/${reopened}`, { status: 'pending' });
    expect(await sweepNext()).toBe(1);
    expect(await notes(withAutomations, reopened, 'Waiting')).toBe(2);
    expect(await notes(withAutomations, still, 'Waiting')).toBe(1);
  });
});
