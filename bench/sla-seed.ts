import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from '../src/db/store.js';
import type { SlaState } from '../src/modules/sla/sla.clock.js';
import { slaAfterChange, slaOfNewTicket } from '../src/modules/sla/sla.hooks.js';
import type { MatchableTicket } from '../src/modules/sla/sla.match.js';
import type { PolicySet } from '../src/modules/sla/sla.policy-cache.js';

/**
 * The SLA bench's running clocks: `count` open tickets, each given its SLA columns by the code that
 * gives a real ticket its columns (sla.hooks.ts: `slaOfNewTicket` at its creation, then
 * `slaAfterChange` for the agent's first public reply five minutes later), at instants chosen so
 * that the resolution clock's warning and breach both fall in the bench's window. The policy
 * (made through the API by the bench) gives every priority a 60-minute resolution target with a
 * warning 1 minute before, and a 30-minute first response: a ticket is "created" 60 minutes
 * before its breach instant, which is drawn uniformly in [windowStart + 1 min, windowEnd], so its
 * warning falls in [windowStart, windowEnd - 1 min]. The first response was fulfilled by the
 * reply, so its clock fires nothing. The rows go in by plain inserts (500 a statement), numbered
 * after the organization's `firstNumber - 1` tickets.
 */
export const POLICY = {
  name: 'SLA bench: 60 min resolution',
  conditions: { all: [{ field: 'status', operator: 'in', value: ['new', 'open', 'pending'] }] },
  targets: (['low', 'medium', 'high', 'urgent'] as const).map((priority) => ({
    priority,
    first_response_minutes: 30,
    next_response_minutes: null,
    resolution_minutes: 60,
    warning_minutes: 1,
  })),
};
const RESOLUTION_MS = 60 * 60_000;
const REPLY_AFTER_MS = 5 * 60_000;
const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

/** What the bench expects of one clock ticket: its warning and breach instants (ms). */
export interface ExpectedClock {
  warnAt: number;
  dueAt: number;
}

export async function seedClocks(
  store: Store,
  set: PolicySet,
  organizationId: string,
  customerId: string,
  firstNumber: number,
  count: number,
  window: { start: number; end: number },
): Promise<Map<string, ExpectedClock>> {
  const expected = new Map<string, ExpectedClock>();
  const iso = (ms: number) => new Date(ms).toISOString();
  let rows: Array<Record<string, unknown>> = [];
  const flush = async () => {
    if (rows.length === 0) return;
    await store.db.insertInto('tickets').values(rows as never).execute();
    rows = [];
  };
  for (let i = 0; i < count; i++) {
    const dueAt = Math.round(window.start + 60_000 + Math.random() * (window.end - window.start - 60_000));
    const created = dueAt - RESOLUTION_MS;
    const replied = created + REPLY_AFTER_MS;
    const ticket: MatchableTicket = {
      status: 'open',
      priority: PRIORITIES[i % PRIORITIES.length]!,
      channel: 'api',
      assigned_user_id: null,
      assigned_team_id: null,
      category: null,
      tags: [],
      created_at: iso(created),
      updated_at: iso(created),
      due_date: null,
      custom_fields: {},
    };
    const atCreation = slaOfNewTicket(set, ticket);
    const afterReply = slaAfterChange(set, { sla: atCreation.sla, status: 'open' }, { ...ticket, updated_at: iso(replied) }, 'agent_reply', new Date(replied));
    const columns = afterReply.columns ?? atCreation;
    const state = JSON.parse(columns.sla ?? 'null') as SlaState | null;
    const clock = state?.clocks.resolution;
    if (!clock?.due_at || !clock.warn_at || state?.clocks.first_response?.fulfilled_at === null) throw new Error('the bench policy did not give the ticket the clocks expected');
    const id = randomUUID();
    expected.set(id, { warnAt: Date.parse(clock.warn_at), dueAt: Date.parse(clock.due_at) });
    rows.push({
      id,
      organization_id: organizationId,
      ticket_number: firstNumber + i,
      tracking_token: randomUUID(),
      customer_id: customerId,
      subject: 'SLA bench ticket',
      description: 'Seeded for the SLA bench.',
      status: 'open',
      priority: ticket.priority,
      created_at: ticket.created_at,
      updated_at: iso(replied),
      ...columns,
    });
    if (rows.length === 500) await flush();
  }
  await flush();
  await store.db
    .updateTable('organizations')
    .set({ ticket_counter: firstNumber + count - 1 })
    .where('id', '=', organizationId)
    .execute();
  return expected;
}

/**
 * A table and trigger of the bench's own (never the service's schema): the wall-clock instant each
 * `sla.warning` / `sla.breached` row was inserted (ms since the epoch), which the event log does
 * not keep (its `occurred_at` is the SLA instant itself). Inserted in the sweeper's transaction,
 * a few ms at most before its commit.
 */
export async function installWrittenClock(store: Store): Promise<void> {
  const { db } = store;
  if (store.dialect === 'postgres') {
    await sql`create table if not exists bench_sla_written (event_id text primary key, written_ms double precision not null)`.execute(db);
    await sql`create or replace function bench_sla_written() returns trigger language plpgsql as $$
      begin insert into bench_sla_written values (new.id, extract(epoch from clock_timestamp()) * 1000); return new; end $$`.execute(db);
    await sql`drop trigger if exists bench_sla_written on events`.execute(db);
    await sql`create trigger bench_sla_written after insert on events for each row
      when (new.type in ('sla.warning', 'sla.breached')) execute function bench_sla_written()`.execute(db);
  } else {
    await sql`create table if not exists bench_sla_written (event_id text primary key, written_ms real not null)`.execute(db);
    await sql`create trigger if not exists bench_sla_written after insert on events when new.type in ('sla.warning', 'sla.breached')
      begin insert into bench_sla_written values (new.id, (julianday('now') - 2440587.5) * 86400000.0); end`.execute(db);
  }
}

/** Removes a previous run's clock tickets and SLA events, so a kept store can be run again. */
export async function clearClocks(store: Store, organizationId: string, firstNumber: number): Promise<void> {
  await store.db.deleteFrom('events').where('type', 'in', ['sla.warning', 'sla.breached']).execute();
  await sql`delete from bench_sla_written`.execute(store.db);
  await store.db.deleteFrom('tickets').where('organization_id', '=', organizationId).where('ticket_number', '>=', firstNumber).execute();
}
