import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import { UNINDEXED_TERM_WINDOW } from '../../search/search.js';
import { SearchBusyError, SearchTimeoutError } from '../../search/search-runner.js';
import type { Store } from '../../db/store.js';
import type { Channel, TicketsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso, toIsoOrNull } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { attachmentIdsOfTickets } from '../attachments/attachments.repository.js';
import { findCustomerByEmail, insertCustomerUnlessExists, normalizeEmail } from '../customers/customers.repository.js';
import { presentNewCustomer } from '../customers/customers.service.js';
import { changesBetween, withEvents, type Actor, type EventLog } from '../events/events.log.js';
import { takeNextTicketNumber } from '../organizations/organizations.repository.js';
import { forgetTags, normalizeTags, rarestFirst, tagsAfter, tagsOfQuery, tagsOfRow, writeTicketTags } from '../tags/tags.service.js';
import { ticketFieldsByKey } from '../ticket-fields/ticket-fields.repository.js';
import { customFieldsAfter, filterValue, writeTicketFieldValues, type CustomFields } from '../ticket-fields/ticket-fields.values.js';
import { teamExists } from '../teams/teams.repository.js';
import { userExists } from '../users/users.repository.js';
import { logSlaEvents, NO_SLA, slaAfterChange, slaBlockOf, slaOfNewTicket } from '../sla/sla.hooks.js';
import { slaPoliciesOf, type PolicySet } from '../sla/sla.policy-cache.js';
import { CUSTOM_FIELD_PARAMETER, TICKET_PRIORITIES, TICKET_STATUSES, type CreateTicketBody, type ListTicketsQuery, type Ticket, type UpdateTicketBody } from './tickets.schemas.js';
import {
  beyondWindowQuery,
  deleteTicket as deleteTicketRow,
  findTicket,
  findTicketForUpdate,
  insertTicket,
  listTickets as listTicketRows,
  listTicketsQuery,
  updateTicket as updateTicketRow,
  type TicketColumns,
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
    tags: tagsOfRow(row),
    custom_fields: JSON.parse(row.custom_fields) as CustomFields,
    channel: row.channel,
    email: row.email === null ? null : (JSON.parse(row.email) as Ticket['email']),
    sla: slaBlockOf(row.sla),
  };
}

/** The ticket, or a 404 that looks the same whether it is missing or another organization's. */
export async function getTicketRow(db: Executor, organizationId: string, id: string): Promise<TicketColumns> {
  const row = await findTicket(db, organizationId, id);
  if (!row) throw errors.notFound('Ticket');
  return row;
}

/** An id in a body must name a record of the caller's organization, else 422 naming the field. */
export async function checkAssignees(
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

/**
 * Creates a ticket, and its customer unless the organization has one with that email
 * (case-insensitively; an existing name is kept), with their events, in one transaction.
 */
/** How a ticket came in, when not through the API: by mail, with its `email` block. */
export interface TicketOrigin {
  channel: Channel;
  email: NonNullable<Ticket['email']> | null;
  /** Runs in the ticket's own transaction, after its rows: what must commit with the ticket or not at all. */
  alongside?: (trx: Executor, ticket: Ticket) => Promise<void>;
}

export async function createTicket(deps: TicketDeps, organizationId: string, body: CreateTicketBody, actor: Actor, origin?: TicketOrigin): Promise<Ticket> {
  const tags = normalizeTags(body.tags ?? [], 'body.tags');
  const fields = await ticketFieldsByKey(deps.store.db, organizationId);
  const custom = customFieldsAfter(fields, {}, body.custom_fields);
  await checkAssignees(deps.store.db, organizationId, body);
  const policies = await slaPoliciesOf(deps.store.db, organizationId);
  return withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    const now = nowIso();
    // The number first: on SQLite that write takes the write lock at once, so nothing read after
    // it can be made stale by another process's commit (which would fail the write SQLITE_BUSY).
    const ticketNumber = await takeNextTicketNumber(trx, organizationId);
    const customerId = await findOrCreateCustomer(trx, organizationId, body, events, now);
    const row = withSla(policies, newTicketRow(organizationId, ticketNumber, customerId, body, now, tags, custom, origin), tags, custom);
    await insertTicket(trx, row);
    await writeTicketTags(trx, organizationId, row, [], tags);
    await writeTicketFieldValues(trx, organizationId, row, fields, {}, custom);
    const ticket = presentTicket(row);
    if (origin?.alongside) await origin.alongside(trx, ticket);
    events.add({ type: 'ticket.created', resourceType: 'ticket', resourceId: ticket.id, ticketId: ticket.id, object: ticket, occurredAt: now });
    return ticket;
  });
}

/** The id of the customer with the body's email, created (with its event) when there is none. */
async function findOrCreateCustomer(trx: Executor, organizationId: string, body: CreateTicketBody, events: EventLog, now: string): Promise<string> {
  const found = await findCustomerByEmail(trx, organizationId, body.customer_email);
  if (found) return found.id;
  const customer = newCustomerRow(organizationId, body, now);
  const id = await insertCustomerUnlessExists(trx, customer);
  // Another transaction may have created the same customer a moment earlier: its event is that one's.
  if (id === customer.id) {
    events.add({ type: 'customer.created', resourceType: 'customer', resourceId: id, object: presentNewCustomer(customer), occurredAt: now });
  }
  return id;
}

export function newCustomerRow(organizationId: string, body: CreateTicketBody, now: string) {
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

/** A new ticket's row; `tags` and `custom` checked (the create fast path takes only creates without). */
export function newTicketRow(
  organizationId: string,
  ticketNumber: number,
  customerId: string,
  body: CreateTicketBody,
  now: string,
  tags: string[] = [],
  custom: CustomFields = {},
  origin?: TicketOrigin,
) {
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
    tags: JSON.stringify(tags),
    custom_fields: JSON.stringify(custom),
    channel: origin?.channel ?? ('api' as const),
    email: origin?.email ? JSON.stringify(origin.email) : null,
    ...NO_SLA,
  };
}

/**
 * A new ticket's row with the clocks of the first SLA policy it matches (none: the row as it was).
 * Matched against the row itself, its `tags` and `custom` fields given as checked (as the row
 * holds them in JSON): the row's other fields are already as the ticket's answer shows them.
 */
export function withSla<T extends ReturnType<typeof newTicketRow>>(policies: PolicySet, row: T, tags: string[] = [], custom: CustomFields = {}): T {
  return policies.policies.length === 0 ? row : Object.assign(row, slaOfNewTicket(policies, { ...row, tags, custom_fields: custom }));
}

export async function getTicket(deps: TicketDeps, organizationId: string, id: string): Promise<Ticket> {
  return presentTicket(await getTicketRow(deps.store.db, organizationId, id));
}

/** `42`, `TKT-42` and `tkt-42` name ticket 42. */
export function ticketNumberOf(search: string): number | null {
  const match = /^(?:tkt-)?(\d{1,15})$/i.exec(search.trim());
  if (!match) return null;
  const n = Number(match[1]);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** `open,pending` → ['open', 'pending'], each checked: 422 naming the first value that is not one of `allowed`. */
function anyOfValues<T extends string>(value: string | undefined, allowed: readonly T[], field: string, what: string): T[] | undefined {
  if (value === undefined) return undefined;
  const values = value.split(',').map((v) => v.trim());
  const bad = values.find((v) => !(allowed as readonly string[]).includes(v));
  if (bad !== undefined) {
    throw errors.invalidField(field, `'${bad}' is not a ${what}; give one or more of ${allowed.join(', ')}, separated by commas (${allowed.slice(1, 3).join(',')})`);
  }
  return [...new Set(values)] as T[];
}

/** The `custom_fields[<key>]=<value>` parameters as filters: each key a field of the organization, each value of its type. */
async function customFieldFilters(db: Executor, organizationId: string, query: ListTicketsQuery): Promise<TicketFilters['customFields']> {
  const given = Object.entries(query as Record<string, unknown>).filter(([name]) => CUSTOM_FIELD_PARAMETER.test(name));
  if (given.length === 0) return undefined;
  const fields = await ticketFieldsByKey(db, organizationId);
  return given.map(([name, raw]) => {
    const at = `query.${name}`;
    const field = fields.get(CUSTOM_FIELD_PARAMETER.exec(name)![1]!);
    if (!field) throw errors.invalidField(at, 'is not a custom field of this organization (see GET /v1/ticket-fields)');
    return { fieldId: field.id, value: filterValue(field, String(raw), at) };
  });
}

export async function listTickets(deps: TicketDeps, organizationId: string, query: ListTicketsQuery, page: Page): Promise<Ticket[]> {
  const filters: TicketFilters = {
    status: anyOfValues(query.status, TICKET_STATUSES, 'query.status', 'status'),
    priority: anyOfValues(query.priority, TICKET_PRIORITIES, 'query.priority', 'priority'),
    customFields: await customFieldFilters(deps.store.db, organizationId, query),
    assignedUserId: query.assigned_user_id,
    assignedTeamId: query.assigned_team_id,
    customerId: query.customer_id,
    category: query.category,
    unassigned: query.unassigned,
    updatedSince: query.updated_since === undefined ? undefined : toIso(query.updated_since),
    tags: await rarestFirst(deps.store.db, organizationId, tagsOfQuery(query.tag, 'query.tag')),
    anyTags: tagsOfQuery(query.any_tag, 'query.any_tag'),
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

/** The timestamps a status change sets or clears: resolving sets resolved_at, closing closed_at, reopening clears both. */
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
  return withEvents(deps.store.db, organizationId, actor, (trx, events) => updateTicketIn(trx, events, organizationId, id, body, ifMatch));
}

/**
 * `updateTicket` inside the caller's transaction, its `ticket.updated` event (if anything changed)
 * added to the caller's event log: the one code path of a ticket's update, which macros, bulk
 * changes and triggers take too (src/modules/macros/actions.ts).
 */
export async function updateTicketIn(
  trx: Executor,
  events: EventLog,
  organizationId: string,
  id: string,
  body: UpdateTicketBody,
  ifMatch?: IfMatch,
): Promise<Ticket> {
  // Locked until the commit, so a concurrent update waits and then sees this one's values: the
  // event's old values are always the values the change replaced, and If-Match is checked
  // against the very version the change replaces.
  const policies = await slaPoliciesOf(trx, organizationId);
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
  const tagsBefore = tagsOfRow(current);
  const tags = tagsAfter(tagsBefore, body);
  if (tags !== undefined && JSON.stringify(tags) !== current.tags) changes.tags = JSON.stringify(tags);
  const fields = body.custom_fields === undefined ? undefined : await ticketFieldsByKey(trx, organizationId);
  const customBefore = JSON.parse(current.custom_fields) as CustomFields;
  const custom = fields && customFieldsAfter(fields, customBefore, body.custom_fields);
  if (custom !== undefined && JSON.stringify(custom) !== current.custom_fields) changes.custom_fields = JSON.stringify(custom);
  if (Object.keys(changes).length === 0) return presentTicket(current);
  changes.updated_at = now;
  const sla = slaAfterChange(policies, current, presentTicket({ ...current, ...changes }), null, new Date(now));
  if (sla.columns) Object.assign(changes, sla.columns);
  await updateTicketRow(trx, organizationId, id, changes);
  if (tags !== undefined) await writeTicketTags(trx, organizationId, current, tagsBefore, tags);
  if (fields && custom) await writeTicketFieldValues(trx, organizationId, current, fields, customBefore, custom);
  const ticket = recordTicketUpdate(events, current, changes, now);
  logSlaEvents(events, ticket, sla.events);
  return ticket;
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
 * A deleted custom field's key taken off tickets (their indexed values go with the field), each
 * with its `ticket.updated` event; `updated_at` moves, as when a team's deletion unassigns a ticket.
 */
export async function clearCustomField(trx: Executor, events: EventLog, organizationId: string, ticketIds: string[], key: string): Promise<void> {
  const now = nowIso();
  for (const id of ticketIds) {
    const current = await findTicketForUpdate(trx, organizationId, id);
    if (!current) continue;
    const custom = JSON.parse(current.custom_fields) as CustomFields;
    delete custom[key];
    const changes = { custom_fields: JSON.stringify(custom), updated_at: now };
    await updateTicketRow(trx, organizationId, id, changes);
    recordTicketUpdate(events, current, changes, now);
  }
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
    // Its tag rows go with it (cascade); the organization's counts are taken down here.
    await forgetTags(trx, organizationId, new Map(tagsOfRow(current).map((tag) => [tag, 1])));
    if (!(await deleteTicketRow(trx, organizationId, id))) throw errors.notFound('Ticket');
    // One event: the ticket's comments and attachments go with it and have none of their own.
    events.add({ type: 'ticket.deleted', resourceType: 'ticket', resourceId: id, ticketId: id, object: presentTicket(current) });
    return ids;
  });
  // The database store's bytes went with the rows (cascade), so this finds none. On disk, after
  // the commit: a crash here leaves only files without rows, which the start-up sweep removes.
  await deps.blobs.remove(attachmentIds);
}
