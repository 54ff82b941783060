import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../../../test/helpers/attachments.js';
import { runMain } from '../../../test/helpers/cli.js';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { EVENT_TYPES } from './events.schemas.js';
import { sweepSlaOnce } from '../sla/sla.sweeper.js';

type Json = Record<string, unknown>;
interface Event {
  id: string;
  cursor: string;
  type: string;
  occurred_at: string;
  actor: { type: string; api_key_id: string | null; user_id: string | null; customer_id: string | null };
  resource_type: string;
  resource_id: string;
  ticket_id: string | null;
  object: Json;
  changes: Record<string, { old: unknown; new: unknown }> | null;
}
interface FeedPage {
  events: Event[];
  next_cursor: string;
  has_more: boolean;
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

async function feed(org: TestOrg, query = ''): Promise<FeedPage> {
  const res = await t.request({ method: 'GET', url: `/v1/events${query}`, key: org.adminKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<FeedPage>();
}

/** Reads the whole feed of the organization from the start, page by page. */
async function allEvents(org: TestOrg): Promise<Event[]> {
  const out: Event[] = [];
  let cursor = '';
  for (;;) {
    const page = await feed(org, `?limit=1000${cursor ? `&after=${cursor}` : ''}`);
    out.push(...page.events);
    cursor = page.next_cursor;
    if (!page.has_more) return out;
  }
}

/**
 * Runs `change` and returns the events it added to the organization's feed, checking that they
 * were added right after the events there before (no gap, nothing reordered).
 */
async function eventsOf(org: TestOrg, change: () => Promise<unknown>): Promise<Event[]> {
  const before = await feed(org, '?limit=1');
  const head = before.has_more ? (await allEvents(org)).at(-1)!.cursor : before.events.at(-1)?.cursor ?? before.next_cursor;
  await change();
  const page = await feed(org, `?after=${head}&limit=1000`);
  page.events.forEach((e, i) => expect(Number(e.cursor)).toBe(Number(head) + i + 1));
  return page.events;
}

const summary = (events: Event[]) => events.map((e) => [e.type, e.resource_id]);

function caller(org: TestOrg) {
  return async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, expected?: number) => {
    const res = await t.request({ method, url, key: org.adminKey, body });
    if (expected !== undefined) expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(expected);
    else expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.statusCode === 204 ? ({} as Json) : res.json<Json>();
  };
}


/** A ticket as its events show it: never with its tracking token (docs/api-behaviour.md#tracking-tokens). */
function withoutToken(ticket: Json | undefined): Json {
  const rest = { ...ticket };
  delete rest.tracking_token;
  return rest;
}
describe('every change appends its events, in the same transaction', () => {
  let org: TestOrg;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    org = await t.newOrg('Events');
    call = caller(org);
  });

  it('tickets: created (with a new customer), updated with old and new values, token rotation, deleted', async () => {
    let ticket: Json = {};
    const created = await eventsOf(org, async () => {
      ticket = await call('POST', '/v1/tickets', { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Printer', description: 'Jammed' });
    });
    expect(summary(created)).toEqual([
      ['customer.created', ticket.customer_id],
      ['ticket.created', ticket.id],
    ]);
    expect(created[1]).toMatchObject({ resource_type: 'ticket', ticket_id: ticket.id, changes: null, occurred_at: ticket.created_at });
    expect(created[1]!.object).toEqual(withoutToken(ticket));
    expect(created[1]!.actor).toEqual({ type: 'api_key', api_key_id: expect.any(String) as string, user_id: null, customer_id: null });
    expect(created[0]!.object).toMatchObject({ id: ticket.customer_id, name: 'Ada', email: 'ada@example.com', is_vip: false });

    // The customer exists now: the next ticket for it adds no customer event.
    const second = await eventsOf(org, () =>
      call('POST', '/v1/tickets', { customer_name: 'Someone else', customer_email: 'ADA@example.com', subject: 'Again', description: 'd' }),
    );
    expect(second.map((e) => e.type)).toEqual(['ticket.created']);

    let updated: Json = {};
    const update = await eventsOf(org, async () => {
      updated = await call('PATCH', `/v1/tickets/${String(ticket.id)}`, { status: 'resolved', priority: 'urgent', category: 'hardware' });
    });
    expect(summary(update)).toEqual([['ticket.updated', ticket.id]]);
    expect(update[0]!.object).toEqual(withoutToken(updated));
    expect(update[0]!.occurred_at).toBe(updated.updated_at);
    expect(update[0]!.changes).toEqual({
      status: { old: 'new', new: 'resolved' },
      priority: { old: 'medium', new: 'urgent' },
      category: { old: null, new: 'hardware' },
      resolved_at: { old: null, new: updated.resolved_at },
    });

    // A PATCH that changes nothing changes nothing: no event.
    expect(await eventsOf(org, () => call('PATCH', `/v1/tickets/${String(ticket.id)}`, { status: 'resolved', priority: 'urgent' }))).toEqual([]);

    let rotated: Json = {};
    const rotation = await eventsOf(org, async () => {
      rotated = await call('POST', `/v1/tickets/${String(ticket.id)}/tracking-token`);
    });
    // The rotation says that the token changed, never what it was or is.
    expect(rotation[0]).toMatchObject({ type: 'ticket.updated', changes: { tracking_token: { changed: true } } });
    expect(rotation[0]!.object).toEqual(withoutToken(rotated));
    expect(JSON.stringify(rotation)).not.toContain(String(updated.tracking_token));
    expect(JSON.stringify(rotation)).not.toContain(String(rotated.tracking_token));
    const stored = await t.store.db.selectFrom('events').select('data').where('organization_id', '=', org.id).execute();
    for (const token of [ticket.tracking_token, updated.tracking_token, rotated.tracking_token]) {
      expect(typeof token).toBe('string');
      expect(JSON.stringify(stored)).not.toContain(String(token));
    }

    const deleted = await eventsOf(org, () => call('DELETE', `/v1/tickets/${String(ticket.id)}`));
    expect(summary(deleted)).toEqual([['ticket.deleted', ticket.id]]);
    expect(deleted[0]!.object).toEqual(withoutToken(rotated));
  });

  it('comments and attachments, which belong to a ticket', async () => {
    const ticket = await call('POST', '/v1/tickets', { customer_name: 'B', customer_email: 'b@example.com', subject: 'S', description: 'D' });
    const id = String(ticket.id);
    let comment: Json = {};
    const created = await eventsOf(org, async () => {
      comment = await call('POST', `/v1/tickets/${id}/comments`, { body: 'First', is_internal: true });
    });
    expect(created).toMatchObject([{ type: 'comment.created', resource_type: 'comment', resource_id: comment.id, ticket_id: id, object: comment }]);
    const updated = await eventsOf(org, () => call('PATCH', `/v1/tickets/${id}/comments/${String(comment.id)}`, { is_internal: false }));
    expect(updated).toMatchObject([{ type: 'comment.updated', changes: { is_internal: { old: true, new: false } } }]);
    expect(await eventsOf(org, () => call('PATCH', `/v1/tickets/${id}/comments/${String(comment.id)}`, { is_internal: false }))).toEqual([]);
    const removed = await eventsOf(org, () => call('DELETE', `/v1/tickets/${id}/comments/${String(comment.id)}`));
    expect(removed).toMatchObject([{ type: 'comment.deleted', resource_id: comment.id, ticket_id: id }]);

    let attachment: Json = {};
    const uploaded = await eventsOf(org, async () => {
      const res = await upload(t, id, 'notes.txt', 'text/plain', 'hello', org.adminKey);
      expect(res.statusCode, res.body).toBe(201);
      attachment = res.json<Json>();
    });
    expect(uploaded).toMatchObject([{ type: 'attachment.created', resource_type: 'attachment', resource_id: attachment.id, ticket_id: id, object: attachment }]);
    const gone = await eventsOf(org, () => call('DELETE', `/v1/tickets/${id}/attachments/${String(attachment.id)}`));
    expect(gone).toMatchObject([{ type: 'attachment.deleted', resource_id: attachment.id, object: attachment }]);

    // Deleting the ticket deletes its comments and attachments too, with the one ticket.deleted.
    await call('POST', `/v1/tickets/${id}/comments`, { body: 'Another' });
    await upload(t, id, 'more.txt', 'text/plain', 'more', org.adminKey);
    expect(summary(await eventsOf(org, () => call('DELETE', `/v1/tickets/${id}`)))).toEqual([['ticket.deleted', id]]);
  });

  it('customers: created, updated, deleted with a ticket.deleted for each of their tickets', async () => {
    let customer: Json = {};
    const created = await eventsOf(org, async () => {
      customer = await call('POST', '/v1/customers', { name: 'Carol', email: 'carol@example.com', account_value: 1500.5 });
    });
    expect(created).toMatchObject([{ type: 'customer.created', object: customer }]);
    const updated = await eventsOf(org, () => call('PATCH', `/v1/customers/${String(customer.id)}`, { account_value: '99', is_vip: true, notes: 'VIP' }));
    expect(updated[0]!.changes).toEqual({
      account_value: { old: '1500.50', new: '99.00' },
      is_vip: { old: false, new: true },
      notes: { old: null, new: 'VIP' },
    });
    const tickets = [];
    for (const subject of ['One', 'Two', 'Three']) {
      tickets.push(await call('POST', '/v1/tickets', { customer_name: 'Carol', customer_email: 'carol@example.com', subject, description: 'd' }));
    }
    const deleted = await eventsOf(org, () => call('DELETE', `/v1/customers/${String(customer.id)}`));
    expect(summary(deleted)).toEqual([...tickets.map((tk) => ['ticket.deleted', tk.id]), ['customer.deleted', customer.id]]);
    expect(deleted[0]!.object).toEqual(withoutToken(tickets[0]));
    expect(deleted[3]!.object).toMatchObject({ id: customer.id, is_vip: true, account_value: '99.00' });
    expect(new Set(deleted.map((e) => e.occurred_at)).size).toBe(1);
  });

  it('teams and members; deleting a team unassigns its tickets with a ticket.updated each', async () => {
    const user = await call('POST', '/v1/users', { email: 'member@example.com', full_name: 'Member' });
    let team: Json = {};
    expect(summary(await eventsOf(org, async () => (team = await call('POST', '/v1/teams', { name: 'Tier 1' }))))).toEqual([['team.created', team.id]]);
    const teamId = String(team.id);
    const renamed = await eventsOf(org, () => call('PATCH', `/v1/teams/${teamId}`, { name: 'Tier 2' }));
    expect(renamed[0]).toMatchObject({ type: 'team.updated', changes: { name: { old: 'Tier 1', new: 'Tier 2' } }, object: { name: 'Tier 2' } });
    expect(renamed[0]!.object).not.toHaveProperty('members');
    const added = await eventsOf(org, () => call('POST', `/v1/teams/${teamId}/members`, { user_id: user.id }, 201));
    expect(added).toMatchObject([{ type: 'team.member_added', resource_type: 'team', resource_id: teamId, object: { team_id: teamId, user_id: user.id } }]);
    // Adding a member again changes nothing (200): no event.
    expect(await eventsOf(org, () => call('POST', `/v1/teams/${teamId}/members`, { user_id: user.id }, 200))).toEqual([]);
    const removed = await eventsOf(org, () => call('DELETE', `/v1/teams/${teamId}/members/${String(user.id)}`));
    expect(removed).toMatchObject([{ type: 'team.member_removed', object: { team_id: teamId, user_id: user.id } }]);

    const assigned = [];
    for (const subject of ['A', 'B']) {
      assigned.push(await call('POST', '/v1/tickets', { customer_name: 'T', customer_email: 't@example.com', subject, description: 'd', assigned_team_id: teamId }));
    }
    await call('POST', `/v1/teams/${teamId}/members`, { user_id: user.id }, 201);
    const deleted = await eventsOf(org, () => call('DELETE', `/v1/teams/${teamId}`));
    // The memberships go with the team: no event of their own.
    expect(summary(deleted)).toEqual([...assigned.map((tk) => ['ticket.updated', tk.id]), ['team.deleted', teamId]]);
    const after = await call('GET', `/v1/tickets/${String(assigned[0]!.id)}`);
    expect(deleted[0]!.object).toEqual(withoutToken(after));
    expect(deleted[0]!.changes).toEqual({ assigned_team_id: { old: teamId, new: null } });
    expect(deleted[0]!.occurred_at).toBe(after.updated_at);
  });

  it('users: created, updated, deleted with their tickets unassigned, memberships removed and keys revoked', async () => {
    let user: Json = {};
    expect((await eventsOf(org, async () => (user = await call('POST', '/v1/users', { email: 'u@example.com', full_name: 'U' }))))[0]).toMatchObject({
      type: 'user.created',
      object: user,
    });
    const userId = String(user.id);
    const updated = await eventsOf(org, () => call('PATCH', `/v1/users/${userId}`, { role: 'admin', is_active: false }));
    expect(updated[0]!.changes).toEqual({ role: { old: 'agent', new: 'admin' }, is_active: { old: true, new: false } });

    const team = await call('POST', '/v1/teams', { name: 'Ops' });
    await call('POST', `/v1/teams/${String(team.id)}/members`, { user_id: userId }, 201);
    const ticket = await call('POST', '/v1/tickets', { customer_name: 'V', customer_email: 'v@example.com', subject: 'S', description: 'd', assigned_user_id: userId });
    const held = await call('POST', '/v1/api-keys', { name: 'agent key', role: 'admin', holder_user_id: userId, scopes: ['tickets:read'] });
    const revokedBefore = await call('POST', '/v1/api-keys', { name: 'old key', role: 'admin', holder_user_id: userId, scopes: ['tickets:read'] });
    await call('DELETE', `/v1/api-keys/${String(revokedBefore.id)}`);

    const deleted = await eventsOf(org, () => call('DELETE', `/v1/users/${userId}`));
    expect(summary(deleted)).toEqual([
      ['ticket.updated', ticket.id],
      ['team.member_removed', team.id],
      ['api_key.revoked', held.id],
      ['user.deleted', userId],
    ]);
    expect(deleted[0]!.changes).toEqual({ assigned_user_id: { old: userId, new: null } });
    expect(deleted[1]!.object).toEqual({ team_id: team.id, user_id: userId });
    const key = await call('GET', `/v1/api-keys/${String(held.id)}`);
    expect(deleted[2]!.object).toEqual(key);
    expect(deleted[2]!.changes).toEqual({ holder_user_id: { old: userId, new: null }, revoked_at: { old: null, new: key.revoked_at } });
    expect(deleted[3]!.object).toMatchObject({ id: userId, role: 'admin', is_active: false });
  });

  it('API keys: created, updated, revoked (never the hash or the plain key)', async () => {
    let key: Json = {};
    const created = await eventsOf(org, async () => (key = await call('POST', '/v1/api-keys', { name: 'ci', role: 'admin', scopes: ['tickets:read'] })));
    expect(created).toMatchObject([{ type: 'api_key.created', resource_type: 'api_key', resource_id: key.id }]);
    const { key: plain, ...record } = key;
    expect(created[0]!.object).toEqual(record);
    expect(JSON.stringify(created)).not.toContain(String(plain));
    const updated = await eventsOf(org, () => call('PATCH', `/v1/api-keys/${String(key.id)}`, { scopes: ['tickets:read', 'tickets:write'] }));
    expect(updated[0]!.changes).toEqual({ scopes: { old: ['tickets:read'], new: ['tickets:read', 'tickets:write'] } });
    expect(await eventsOf(org, () => call('PATCH', `/v1/api-keys/${String(key.id)}`, { name: 'ci' }))).toEqual([]);
    const revoked = await eventsOf(org, () => call('DELETE', `/v1/api-keys/${String(key.id)}`));
    expect(revoked).toMatchObject([{ type: 'api_key.revoked', changes: { revoked_at: { old: null, new: expect.any(String) as string } } }]);
    // Revoking again changes nothing.
    expect(await eventsOf(org, () => call('DELETE', `/v1/api-keys/${String(key.id)}`))).toEqual([]);
  });

  it('the actor is the key and its holder, the customer through the portal, or system for the command line', async () => {
    const holder = await call('POST', '/v1/users', { email: 'holder@example.com', full_name: 'Holder' });
    const keyId = String((await call('POST', '/v1/api-keys', { name: 'held', role: 'admin', holder_user_id: holder.id })).id);
    const heldKey = await org.key({ holderUserId: String(holder.id) });
    let ticket: Json = {};
    const [created] = await eventsOf(org, async () => {
      const res = await t.request({ method: 'POST', url: '/v1/tickets', key: heldKey, body: { customer_name: 'P', customer_email: 'p@example.com', subject: 'S', description: 'd' } });
      ticket = res.json<Json>();
    });
    expect(created!.actor).toEqual({ type: 'api_key', api_key_id: expect.any(String) as string, user_id: holder.id, customer_id: null });
    expect(created!.actor.api_key_id).not.toBe(keyId);

    await call('PATCH', `/v1/tickets/${String(ticket.id)}`, { status: 'pending' });
    const replied = await eventsOf(org, async () => {
      const res = await t.request({ method: 'POST', url: `/v1/portal/tickets/${String(ticket.tracking_token)}/comments`, key: null, body: { body: 'Still broken' } });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(replied.map((e) => e.type)).toEqual(['comment.created', 'ticket.updated']);
    for (const e of replied) expect(e.actor).toEqual({ type: 'customer', api_key_id: null, user_id: null, customer_id: ticket.customer_id });
    expect(replied[0]!.object).toMatchObject({ body: 'Still broken', author_customer_id: ticket.customer_id, author_user_id: null });
    expect(replied[1]!.changes).toEqual({ status: { old: 'pending', new: 'open' } });
    // A reply to an open ticket does not change it.
    const again = await eventsOf(org, () => t.request({ method: 'POST', url: `/v1/portal/tickets/${String(ticket.tracking_token)}/comments`, key: null, body: { body: 'Hello?' } }));
    expect(again.map((e) => e.type)).toEqual(['comment.created']);

    const env = { DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
    let cliKey = '';
    const cli = await eventsOf(org, async () => {
      const run = await runMain(['keys', 'create', '--org', org.id, '--name', 'from the shell'], env);
      expect(run.code, run.stderr).toBe(0);
      cliKey = run.stdout.trim();
      const revoked = await runMain(['keys', 'revoke', cliKey.slice(0, 16), '--org', org.id], env);
      expect(revoked.code, revoked.stderr).toBe(0);
    });
    expect(cli.map((e) => e.type)).toEqual(['api_key.created', 'api_key.revoked']);
    for (const e of cli) expect(e.actor).toEqual({ type: 'system', api_key_id: null, user_id: null, customer_id: null });
    expect(cli[0]!.object).toMatchObject({ name: 'from the shell', revoked_at: null });
  });

  it('a change that fails adds nothing: not found, conflicts, validation', async () => {
    const customer = await call('POST', '/v1/customers', { name: 'Dup', email: 'dup@example.com' });
    const none = await eventsOf(org, async () => {
      await call('POST', '/v1/customers', { name: 'Dup', email: 'DUP@example.com' }, 409);
      await call('PATCH', `/v1/customers/${String(customer.id)}`, { email: 'carol@nowhere.example', name: '' }, 422);
      await call('PATCH', '/v1/tickets/00000000-0000-4000-8000-000000000000', { status: 'open' }, 404);
      await call('DELETE', '/v1/users/00000000-0000-4000-8000-000000000000', undefined, 404);
      await call('POST', '/v1/tickets', { customer_name: 'X', customer_email: 'x@example.com', subject: 'S', description: 'd', assigned_user_id: '00000000-0000-4000-8000-000000000000' }, 422);
      await call('POST', '/v1/users', { email: 'member@example.com', full_name: 'Taken' }, 409);
    });
    expect(none).toEqual([]);
  });

  it('each documented type was emitted by the changes above', async () => {
    // SLA deadlines: a policy's clocks, a response that meets one, the sweeper past the others.
    await call('POST', '/v1/sla-policies', { name: 'All', conditions: {}, targets: [{ priority: 'medium', first_response_minutes: 60, resolution_minutes: 120, warning_minutes: 10 }] });
    const clocked = await call('POST', '/v1/tickets', { customer_name: 'S', customer_email: 'sla@example.com', subject: 'S', description: 'd' });
    await call('POST', `/v1/tickets/${String(clocked.id)}/comments`, { body: 'On it' });
    await sweepSlaOnce(t.store, new Date(Date.now() + 3 * 3_600_000));
    expect(new Set((await allEvents(org)).map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
  });
});

describe('no event outlives a rollback, and no change commits without its events', () => {
  const postgres = () => t.store.dialect === 'postgres';

  it('a change that fails after its cascade events were written leaves neither the change nor any event', async () => {
    const org = await t.newOrg('Rollback');
    const call = caller(org);
    const customer = await call('POST', '/v1/customers', { name: 'Doomed', email: 'doomed@example.com' });
    for (const subject of ['One', 'Two']) await call('POST', '/v1/tickets', { customer_name: 'Doomed', customer_email: 'doomed@example.com', subject, description: 'd' });
    const before = await allEvents(org);
    // The database refuses this customer's deletion, after the ticket.deleted events were inserted.
    if (postgres()) {
      await sql`create function refuse_doomed() returns trigger language plpgsql as $$
        begin if old.name = 'Doomed' then raise exception 'injected failure'; end if; return old; end $$`.execute(t.store.db);
      await sql`create trigger refuse_doomed before delete on customers for each row execute function refuse_doomed()`.execute(t.store.db);
    } else {
      await sql`create trigger refuse_doomed before delete on customers when old.name = 'Doomed'
        begin select raise(abort, 'injected failure'); end`.execute(t.store.db);
    }
    try {
      const res = await t.request({ method: 'DELETE', url: `/v1/customers/${String(customer.id)}`, key: org.adminKey });
      expect(res.statusCode).toBe(500);
    } finally {
      await sql`drop trigger refuse_doomed ${sql.raw(postgres() ? 'on customers' : '')}`.execute(t.store.db);
      if (postgres()) await sql`drop function refuse_doomed()`.execute(t.store.db);
    }
    expect(await allEvents(org)).toEqual(before);
    expect((await call('GET', `/v1/tickets?customer_id=${String(customer.id)}`)) as unknown as Json[]).toHaveLength(2);
    // The positions it would have taken are handed out next: no gap.
    const next = await eventsOf(org, () => call('DELETE', `/v1/customers/${String(customer.id)}`));
    expect(next.map((e) => e.type)).toEqual(['ticket.deleted', 'ticket.deleted', 'customer.deleted']);
    expect(Number(next[0]!.cursor)).toBe(Number(before.at(-1)!.cursor) + 1);
  });

  it('a change whose event cannot be written does not commit', async () => {
    const org = await t.newOrg('Atomic');
    if (postgres()) {
      await sql`create function refuse_team_events() returns trigger language plpgsql as $$
        begin if new.type = 'team.created' then raise exception 'injected failure'; end if; return new; end $$`.execute(t.store.db);
      await sql`create trigger refuse_team_events before insert on events for each row execute function refuse_team_events()`.execute(t.store.db);
    } else {
      await sql`create trigger refuse_team_events before insert on events when new.type = 'team.created'
        begin select raise(abort, 'injected failure'); end`.execute(t.store.db);
    }
    try {
      const res = await t.request({ method: 'POST', url: '/v1/teams', key: org.adminKey, body: { name: 'Never' } });
      expect(res.statusCode).toBe(500);
    } finally {
      await sql`drop trigger refuse_team_events ${sql.raw(postgres() ? 'on events' : '')}`.execute(t.store.db);
      if (postgres()) await sql`drop function refuse_team_events()`.execute(t.store.db);
    }
    expect((await t.request({ method: 'GET', url: '/v1/teams', key: org.adminKey })).json()).toEqual([]);
    expect((await feed(org)).events).toEqual([]);
    expect((await feed(org)).next_cursor).toBe('0');
  });

  it('concurrent writers get every position exactly once, in commit order', async () => {
    const org = await t.newOrg('Concurrent');
    const call = caller(org);
    const tickets = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call('POST', '/v1/tickets', { customer_name: 'C', customer_email: `c${i % 4}@example.com`, subject: `T${i}`, description: 'd' })),
    );
    await Promise.all(tickets.flatMap((tk) => [
      call('PATCH', `/v1/tickets/${String(tk.id)}`, { status: 'open' }),
      call('POST', `/v1/tickets/${String(tk.id)}/comments`, { body: 'hi' }),
    ]));
    const events = await allEvents(org);
    expect(events.map((e) => Number(e.cursor))).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === 'ticket.created')).toHaveLength(30);
    expect(events.filter((e) => e.type === 'customer.created')).toHaveLength(4);
    expect(events).toHaveLength(30 + 4 + 60);
    // A ticket's creation precedes its update in the feed.
    for (const tk of tickets) {
      const created = events.findIndex((e) => e.type === 'ticket.created' && e.resource_id === tk.id);
      const updated = events.findIndex((e) => e.type === 'ticket.updated' && e.resource_id === tk.id);
      expect(created).toBeLessThan(updated);
    }
  });
});
