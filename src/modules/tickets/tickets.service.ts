import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction, Updateable } from 'kysely';
import { UNINDEXED_TERM_WINDOW } from '../../db/search.js';
import { SearchBusyError, SearchTimeoutError } from '../../db/search-runner.js';
import type { Store } from '../../db/store.js';
import type { Channel, Database, TicketsTable } from '../../db/types.js';
import { isStoreUnavailable } from '../../db/unavailable.js';
import { errors } from '../../errors.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import type { Executor } from '../../shared/executor.js';
import { GroupCommit, type GroupCommitStats, type Outcome } from '../../shared/group-commit.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso, toIsoOrNull } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { attachmentIdsOfTickets } from '../attachments/attachments.repository.js';
import { findCustomerByEmail, findCustomersByNormalizedEmails, insertCustomerUnlessExists, normalizeEmail } from '../customers/customers.repository.js';
import { presentNewCustomer } from '../customers/customers.service.js';
import { announceCommitted, appendEventLogs, changesBetween, eventLogOf, eventRowOf, withEvents, type Actor, type EventLog } from '../events/events.log.js';
import { takeNextTicketNumber, takeTicketNumbers } from '../organizations/organizations.repository.js';
import { teamExists } from '../teams/teams.repository.js';
import { userExists } from '../users/users.repository.js';
import type { CreateTicketBody, ListTicketsQuery, Ticket, UpdateTicketBody } from './tickets.schemas.js';
import {
  beyondWindowQuery,
  deleteTicket as deleteTicketRow,
  findTicket,
  findTicketForUpdate,
  insertTicket,
  insertTicketGroup,
  insertTickets,
  listTickets as listTicketRows,
  listTicketsQuery,
  updateTicket as updateTicketRow,
  withGroupPlaceholders,
  type TicketColumns,
  type TicketGroup,
  type TicketFilters,
} from './tickets.repository.js';

export interface TicketDeps {
  store: Store;
  blobs: BlobStore;
}

/** The public shape of a ticket row. */
export function presentTicket(row: TicketColumns): Ticket {
  const number = Number(row.ticket_number);
  return {
    id: row.id,
    ticket_number: number,
    tracking_token: row.tracking_token,
    ticket_display_id: `TKT-${number}`,
    customer_id: row.customer_id,
    subject: row.subject,
    description: row.description,
    status: row.status,
    priority: row.priority,
    category: row.category,
    assigned_user_id: row.assigned_user_id,
    assigned_team_id: row.assigned_team_id,
    due_date: toIsoOrNull(row.due_date),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    resolved_at: toIsoOrNull(row.resolved_at),
    closed_at: toIsoOrNull(row.closed_at),
    channel: row.channel,
    email: row.email === null ? null : (JSON.parse(row.email) as Ticket['email']),
  };
}

/** The ticket, or a 404 that looks the same whether it is missing or another organization's. */
export async function getTicketRow(db: Executor, organizationId: string, id: string): Promise<TicketColumns> {
  const row = await findTicket(db, organizationId, id);
  if (!row) throw errors.notFound('Ticket');
  return row;
}

/** An id in a body must name a record of the caller's organization, else 422 naming the field. */
async function checkAssignees(
  db: Executor,
  organizationId: string,
  body: { assigned_user_id?: string | null | undefined; assigned_team_id?: string | null | undefined },
): Promise<void> {
  if (body.assigned_user_id && !(await userExists(db, organizationId, body.assigned_user_id))) {
    throw errors.invalidField('body.assigned_user_id', 'does not name a user of this organization');
  }
  if (body.assigned_team_id && !(await teamExists(db, organizationId, body.assigned_team_id))) {
    throw errors.invalidField('body.assigned_team_id', 'does not name a team of this organization');
  }
}

/** One create waiting for its group commit. */
interface CreateRequest {
  organizationId: string;
  body: CreateTicketBody;
  actor: Actor;
  origin: TicketOrigin | undefined;
}

/** How a ticket came in, when not through the API: by mail, with its `email` block. */
export interface TicketOrigin {
  channel: Channel;
  email: NonNullable<Ticket['email']> | null;
}

/**
 * Creates waiting to be committed together (per process): on SQLite one queue per store (one
 * writer at a time anyway), on PostgreSQL one per organization, so that an organization whose
 * counter is held (a long transaction, another process's group) holds up no other's creates.
 * A queue goes when it has nothing left to write; the stats are the store's.
 */
const creators = new WeakMap<Kysely<Database>, { stats: GroupCommitStats; alone: { creates: number }; queues: Map<string, GroupCommit<CreateRequest, Ticket>> }>();

/** Creates of this store batch up to this many per transaction. */
const MAX_CREATES_PER_COMMIT = 64;

function creatorOf(deps: TicketDeps, organizationId: string): GroupCommit<CreateRequest, Ticket> {
  let store = creators.get(deps.store.db);
  if (!store) {
    store = { stats: { batches: 0, items: 0, largest: 0 }, alone: { creates: 0 }, queues: new Map() };
    creators.set(deps.store.db, store);
  }
  const { stats, queues } = store;
  const key = deps.store.dialect === 'sqlite' ? '' : organizationId;
  let creator = queues.get(key);
  if (!creator) {
    const queue: GroupCommit<CreateRequest, Ticket> = new GroupCommit((requests) => createTickets(deps, requests), MAX_CREATES_PER_COMMIT, stats, () => {
      if (queues.get(key) === queue) queues.delete(key);
    });
    queues.set(key, queue);
    creator = queue;
  }
  return creator;
}

/** How the creates of this store were grouped so far (batches, items, largest), or undefined before the first. */
export function createCommitStats(store: Store): GroupCommitStats | undefined {
  return creators.get(store.db)?.stats;
}

/** Creates of this store written again one by one after their group failed (orOneByOne), so far. */
export function createsWrittenAlone(store: Store): number {
  return creators.get(store.db)?.alone.creates ?? 0;
}

/**
 * Creates a ticket (and its customer, found by email or created). Creates that arrive while
 * others are being written are committed together (a group commit, docs/architecture.md#creates):
 * one transaction for the group, each ticket with its own number, events and answer.
 */
export async function createTicket(deps: TicketDeps, organizationId: string, body: CreateTicketBody, actor: Actor, origin?: TicketOrigin): Promise<Ticket> {
  await checkAssignees(deps.store.db, organizationId, body);
  return creatorOf(deps, organizationId).submit({ organizationId, body, actor, origin });
}

/**
 * Writes a group of creates. SQLite: one transaction for the group (of any organizations).
 * PostgreSQL: one statement (insertTicketGroup) for the group, which is of one organization (its
 * queue's).
 */
async function createTickets(deps: TicketDeps, requests: CreateRequest[]): Promise<Array<Outcome<Ticket>>> {
  if (deps.store.dialect === 'sqlite') {
    return orOneByOne(deps, requests, false, async () => {
      const { tickets, organizations } = await deps.store.db.transaction().execute((trx) => writeTickets(trx, requests));
      for (const organizationId of organizations) announceCommitted(organizationId);
      return tickets;
    });
  }
  // Even a group of one is written again alone if it fails: the statement fails where the several
  // statements of a single create can still succeed (a customer created meanwhile by another
  // transaction, which a later statement sees).
  return orOneByOne(deps, requests, true, () => writeTicketGroup(deps.store.db, requests));
}

/**
 * The outcome of each create of a group that `write` writes at once. If that fails, nothing of
 * it was written (numbers, customers and events roll back with it, so no number is lost) and each
 * create is written again in a transaction of its own: only the one that fails by itself fails.
 * A store that cannot serve right now fails the group without a retry, and so does a group of one
 * unless `retryOne`.
 */
async function orOneByOne(
  deps: TicketDeps,
  requests: CreateRequest[],
  retryOne: boolean,
  write: () => Promise<Ticket[]>,
): Promise<Array<Outcome<Ticket>>> {
  try {
    return (await write()).map((value) => ({ ok: true, value }));
  } catch (error) {
    if ((requests.length === 1 && !retryOne) || isStoreUnavailable(error)) return requests.map(() => ({ ok: false, error }));
    const alone = creators.get(deps.store.db)?.alone;
    if (alone) alone.creates += requests.length;
    return Promise.all(
      requests.map((request) =>
        createTicketAlone(deps, request).then(
          (value): Outcome<Ticket> => ({ ok: true, value }),
          (error: unknown): Outcome<Ticket> => ({ ok: false, error }),
        ),
      ),
    );
  }
}

/**
 * PostgreSQL, per process: the normalized emails of customers that a committed group of creates
 * found or created, by organization. A group sends a new customer's row and its
 * `customer.created` event (made here, the JSON included) for every email it names, in case the
 * statement has to create it; for these it sends neither, and the statement finds the customer by
 * email as for any other. If one is gone meanwhile (another process deleted it, changed its
 * email), the statement finds no customer for that ticket and fails as a whole (a ticket's
 * customer cannot be null), nothing of it written; its creates are then written one by one
 * (orOneByOne), which create the customer, and the organization's emails are forgotten. So it
 * only decides what a group sends, never which customer a ticket gets. Bounded: cleared whole
 * past KNOWN_CUSTOMERS_LIMIT emails.
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
 * (insertTicketGroup). Each create gets its own ticket number, its own events (`customer.created`
 * for the first create of a new customer, `ticket.created`) with its own actor, and its own answer.
 */
async function writeTicketGroup(db: Kysely<Database>, requests: CreateRequest[]): Promise<Ticket[]> {
  const organizationId = requests[0]!.organizationId;
  if (requests.some((request) => request.organizationId !== organizationId)) throw new Error('A group of creates on PostgreSQL is of one organization');
  const now = nowIso();
  const known = knownCustomers.get(organizationId);
  const emails = new Set<string>();
  const customers: Array<ReturnType<typeof newCustomerRow>> = [];
  const events: TicketGroup['events'] = [];
  const tickets = requests.map((request, i) => {
    const email = normalizeEmail(request.body.customer_email);
    if (!emails.has(email)) {
      emails.add(email);
      // A customer this process saw committed is looked up by email only: no row nor event to
      // make for it in case the statement has to create it.
      if (!known?.has(email)) {
        const customer = newCustomerRow(organizationId, request.body, now);
        customers.push(customer);
        const event = { type: 'customer.created', resourceType: 'customer', resourceId: customer.id, object: presentNewCustomer(customer), occurredAt: now } as const;
        events.push({ row: eventRowOf(organizationId, request.actor, event), customer: customer.id });
      }
    }
    // Number and customer to come: the event's JSON has stand-ins the statement fills in.
    const row = newTicketRow(organizationId, 0, '', request.body, now, request.origin);
    const object = withGroupPlaceholders(presentTicket(row));
    const event = { type: 'ticket.created', resourceType: 'ticket', resourceId: row.id, ticketId: row.id, object, occurredAt: now } as const;
    events.push({ row: eventRowOf(organizationId, request.actor, event), ticket: i });
    return { row, customerEmail: email };
  });
  let written: Awaited<ReturnType<typeof insertTicketGroup>>;
  try {
    written = await insertTicketGroup(db, { organizationId, now, customers, tickets, events });
  } catch (error) {
    // Perhaps a customer it took as known is gone (deleted, its email changed): the creates are
    // written again one by one (orOneByOne), which create it; forget what was known.
    forgetCustomers(organizationId);
    throw error;
  }
  const { first, customerIds } = written;
  rememberCustomers(organizationId, emails);
  announceCommitted(organizationId);
  // The rows as written are the tickets: no need to read them back.
  return tickets.map(({ row }, i) => presentTicket({ ...row, ticket_number: first + i, customer_id: customerIds[i]! }));
}

/**
 * SQLite: the group's statements in one transaction, a fixed few whatever its size: per
 * organization one counter update for all its numbers, one lookup of its customers (and an insert
 * per new one), one insert of all the tickets, one append of all the events.
 */
async function writeTickets(trx: Transaction<Database>, requests: CreateRequest[]): Promise<{ tickets: Ticket[]; organizations: string[] }> {
  const now = nowIso();
  const logs = requests.map((request) => eventLogOf(trx, request.organizationId, request.actor));
  const counts = new Map<string, number>();
  for (const request of requests) counts.set(request.organizationId, (counts.get(request.organizationId) ?? 0) + 1);
  // In the order of the organizations' ids, so that two groups lock the counters in the same order.
  const organizations = [...counts.keys()].sort();
  const next = new Map<string, number>();
  // As for a single create (createTicketAlone): the write first, which takes the write lock at
  // once, then the customers, then the tickets with the numbers taken.
  for (const organizationId of organizations) {
    const count = counts.get(organizationId)!;
    next.set(organizationId, (await takeTicketNumbers(trx, organizationId, count)) - count + 1);
  }
  const customerIds = await findOrCreateCustomers(trx, requests, logs, now);
  const rows = requests.map((request, i) => newTicketRow(request.organizationId, 0, customerIds[i]!, request.body, now, request.origin));
  for (const row of rows) {
    row.ticket_number = next.get(row.organization_id)!;
    next.set(row.organization_id, row.ticket_number + 1);
  }
  await insertTickets(trx, rows);
  // The rows as written are the tickets: no need to read them back.
  const tickets = rows.map((row, i) => {
    const ticket = presentTicket(row);
    logs[i]!.add({ type: 'ticket.created', resourceType: 'ticket', resourceId: ticket.id, ticketId: ticket.id, object: ticket, occurredAt: now });
    return ticket;
  });
  return { tickets, organizations: await appendEventLogs(trx, logs) };
}

/**
 * Each create's customer: found by email (case-insensitively) or created; an existing name is
 * kept. A customer new to several creates of the group is created once, and its event belongs to
 * the first of them. New customers are inserted in the order of their emails, so two groups
 * inserting the same ones never wait for each other crosswise.
 */
async function findOrCreateCustomers(trx: Transaction<Database>, requests: CreateRequest[], logs: EventLog[], now: string): Promise<string[]> {
  const ids: string[] = new Array<string>(requests.length);
  const byOrganization = new Map<string, number[]>();
  requests.forEach((request, i) => byOrganization.set(request.organizationId, [...(byOrganization.get(request.organizationId) ?? []), i]));
  for (const organizationId of [...byOrganization.keys()].sort()) {
    const indexes = byOrganization.get(organizationId)!;
    const emails = [...new Set(indexes.map((i) => normalizeEmail(requests[i]!.body.customer_email)))];
    const found = await findCustomersByNormalizedEmails(trx, organizationId, emails);
    const missing = emails.filter((email) => !found.has(email)).sort();
    for (const email of missing) {
      const first = indexes.find((i) => normalizeEmail(requests[i]!.body.customer_email) === email)!;
      const body = requests[first]!.body;
      const customer = newCustomerRow(organizationId, body, now);
      const id = await insertCustomerUnlessExists(trx, customer);
      // Another transaction may have created the same customer a moment earlier: then it was not this one.
      if (id === customer.id) {
        logs[first]!.add({ type: 'customer.created', resourceType: 'customer', resourceId: id, object: presentNewCustomer(customer), occurredAt: now });
      }
      found.set(email, id);
    }
    for (const i of indexes) ids[i] = found.get(normalizeEmail(requests[i]!.body.customer_email))!;
  }
  return ids;
}

function newCustomerRow(organizationId: string, body: CreateTicketBody, now: string) {
  return {
    id: randomUUID(),
    organization_id: organizationId,
    name: body.customer_name,
    email: body.customer_email,
    email_normalized: normalizeEmail(body.customer_email),
    has_premium_support: 0,
    is_vip: 0,
    created_at: now,
    updated_at: now,
  };
}

function newTicketRow(organizationId: string, ticketNumber: number, customerId: string, body: CreateTicketBody, now: string, origin?: TicketOrigin) {
  return {
    id: randomUUID(),
    organization_id: organizationId,
    ticket_number: ticketNumber,
    tracking_token: randomUUID(),
    customer_id: customerId,
    subject: body.subject,
    description: body.description,
    status: 'new' as const,
    priority: body.priority ?? 'medium',
    category: body.category ?? null,
    assigned_user_id: body.assigned_user_id ?? null,
    assigned_team_id: body.assigned_team_id ?? null,
    // The date-time format has already refused what Date cannot hold (shared/validation.ts).
    due_date: toIsoOrNull(body.due_date),
    created_at: now,
    updated_at: now,
    resolved_at: null,
    closed_at: null,
    channel: origin?.channel ?? ('api' as const),
    email: origin?.email ? JSON.stringify(origin.email) : null,
  };
}

/** One create in a transaction of its own: what a group falls back to when it fails. */
async function createTicketAlone(deps: TicketDeps, request: CreateRequest): Promise<Ticket> {
  const { organizationId, body } = request;
  return withEvents(deps.store.db, organizationId, request.actor, async (trx, events) => {
    const now = nowIso();
    // On SQLite the write comes first: it takes the write lock at once (waiting out another
    // process's create), where a read first would leave a snapshot that another process's commit
    // makes stale, and the later write would fail with SQLITE_BUSY whatever the busy timeout.
    // On PostgreSQL the number is taken after the customer: it locks the organization's row until
    // the commit, and every create of the organization waits for that lock, so it should cover as
    // little as possible (the customer's find-or-create is safe without it: the unique index decides).
    let ticketNumber = deps.store.dialect === 'sqlite' ? await takeNextTicketNumber(trx, organizationId) : undefined;
    let customerId = (await findCustomerByEmail(trx, organizationId, body.customer_email))?.id;
    if (customerId === undefined) {
      const customer = newCustomerRow(organizationId, body, now);
      customerId = await insertCustomerUnlessExists(trx, customer);
      if (customerId === customer.id) {
        events.add({ type: 'customer.created', resourceType: 'customer', resourceId: customer.id, object: presentNewCustomer(customer), occurredAt: now });
      }
    }
    ticketNumber ??= await takeNextTicketNumber(trx, organizationId);
    const row = newTicketRow(organizationId, ticketNumber, customerId, body, now, request.origin);
    await insertTicket(trx, row);
    const ticket = presentTicket(row);
    events.add({ type: 'ticket.created', resourceType: 'ticket', resourceId: ticket.id, ticketId: ticket.id, object: ticket, occurredAt: now });
    return ticket;
  });
}

/** A ticket read with the caller's key (tickets.routes.ts: auth.withKey), or a 404 for none. Synchronous. */
export function presentTicketRead(row: TicketColumns | null): Ticket {
  if (row === null) throw errors.notFound('Ticket');
  return presentTicket(row);
}

export async function getTicket(deps: TicketDeps, organizationId: string, id: string, readWithKey?: TicketColumns | null): Promise<Ticket> {
  // Read already, in the key's statement (tickets.routes.ts: auth.withKey): a null is a 404 as well.
  if (readWithKey === null) throw errors.notFound('Ticket');
  return presentTicket(readWithKey ?? (await getTicketRow(deps.store.db, organizationId, id)));
}

/** `42`, `TKT-42` and `tkt-42` name ticket 42. */
export function ticketNumberOf(search: string): number | null {
  const match = /^(?:tkt-)?(\d{1,15})$/i.exec(search.trim());
  if (!match) return null;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export async function listTickets(deps: TicketDeps, organizationId: string, query: ListTicketsQuery, page: Page): Promise<Ticket[]> {
  const filters: TicketFilters = {
    status: query.status,
    priority: query.priority,
    assignedUserId: query.assigned_user_id,
    assignedTeamId: query.assigned_team_id,
    customerId: query.customer_id,
    category: query.category,
    unassigned: query.unassigned,
    updatedSince: query.updated_since === undefined ? undefined : toIso(query.updated_since),
  };
  if (query.search === undefined) return (await listTicketRows(deps.store.db, deps.store.search, organizationId, filters, page)).map(presentTicket);
  const text = query.search;
  const { store } = deps;
  try {
    const rows = await store.searches.run(organizationId, async (read, deadline) => {
      const search = { ...filters, search: { text, ticketNumber: ticketNumberOf(text), deadline } };
      const found = await read(listTicketsQuery(store.db, store.search, organizationId, search, page).compile());
      // A term no index answers looked through a window of the newest tickets only: a short page
      // is the whole answer only if nothing lies beyond the window.
      if (!store.search.indexes(text) && found.length < page.limit) {
        const beyond = await read(beyondWindowQuery(store.db, organizationId, filters, page).compile());
        if (beyond.length > 0) throw errors.searchWindowExceeded(UNINDEXED_TERM_WINDOW, search.search.ticketNumber);
      }
      return found;
    });
    return rows.map(presentTicket);
  } catch (error) {
    if (error instanceof SearchTimeoutError) throw errors.searchTimeout(store.searches.options.timeoutMs);
    if (error instanceof SearchBusyError) throw errors.searchBusy(error.limit);
    throw error;
  }
}

/** The timestamps a status change sets or clears (decisions §5). */
export function statusTimestamps(from: string, to: string, now: string): Updateable<TicketsTable> {
  if (from === to) return {};
  if (to === 'resolved') return { resolved_at: now, closed_at: null };
  if (to === 'closed') return { closed_at: now };
  return { resolved_at: null, closed_at: null };
}

export async function updateTicket(
  deps: TicketDeps,
  organizationId: string,
  id: string,
  body: UpdateTicketBody,
  actor: Actor,
  ifMatch?: IfMatch,
): Promise<Ticket> {
  return withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    // Locked until the commit, so a concurrent update waits and then sees this one's values: the
    // event's old values are always the values the change replaced, and If-Match is checked
    // against the very version the change replaces.
    const current = await findTicketForUpdate(trx, organizationId, id);
    if (!current) throw errors.notFound('Ticket');
    assertIfMatch(ifMatch, presentTicket(current), 'The ticket');
    await checkAssignees(trx, organizationId, body);
    // The date-time format has already refused what Date cannot hold (shared/validation.ts).
    const due = body.due_date === undefined ? undefined : toIsoOrNull(body.due_date);
    const now = nowIso();
    const changes: Updateable<TicketsTable> = {};
    const simple = ['subject', 'description', 'priority', 'category', 'assigned_user_id', 'assigned_team_id'] as const;
    for (const field of simple) {
      const value = body[field];
      if (value !== undefined && value !== current[field]) Object.assign(changes, { [field]: value });
    }
    if (due !== undefined && due !== toIsoOrNull(current.due_date)) changes.due_date = due;
    if (body.status !== undefined && body.status !== current.status) {
      changes.status = body.status;
      Object.assign(changes, statusTimestamps(current.status, body.status, now));
    }
    if (Object.keys(changes).length === 0) return presentTicket(current);
    changes.updated_at = now;
    await updateTicketRow(trx, organizationId, id, changes);
    return recordTicketUpdate(events, current, changes, now);
  });
}

/** The ticket after `changes`, and its `ticket.updated` event with what changed. */
function recordTicketUpdate(events: EventLog, current: TicketColumns, changes: Updateable<TicketsTable>, now: string): Ticket {
  const before = presentTicket(current);
  const ticket = presentTicket({ ...current, ...changes });
  const changed = changesBetween(before, ticket);
  events.add({ type: 'ticket.updated', resourceType: 'ticket', resourceId: ticket.id, ticketId: ticket.id, object: ticket, changes: changed, occurredAt: now });
  return ticket;
}

/**
 * Gives the ticket a new random tracking token. The old one stops working at once: the portal
 * looks tokens up on every request and never caches them.
 */
export async function rotateTrackingToken(deps: TicketDeps, organizationId: string, id: string, actor: Actor): Promise<Ticket> {
  return withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    const current = await findTicketForUpdate(trx, organizationId, id);
    if (!current) throw errors.notFound('Ticket');
    const now = nowIso();
    const changes = { tracking_token: randomUUID(), updated_at: now };
    await updateTicketRow(trx, organizationId, id, changes);
    return recordTicketUpdate(events, current, changes, now);
  });
}

/** Deletes the ticket with its comments and attachments, then the attachments' stored bytes. */
export async function deleteTicket(deps: TicketDeps, organizationId: string, id: string, actor: Actor, ifMatch?: IfMatch): Promise<void> {
  const attachmentIds = await withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    const current = await findTicketForUpdate(trx, organizationId, id);
    if (!current) throw errors.notFound('Ticket');
    assertIfMatch(ifMatch, presentTicket(current), 'The ticket');
    const ids = await attachmentIdsOfTickets(trx, organizationId, [id]);
    if (!(await deleteTicketRow(trx, organizationId, id))) throw errors.notFound('Ticket');
    // One event: the ticket's comments and attachments go with it and have none of their own.
    events.add({ type: 'ticket.deleted', resourceType: 'ticket', resourceId: id, ticketId: id, object: presentTicket(current) });
    return ids;
  });
  // The database store's bytes went with the rows (cascade), so this finds none. On disk, after
  // the commit: a crash here leaves only files without rows, which the start-up sweep removes.
  await deps.blobs.remove(attachmentIds);
}
