import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createCommitStats } from '../src/modules/tickets/tickets.create-batch.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/** Ticket numbers stay gapless and unique when many creates arrive at once. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const COUNT = 200;

const body = (i: number) => ({
  customer_name: `Customer ${i % 7}`,
  // A few customers shared by many concurrent creates, in varying case: find-or-create must not race.
  customer_email: i % 2 ? `shared${i % 7}@example.com` : `SHARED${i % 7}@Example.com`,
  subject: `Concurrent ${i}`,
  description: 'Created at the same time as many others',
});

function expectOneToN(numbers: number[], n: number): void {
  expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
}

describe('concurrent creates', () => {
  it(`numbers ${COUNT} tickets created at once 1..${COUNT}, each exactly once (app.inject)`, async () => {
    const org = await t.newOrg('Inject');
    const responses = await Promise.all(
      Array.from({ length: COUNT }, (_, i) => t.request({ method: 'POST', url: '/v1/tickets', body: body(i), key: org.adminKey })),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s !== 201), responses.find((r) => r.statusCode !== 201)?.body).toEqual([]);
    const tickets = responses.map((r) => r.json<{ ticket_number: number; ticket_display_id: string; customer_id: string }>());
    expectOneToN(tickets.map((x) => x.ticket_number), COUNT);
    for (const x of tickets) expect(x.ticket_display_id).toBe(`TKT-${x.ticket_number}`);
    expect(new Set(tickets.map((x) => x.customer_id)).size).toBe(7);

    const listed = await t.request({ method: 'GET', url: '/v1/tickets?limit=500', key: org.adminKey });
    const numbers = listed.json<{ ticket_number: number }[]>().map((x) => x.ticket_number);
    expect(numbers).toEqual(Array.from({ length: COUNT }, (_, i) => COUNT - i));
  });

  it('keeps organizations apart when both create at once', async () => {
    const [a, b] = await Promise.all([t.newOrg('A'), t.newOrg('B')]);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => t.request({ method: 'POST', url: '/v1/tickets', body: body(i), key: i % 2 ? a.adminKey : b.adminKey })),
    );
    expect(responses.every((r) => r.statusCode === 201)).toBe(true);
    const byOrg = (odd: number) => responses.filter((_, i) => i % 2 === odd).map((r) => r.json<{ ticket_number: number }>().ticket_number);
    expectOneToN(byOrg(1), 50);
    expectOneToN(byOrg(0), 50);
  });

  it('a ticket create and a customer create with the same new email at once: one customer, never a 500', async () => {
    const org = await t.newOrg('Race');
    for (let round = 0; round < 40; round++) {
      const email = `racer${round}@example.com`;
      const [customer, ticket] = await Promise.all([
        t.request({ method: 'POST', url: '/v1/customers', key: org.adminKey, body: { name: 'Direct', email } }),
        t.request({ method: 'POST', url: '/v1/tickets', key: org.adminKey, body: { ...body(round), customer_email: email.toUpperCase() } }),
      ]);
      expect(ticket.statusCode, ticket.body).toBe(201);
      // The customer create loses (409) when the ticket's find-or-create got there first.
      expect([201, 409], customer.body).toContain(customer.statusCode);
      if (customer.statusCode === 201) expect(ticket.json<{ customer_id: string }>().customer_id).toBe(customer.json<{ id: string }>().id);
    }
  });

  it(`numbers ${COUNT} tickets created at once over real HTTP connections`, async () => {
    const org = await t.newOrg('Listen');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const responses = await Promise.all(
      Array.from({ length: COUNT }, async (_, i) => {
        const res = await fetch(`${address}/v1/tickets`, {
          method: 'POST',
          headers: { authorization: `Bearer ${org.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body(i)),
        });
        return { status: res.status, json: (await res.json()) as { ticket_number: number } };
      }),
    );
    expect(responses.filter((r) => r.status !== 201)).toEqual([]);
    expectOneToN(responses.map((r) => r.json.ticket_number), COUNT);
  });
});

describe('creates committed together (group commit)', () => {
  /** Makes the store itself refuse tickets whose subject starts with "Refused": a create that fails inside the transaction. */
  async function refuseSomeTickets(): Promise<() => Promise<void>> {
    if (t.store.dialect === 'sqlite') {
      await sql`create trigger test_refuse_ticket before insert on tickets when new.subject like 'Refused%'
        begin select raise(abort, 'refused by the test'); end`.execute(t.store.db);
      return async () => void (await sql`drop trigger test_refuse_ticket`.execute(t.store.db));
    }
    await sql`create function test_refuse_ticket() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$`.execute(t.store.db);
    await sql`create trigger test_refuse_ticket before insert on tickets for each row
      when (new.subject like 'Refused%') execute function test_refuse_ticket()`.execute(t.store.db);
    return async () => {
      await sql`drop trigger test_refuse_ticket on tickets`.execute(t.store.db);
      await sql`drop function test_refuse_ticket()`.execute(t.store.db);
    };
  }

  it('one failing create fails alone: the others of its group commit, numbered 1..n without a gap, each with its events', async () => {
    const org = await t.newOrg('Group');
    const before = { ...(createCommitStats(t.store) ?? { batches: 0, items: 0, largest: 0 }) };
    const restore = await refuseSomeTickets();
    let responses;
    try {
      responses = await Promise.all(
        Array.from({ length: COUNT }, (_, i) =>
          t.request({ method: 'POST', url: '/v1/tickets', key: org.adminKey, body: { ...body(i), subject: i % 9 === 4 ? `Refused ${i}` : `Kept ${i}` } }),
        ),
      );
    } finally {
      await restore();
    }
    const stats = createCommitStats(t.store)!;
    // The creates did share transactions: fewer transactions than creates.
    expect(stats.items - before.items).toBe(COUNT);
    expect(stats.batches - before.batches).toBeLessThan(COUNT / 2);
    const refused = responses.filter((_, i) => i % 9 === 4);
    const kept = responses.filter((_, i) => i % 9 !== 4);
    expect(refused.map((r) => r.statusCode).filter((s) => s < 500)).toEqual([]);
    expect(kept.filter((r) => r.statusCode !== 201).map((r) => r.body)).toEqual([]);
    const tickets = kept.map((r) => r.json<{ id: string; ticket_number: number; subject: string }>());
    expectOneToN(tickets.map((x) => x.ticket_number), kept.length);

    // Stored as answered: no refused ticket, and exactly one ticket.created event per ticket, in a feed without gaps.
    const rows = await t.store.db.selectFrom('tickets').select(['id', 'ticket_number', 'subject']).where('organization_id', '=', org.id).execute();
    expect(rows.map((r) => r.id).sort()).toEqual(tickets.map((x) => x.id).sort());
    const events = await t.store.db.selectFrom('events').select(['type', 'resource_id', 'position']).where('organization_id', '=', org.id).execute();
    const created = events.filter((e) => e.type === 'ticket.created').map((e) => e.resource_id);
    expect(created.sort()).toEqual(tickets.map((x) => x.id).sort());
    expect(events.filter((e) => e.type === 'customer.created')).toHaveLength(7);
    expectOneToN(events.map((e) => Number(e.position)), events.length);
    // A create after the group goes on from the last number.
    const next = await t.request({ method: 'POST', url: '/v1/tickets', key: org.adminKey, body: body(1) });
    expect(next.json<{ ticket_number: number }>().ticket_number).toBe(kept.length + 1);
  });
});

describe('creates of one organization waiting for its counter', () => {
  /** Settles with the value, or with 'still waiting' after `ms`. */
  const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> =>
    Promise.race([promise, new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), ms))]);

  // PostgreSQL only: SQLite has one writer for the whole store, so there every create waits.
  it.skipIf(process.env.TEST_STORE !== 'postgres')('hold up no create of another organization, in their group or the next', async () => {
    const [held, free] = await Promise.all([t.newOrg('Held'), t.newOrg('Free')]);
    // Another transaction holds the held organization's counter: its creates wait for it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.store.db.transaction().execute(async (trx) => {
      await sql`select 1 from organizations where id = ${held.id} for update`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const create = (org: { adminKey: string }, i: number) => t.request({ method: 'POST', url: '/v1/tickets', key: org.adminKey, body: body(i) });
    let waiting: Array<ReturnType<typeof create>> = [];
    try {
      waiting = [create(held, 1)];
      // Until that create's group waits on the lock, then more of both at once (a group of both, or the next groups).
      for (let i = 0; ; i++) {
        const rows = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(t.store.db);
        if (rows.rows[0]!.n > 0) break;
        if (i > 200) throw new Error('the create never waited for the lock');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      waiting.push(create(held, 2));
      const others = await within(Promise.all([create(free, 3), create(free, 4)]), 5_000);
      expect(others).not.toBe('still waiting');
      if (others === 'still waiting') return;
      expect(others.map((r) => r.statusCode)).toEqual([201, 201]);
      expectOneToN(others.map((r) => r.json<{ ticket_number: number }>().ticket_number), 2);
      expect(await within(Promise.all(waiting), 100)).toBe('still waiting');
    } finally {
      release();
      await holder;
    }
    const done = await Promise.all(waiting);
    expect(done.map((r) => r.statusCode)).toEqual([201, 201]);
    expectOneToN(done.map((r) => r.json<{ ticket_number: number }>().ticket_number), 2);
  });
});

describe('a record deleted while a request that names it runs', () => {
  it('creates and assignments naming an agent deleted at the same moment get 201/200 or a clear 4xx, never a 500', async () => {
    const org = await t.newOrg('Deleted agent');
    const ticket = await t.request({ method: 'POST', url: '/v1/tickets', body: body(1), key: org.adminKey });
    expect(ticket.statusCode).toBe(201);
    const ticketId = ticket.json<{ id: string }>().id;
    const statuses = new Set<number>();
    for (let round = 0; round < 12; round++) {
      const user = await t.request({ method: 'POST', url: '/v1/users', body: { email: `gone${round}@example.com`, full_name: 'Gone' }, key: org.adminKey });
      expect(user.statusCode).toBe(201);
      const userId = user.json<{ id: string }>().id;
      const requests = [
        ...Array.from({ length: 6 }, (_, i) =>
          t.request({ method: 'POST', url: '/v1/tickets', body: { ...body(i), assigned_user_id: userId }, key: org.adminKey }),
        ),
        t.request({ method: 'PATCH', url: `/v1/tickets/${ticketId}`, body: { assigned_user_id: userId }, key: org.adminKey }),
      ];
      const removal = t.request({ method: 'DELETE', url: `/v1/users/${userId}`, key: org.adminKey });
      void requests.splice(round % requests.length, 0, removal);
      for (const res of await Promise.all(requests)) {
        statuses.add(res.statusCode);
        expect([200, 201, 204, 409, 422], res.body).toContain(res.statusCode);
        if (res.statusCode === 409) expect(res.json<{ detail: string }>().detail).toMatch(/deleted while it ran/);
      }
    }
    expect(statuses.has(204)).toBe(true);
  });
});
