import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Store } from '../../db/store.js';
import type { TicketsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso, toIsoOrNull } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { attachmentIdsOfTickets } from '../attachments/attachments.repository.js';
import { findCustomerByEmail, insertCustomerUnlessExists, normalizeEmail } from '../customers/customers.repository.js';
import { takeNextTicketNumber } from '../organizations/organizations.repository.js';
import { teamExists } from '../teams/teams.repository.js';
import { userExists } from '../users/users.repository.js';
import type { CreateTicketBody, ListTicketsQuery, Ticket, UpdateTicketBody } from './tickets.schemas.js';
import {
  deleteTicket as deleteTicketRow,
  findTicket,
  insertTicket,
  listTickets as listTicketRows,
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

/**
 * A due date as stored: UTC with milliseconds. The date-time format lets through values `Date`
 * cannot hold (a leap second `23:59:60`) or that land outside years 0000-9999 once moved to UTC;
 * those are a 422, not a RangeError turned 500.
 */
function dueDateOf(value: string | null): string | null {
  if (value === null) return null;
  const ms = Date.parse(value);
  const iso = Number.isNaN(ms) ? '' : new Date(ms).toISOString();
  if (!/^\d{4}-/.test(iso)) throw errors.invalidField('body.due_date', 'must be a valid date-time between years 0000 and 9999');
  return iso;
}

export async function createTicket(deps: TicketDeps, organizationId: string, body: CreateTicketBody): Promise<Ticket> {
  const { db } = deps.store;
  await checkAssignees(db, organizationId, body);
  const dueDate = dueDateOf(body.due_date ?? null);
  const id = randomUUID();
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    // The write comes first: on SQLite it takes the write lock at once (waiting out another
    // process's create), where a read first would leave a snapshot that another process's commit
    // makes stale, and the later write would fail with SQLITE_BUSY whatever the busy timeout.
    const ticketNumber = await takeNextTicketNumber(trx, organizationId);
    // The customer is found by email (case-insensitively) or created; an existing name is kept.
    let customerId = (await findCustomerByEmail(trx, organizationId, body.customer_email))?.id;
    if (customerId === undefined) {
      customerId = await insertCustomerUnlessExists(trx, {
        id: randomUUID(),
        organization_id: organizationId,
        name: body.customer_name,
        email: body.customer_email,
        email_normalized: normalizeEmail(body.customer_email),
        has_premium_support: 0,
        is_vip: 0,
        created_at: now,
        updated_at: now,
      });
    }
    await insertTicket(trx, {
      id,
      organization_id: organizationId,
      ticket_number: ticketNumber,
      tracking_token: randomUUID(),
      customer_id: customerId,
      subject: body.subject,
      description: body.description,
      status: 'new',
      priority: body.priority ?? 'medium',
      category: body.category ?? null,
      assigned_user_id: body.assigned_user_id ?? null,
      assigned_team_id: body.assigned_team_id ?? null,
      due_date: dueDate,
      created_at: now,
      updated_at: now,
    });
  });
  return presentTicket(await getTicketRow(db, organizationId, id));
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

export async function listTickets(deps: TicketDeps, organizationId: string, query: ListTicketsQuery, page: Page): Promise<Ticket[]> {
  const filters: TicketFilters = {
    status: query.status,
    priority: query.priority,
    assignedUserId: query.assigned_user_id,
    assignedTeamId: query.assigned_team_id,
    customerId: query.customer_id,
    category: query.category,
    unassigned: query.unassigned,
    search: query.search === undefined ? undefined : { text: query.search, ticketNumber: ticketNumberOf(query.search) },
  };
  const rows = await listTicketRows(deps.store.db, deps.store.search, organizationId, filters, page);
  return rows.map(presentTicket);
}

/** The timestamps a status change sets or clears (decisions §5). */
export function statusTimestamps(from: string, to: string, now: string): Updateable<TicketsTable> {
  if (from === to) return {};
  if (to === 'resolved') return { resolved_at: now, closed_at: null };
  if (to === 'closed') return { closed_at: now };
  return { resolved_at: null, closed_at: null };
}

export async function updateTicket(deps: TicketDeps, organizationId: string, id: string, body: UpdateTicketBody): Promise<Ticket> {
  const { db } = deps.store;
  const current = await getTicketRow(db, organizationId, id);
  await checkAssignees(db, organizationId, body);
  const now = nowIso();
  const changes: Updateable<TicketsTable> = {};
  const simple = ['subject', 'description', 'priority', 'category', 'assigned_user_id', 'assigned_team_id'] as const;
  for (const field of simple) {
    const value = body[field];
    if (value !== undefined && value !== current[field]) Object.assign(changes, { [field]: value });
  }
  if (body.due_date !== undefined) {
    const due = dueDateOf(body.due_date);
    if (due !== toIsoOrNull(current.due_date)) changes.due_date = due;
  }
  if (body.status !== undefined && body.status !== current.status) {
    changes.status = body.status;
    Object.assign(changes, statusTimestamps(current.status, body.status, now));
  }
  if (Object.keys(changes).length > 0) {
    changes.updated_at = now;
    await updateTicketRow(db, organizationId, id, changes);
  }
  return presentTicket(await getTicketRow(db, organizationId, id));
}

/**
 * Gives the ticket a new random tracking token. The old one stops working at once: the portal
 * looks tokens up on every request and never caches them.
 */
export async function rotateTrackingToken(deps: TicketDeps, organizationId: string, id: string): Promise<Ticket> {
  const { db } = deps.store;
  await getTicketRow(db, organizationId, id);
  await updateTicketRow(db, organizationId, id, { tracking_token: randomUUID(), updated_at: nowIso() });
  return presentTicket(await getTicketRow(db, organizationId, id));
}

/** Deletes the ticket with its comments and attachments, then the attachments' stored bytes. */
export async function deleteTicket(deps: TicketDeps, organizationId: string, id: string): Promise<void> {
  const attachmentIds = await deps.store.db.transaction().execute(async (trx) => {
    const ids = await attachmentIdsOfTickets(trx, organizationId, [id]);
    if (!(await deleteTicketRow(trx, organizationId, id))) throw errors.notFound('Ticket');
    return ids;
  });
  // The database store's bytes went with the rows (cascade), so this finds none. On disk, after
  // the commit: a crash here leaves only files without rows, which the start-up sweep removes.
  await deps.blobs.remove(attachmentIds);
}
