/**
 * Fast path for POST /v1/tickets (wired in tickets.routes.ts): the creates that arrive in one turn
 * of the event loop are committed together, one transaction (SQLite) or one statement
 * (PostgreSQL) for the group, each ticket with its own number, events and answer. Without this
 * file the plain createTicket (tickets.service.ts) answers every create, with the same results.
 * Gain (2026-11-27, 2 cores at load average ~18, `node dist/bench/creates.js`, DATABASE_URL for
 * PostgreSQL): 1,030–1,740 creates/s against 150–250 plain on SQLite, 240–325 against 31–46 on PostgreSQL.
 *
 * A group that fails wrote nothing (numbers, customers and events roll back with it, so no number
 * is lost); its creates are then written again one by one by the plain createTicket, so only a
 * create that fails by itself fails.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { isStoreUnavailable } from '../../db/unavailable.js';
import { nowIso } from '../../shared/time.js';
import { TurnBatch, type Outcome, type TurnBatchStats } from '../../shared/turn-batch.js';
import { findCustomersByNormalizedEmails, insertCustomerUnlessExists, normalizeEmail } from '../customers/customers.repository.js';
import { presentNewCustomer } from '../customers/customers.service.js';
import { announceCommitted, appendEventLogs, eventLogOf, eventRowOf, type Actor, type EventLog } from '../events/events.log.js';
import { takeTicketNumbers } from '../organizations/organizations.repository.js';
import { hasRequiredTicketField } from '../ticket-fields/ticket-fields.repository.js';
import { insertTicketGroup, insertTickets, withGroupPlaceholders, type TicketGroup } from './tickets.create-batch.repository.js';
import type { CreateTicketBody, Ticket } from './tickets.schemas.js';
import { slaPoliciesOf, type PolicySet } from '../sla/sla.policy-cache.js';
import { checkAssignees, createTicket, newCustomerRow, newTicketRow, presentTicket, withSla, type TicketDeps } from './tickets.service.js';

interface CreateRequest {
  organizationId: string;
  body: CreateTicketBody;
  actor: Actor;
}

/** Creates of a store written in one transaction at most. */
const MAX_CREATES_PER_COMMIT = 64;

/**
 * The groups waiting to be written, per store: on SQLite one queue (one writer at a time anyway),
 * on PostgreSQL one per organization, so that an organization whose counter is held (a long
 * transaction, another process's group) holds up no other's creates. A queue goes when it has
 * nothing left to write; the stats are the store's.
 */
const creators = new WeakMap<Kysely<Database>, { stats: TurnBatchStats; queues: Map<string, TurnBatch<CreateRequest, Ticket>> }>();

/** createTicket (tickets.service.ts), committed with the other creates of its turn. */
export async function createTicketInGroup(deps: TicketDeps, organizationId: string, body: CreateTicketBody, actor: Actor): Promise<Ticket> {
  // A create with tags or custom fields takes the plain path: the group writers write tickets without any.
  if ((body.tags !== undefined && body.tags.length > 0) || body.custom_fields !== undefined) return createTicket(deps, organizationId, body, actor);
  await checkAssignees(deps.store.db, organizationId, body);
  return queueOf(deps, organizationId).submit({ organizationId, body, actor });
}

function queueOf(deps: TicketDeps, organizationId: string): TurnBatch<CreateRequest, Ticket> {
  let store = creators.get(deps.store.db);
  if (!store) creators.set(deps.store.db, (store = { stats: { groups: 0, items: 0, largest: 0, alone: 0 }, queues: new Map() }));
  const { stats, queues } = store;
  const key = deps.store.dialect === 'sqlite' ? '' : organizationId;
  let queue = queues.get(key);
  if (!queue) {
    const created: TurnBatch<CreateRequest, Ticket> = new TurnBatch({
      serial: true,
      groupOfOne: true,
      maxGroup: MAX_CREATES_PER_COMMIT,
      stats,
      group: (requests) => writeGroup(deps, requests),
      alone: (request) => createTicket(deps, request.organizationId, request.body, request.actor),
      onIdle: () => {
        if (queues.get(key) === created) queues.delete(key);
      },
    });
    queues.set(key, created);
    queue = created;
  }
  return queue;
}

/** How the creates of this store were grouped so far, or undefined before the first. */
export function createCommitStats(store: TicketDeps['store']): { batches: number; items: number; largest: number } | undefined {
  const stats = creators.get(store.db)?.stats;
  return stats && { batches: stats.groups, items: stats.items, largest: stats.largest };
}

/** Creates of this store written again one by one after their group failed, so far. */
export function createsWrittenAlone(store: TicketDeps['store']): number {
  return creators.get(store.db)?.stats.alone ?? 0;
}

/**
 * Writes a group: SQLite, one transaction (of any organizations); PostgreSQL, one statement (of
 * one organization, its queue's). Throws to have each create written again alone.
 */
async function writeGroup(deps: TicketDeps, requests: CreateRequest[]): Promise<Array<Outcome<Ticket>>> {
  const sqlite = deps.store.dialect === 'sqlite';
  // Where a custom field is required, a create without custom fields is refused: the plain create
  // checks it. One look per group, as the plain create looks once before its transaction.
  if (await hasRequiredTicketField(deps.store.db, [...new Set(requests.map((r) => r.organizationId))])) {
    const outcomes: Array<Outcome<Ticket>> = [];
    for (const r of requests) {
      outcomes.push(await createTicket(deps, r.organizationId, r.body, r.actor).then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error })));
    }
    return outcomes;
  }
  // Each organization's SLA policies (cached): the clocks are set on the rows as they are written.
  const policies = new Map<string, PolicySet>();
  for (const organizationId of new Set(requests.map((r) => r.organizationId))) policies.set(organizationId, await slaPoliciesOf(deps.store.db, organizationId));
  try {
    const tickets = sqlite ? await writeTicketsInOneTransaction(deps.store.db, requests, policies) : await writeTicketGroup(deps.store.db, requests, policies);
    return tickets.map((value) => ({ ok: true, value }));
  } catch (error) {
    // No retry for a store that cannot serve right now, nor for a lone SQLite create (a retry
    // would run the same statements). On PostgreSQL even a lone create is retried: the one
    // statement fails where the several of a plain create still succeed (a customer created
    // meanwhile by another transaction, which a later statement sees).
    if (isStoreUnavailable(error) || (sqlite && requests.length === 1)) return requests.map(() => ({ ok: false, error }));
    throw error;
  }
}

/**
 * SQLite: the group's statements in one transaction, a fixed few whatever its size: per
 * organization one counter update for all its numbers, one lookup of its customers (and an insert
 * per new one), one insert of all the tickets, one append of all the events.
 */
async function writeTicketsInOneTransaction(db: Kysely<Database>, requests: CreateRequest[], policies: Map<string, PolicySet>): Promise<Ticket[]> {
  const { tickets, organizations } = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const logs = requests.map((request) => eventLogOf(trx, request.organizationId, request.actor));
    const counts = new Map<string, number>();
    for (const request of requests) counts.set(request.organizationId, (counts.get(request.organizationId) ?? 0) + 1);
    const next = new Map<string, number>();
    // As in the plain create, the numbers first (the write lock at once); in the order of the
    // organizations' ids, so that two groups lock the counters in the same order.
    for (const organizationId of [...counts.keys()].sort()) {
      const count = counts.get(organizationId)!;
      next.set(organizationId, (await takeTicketNumbers(trx, organizationId, count)) - count + 1);
    }
    const customerIds = await findOrCreateCustomers(trx, requests, logs, now);
    const rows = requests.map((request, i) => {
      const number = next.get(request.organizationId)!;
      next.set(request.organizationId, number + 1);
      return withSla(policies.get(request.organizationId)!, newTicketRow(request.organizationId, number, customerIds[i]!, request.body, now));
    });
    await insertTickets(trx, rows);
    // The rows as written are the tickets: no need to read them back.
    const tickets = rows.map((row, i) => {
      const ticket = presentTicket(row);
      logs[i]!.add({ type: 'ticket.created', resourceType: 'ticket', resourceId: ticket.id, ticketId: ticket.id, object: ticket, occurredAt: now });
      return ticket;
    });
    return { tickets, organizations: await appendEventLogs(trx, logs) };
  });
  for (const organizationId of organizations) announceCommitted(organizationId);
  return tickets;
}

/**
 * Each create's customer, found by email or created as in the plain create. A customer new to
 * several creates of the group is created once, its event the first one's. New customers are
 * inserted in the order of their emails, so two groups never wait for each other crosswise.
 */
async function findOrCreateCustomers(trx: Transaction<Database>, requests: CreateRequest[], logs: EventLog[], now: string): Promise<string[]> {
  const ids: string[] = new Array<string>(requests.length);
  const byOrganization = new Map<string, number[]>();
  requests.forEach((request, i) => byOrganization.set(request.organizationId, [...(byOrganization.get(request.organizationId) ?? []), i]));
  for (const organizationId of [...byOrganization.keys()].sort()) {
    const indexes = byOrganization.get(organizationId)!;
    const emailOf = (i: number) => normalizeEmail(requests[i]!.body.customer_email);
    const emails = [...new Set(indexes.map(emailOf))];
    const found = await findCustomersByNormalizedEmails(trx, organizationId, emails);
    for (const email of emails.filter((e) => !found.has(e)).sort()) {
      const first = indexes.find((i) => emailOf(i) === email)!;
      const customer = newCustomerRow(organizationId, requests[first]!.body, now);
      const id = await insertCustomerUnlessExists(trx, customer);
      if (id === customer.id) {
        logs[first]!.add({ type: 'customer.created', resourceType: 'customer', resourceId: id, object: presentNewCustomer(customer), occurredAt: now });
      }
      found.set(email, id);
    }
    for (const i of indexes) ids[i] = found.get(emailOf(i))!;
  }
  return ids;
}

/**
 * PostgreSQL, per process: the normalized emails of customers that a committed group found or
 * created, by organization. A group sends a new customer's row and `customer.created` event for
 * every email it names, in case the statement has to create it; for these it sends neither, and
 * the statement finds the customer by email as for any other. If one is gone meanwhile (deleted,
 * its email changed), the statement finds no customer for that ticket and fails as a whole (a
 * ticket's customer cannot be null); its creates are then written one by one, which create the
 * customer, and the organization's emails are forgotten. So it only decides what a group sends,
 * never which customer a ticket gets. Bounded: cleared whole past KNOWN_CUSTOMERS_LIMIT emails.
 */
const knownCustomers = new Map<string, Set<string>>();
let knownCustomerCount = 0;
const KNOWN_CUSTOMERS_LIMIT = 100_000;

function rememberCustomers(organizationId: string, emails: Set<string>): void {
  let known = knownCustomers.get(organizationId);
  if (!known) knownCustomers.set(organizationId, (known = new Set()));
  for (const email of emails) {
    if (known.has(email)) continue;
    if (knownCustomerCount >= KNOWN_CUSTOMERS_LIMIT) {
      knownCustomers.clear();
      knownCustomerCount = 0;
      knownCustomers.set(organizationId, (known = new Set()));
    }
    known.add(email);
    knownCustomerCount++;
  }
}

function forgetCustomers(organizationId: string): void {
  knownCustomerCount -= knownCustomers.get(organizationId)?.size ?? 0;
  knownCustomers.delete(organizationId);
}

/**
 * PostgreSQL: the creates of one organization in one statement, a transaction by itself
 * (insertTicketGroup). Each create gets its own number, its own events (`customer.created` for
 * the first create of a new customer, `ticket.created`) with its own actor, and its own answer.
 */
async function writeTicketGroup(db: Kysely<Database>, requests: CreateRequest[], policies: Map<string, PolicySet>): Promise<Ticket[]> {
  const organizationId = requests[0]!.organizationId;
  if (requests.some((request) => request.organizationId !== organizationId)) throw new Error('A group of creates on PostgreSQL is of one organization');
  const now = nowIso();
  const known = knownCustomers.get(organizationId);
  const emails = new Set<string>();
  const customers: TicketGroup['customers'] = [];
  const events: TicketGroup['events'] = [];
  const tickets = requests.map((request, i) => {
    const email = normalizeEmail(request.body.customer_email);
    if (!emails.has(email)) {
      emails.add(email);
      if (!known?.has(email)) {
        const customer = newCustomerRow(organizationId, request.body, now);
        customers.push(customer);
        const event = { type: 'customer.created', resourceType: 'customer', resourceId: customer.id, object: presentNewCustomer(customer), occurredAt: now } as const;
        events.push({ row: eventRowOf(organizationId, request.actor, event), customer: customer.id });
      }
    }
    // Number and customer to come: the event's JSON has stand-ins the statement fills in.
    const row = withSla(policies.get(organizationId)!, newTicketRow(organizationId, 0, '', request.body, now));
    const object = withGroupPlaceholders(presentTicket(row));
    const event = { type: 'ticket.created', resourceType: 'ticket', resourceId: row.id, ticketId: row.id, object, occurredAt: now } as const;
    events.push({ row: eventRowOf(organizationId, request.actor, event), ticket: i });
    return { row, customerEmail: email };
  });
  let written: Awaited<ReturnType<typeof insertTicketGroup>>;
  try {
    written = await insertTicketGroup(db, { organizationId, now, customers, tickets, events });
  } catch (error) {
    // Perhaps a customer taken as known is gone: forget what was known (the creates are written
    // again one by one, which create it).
    forgetCustomers(organizationId);
    throw error;
  }
  rememberCustomers(organizationId, emails);
  announceCommitted(organizationId);
  return tickets.map(({ row }, i) => presentTicket({ ...row, ticket_number: written.first + i, customer_id: written.customerIds[i]! }));
}
