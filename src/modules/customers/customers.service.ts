import { randomUUID } from 'node:crypto';
import type { Insertable, Updateable } from 'kysely';
import type { Store } from '../../db/store.js';
import type { CustomersTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { DECIMAL_PATTERN } from '../../shared/validation.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { attachmentIdsOfTickets } from '../attachments/attachments.repository.js';
import { changesBetween, withEvents, type Actor } from '../events/events.log.js';
import { insertCustomerTicketsDeletedEvents } from '../events/events.repository.js';
import { tagCountsOfCustomer } from '../tags/tags.repository.js';
import { forgetTags } from '../tags/tags.service.js';
import { ticketIdsOfCustomer } from '../tickets/tickets.repository.js';
import {
  deleteCustomer as deleteCustomerRow,
  findCustomer,
  findCustomerByEmail,
  insertCustomer,
  isUniqueViolation,
  listCustomers as listCustomerRows,
  normalizeEmail,
  updateCustomer as updateCustomerRow,
  type CustomerColumns,
} from './customers.repository.js';
import type { CreateCustomerBody, Customer, ListCustomersQuery, UpdateCustomerBody } from './customers.schemas.js';

export interface CustomerDeps {
  store: Store;
  blobs: BlobStore;
}

/** Optional string fields stored as sent; null when unset. */
const OPTIONAL_STRINGS = [
  'company', 'department', 'title', 'customer_tier', 'contact_number', 'pronoun', 'location_country',
  'location_city', 'location_state', 'location_zip', 'location_address', 'region', 'timezone',
  'social_linkedin', 'social_website', 'social_github', 'notes',
] as const;

const ACCOUNT_VALUE_MESSAGE = 'must be a non-negative decimal with at most 13 integer digits and 2 decimal places';

/**
 * account_value in integer cents. Numbers go through their shortest decimal form (String(1500.5)
 * is "1500.5"), so a float is never multiplied and 0.1 + 0.2 is rejected rather than rounded.
 */
export function parseAccountValue(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value;
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) throw errors.invalidField('body.account_value', ACCOUNT_VALUE_MESSAGE);
  const [whole = '0', fraction = ''] = text.split('.');
  // At most 15 digits in all, so the result is a safe integer.
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Integer cents as the fixed-point string of the API: 150050 → "1500.50". */
export function formatCents(cents: number | string | bigint): string {
  const value = BigInt(cents);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${(abs / 100n).toString()}.${(abs % 100n).toString().padStart(2, '0')}`;
}

const centsOrNull = (value: number | string | bigint | null): number | null => (value === null ? null : Number(value));

/** The public shape of a customer row. */
export function presentCustomer(row: CustomerColumns): Customer {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    department: row.department,
    title: row.title,
    customer_tier: row.customer_tier as Customer['customer_tier'],
    contact_number: row.contact_number,
    pronoun: row.pronoun,
    location_country: row.location_country,
    location_city: row.location_city,
    location_state: row.location_state,
    location_zip: row.location_zip,
    location_address: row.location_address,
    region: row.region as Customer['region'],
    timezone: row.timezone,
    account_value: row.account_value_cents === null ? null : formatCents(row.account_value_cents),
    has_premium_support: Boolean(row.has_premium_support),
    is_vip: Boolean(row.is_vip),
    social_linkedin: row.social_linkedin,
    social_website: row.social_website,
    social_github: row.social_github,
    notes: row.notes,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    email_status: row.email_status,
  };
}

/** The public shape of a customer about to be inserted: fields it does not set are null. */
export function presentNewCustomer(row: Insertable<CustomersTable>): Customer {
  const columns = { ...row } as Record<string, unknown>;
  for (const field of OPTIONAL_STRINGS) columns[field] ??= null;
  columns.email_status ??= 'ok';
  columns.account_value_cents ??= null;
  return presentCustomer(columns as CustomerColumns);
}

const duplicateEmail = (email: string) => errors.conflict(`A customer with the email ${email} already exists`);

/** The customer, or a 404 that looks the same whether it is missing or another organization's. */
async function getCustomerRow(db: Executor, organizationId: string, id: string, lock = false): Promise<CustomerColumns> {
  const row = await findCustomer(db, organizationId, id, lock);
  if (!row) throw errors.notFound('Customer');
  return row;
}

/** 409 when another customer of the organization has this email, in any case. */
async function checkEmailFree(db: Executor, organizationId: string, email: string, selfId?: string): Promise<void> {
  const other = await findCustomerByEmail(db, organizationId, email);
  if (other && other.id !== selfId) throw duplicateEmail(email);
}

/** Runs a write that may hit the unique email index, turning a lost race into the same 409. */
async function guardEmail<T>(email: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail(email);
    throw error;
  }
}

export async function createCustomer(deps: CustomerDeps, organizationId: string, body: CreateCustomerBody, actor: Actor): Promise<Customer> {
  const { db } = deps.store;
  const accountValue = body.account_value === undefined || body.account_value === null ? null : parseAccountValue(body.account_value);
  await checkEmailFree(db, organizationId, body.email);
  const now = nowIso();
  const row: Insertable<CustomersTable> = {
    id: randomUUID(),
    organization_id: organizationId,
    name: body.name,
    email: body.email,
    email_normalized: normalizeEmail(body.email),
    account_value_cents: accountValue,
    has_premium_support: body.has_premium_support ? 1 : 0,
    is_vip: body.is_vip ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  for (const field of OPTIONAL_STRINGS) row[field] = body[field] ?? null;
  const customer = presentNewCustomer(row);
  await guardEmail(body.email, () =>
    withEvents(db, organizationId, actor, async (trx, events) => {
      await insertCustomer(trx, row);
      events.add({ type: 'customer.created', resourceType: 'customer', resourceId: customer.id, object: customer, occurredAt: now });
    }),
  );
  return customer;
}

export async function getCustomer(deps: CustomerDeps, organizationId: string, id: string): Promise<Customer> {
  return presentCustomer(await getCustomerRow(deps.store.db, organizationId, id));
}

export async function listCustomers(deps: CustomerDeps, organizationId: string, query: ListCustomersQuery, page: Page): Promise<Customer[]> {
  const filters = { email: query.email, updatedSince: query.updated_since === undefined ? undefined : toIso(query.updated_since) };
  const rows = await listCustomerRows(deps.store.db, organizationId, filters, page);
  return rows.map(presentCustomer);
}

/** Applies the fields present; `updated_at` moves only when a stored value actually changes. */
export async function updateCustomer(
  deps: CustomerDeps,
  organizationId: string,
  id: string,
  body: UpdateCustomerBody,
  actor: Actor,
  ifMatch?: IfMatch,
): Promise<Customer> {
  const { db } = deps.store;
  const accountValue = body.account_value === undefined || body.account_value === null ? body.account_value : parseAccountValue(body.account_value);
  const current = await getCustomerRow(db, organizationId, id);
  if (body.email !== undefined && normalizeEmail(body.email) !== normalizeEmail(current.email)) {
    // A change of case only keeps the same normalized key, so it cannot collide with anyone.
    await checkEmailFree(db, organizationId, body.email, id);
  }
  return guardEmail(body.email ?? current.email, () =>
    withEvents(db, organizationId, actor, async (trx, events) => {
      // Read again inside the transaction, locked: the event's old values are what the change replaces.
      const before = await getCustomerRow(trx, organizationId, id, true);
      assertIfMatch(ifMatch, presentCustomer(before), 'The customer');
      const changes: Updateable<CustomersTable> = {};
      if (body.name !== undefined && body.name !== before.name) changes.name = body.name;
      if (body.email !== undefined && body.email !== before.email) {
        changes.email = body.email;
        changes.email_normalized = normalizeEmail(body.email);
        // A new address (not a change of case) starts afresh: mail is sent to it again.
        if (normalizeEmail(body.email) !== normalizeEmail(before.email)) {
          changes.email_status = 'ok';
          changes.email_hard_bounces = 0;
        }
      }
      for (const field of OPTIONAL_STRINGS) {
        const value = body[field];
        if (value !== undefined && value !== before[field]) changes[field] = value;
      }
      if (accountValue !== undefined && accountValue !== centsOrNull(before.account_value_cents)) changes.account_value_cents = accountValue;
      for (const field of ['has_premium_support', 'is_vip'] as const) {
        const value = body[field];
        if (value !== undefined && value !== Boolean(before[field])) changes[field] = value ? 1 : 0;
      }
      if (Object.keys(changes).length === 0) return presentCustomer(before);
      const now = nowIso();
      changes.updated_at = now;
      await updateCustomerRow(trx, organizationId, id, changes);
      const customer = presentCustomer({ ...before, ...changes });
      const changed = changesBetween(presentCustomer(before), customer);
      events.add({ type: 'customer.updated', resourceType: 'customer', resourceId: id, object: customer, changes: changed, occurredAt: now });
      return customer;
    }),
  );
}

// Keeps `ticket_id in (...)` well under the bound-parameter limits of SQLite and PostgreSQL.
const TICKET_ID_CHUNK = 500;

/**
 * Deletes the customer with their tickets (and those tickets' comments and attachments) in one
 * transaction, then the attachments' stored bytes. Each ticket gets its `ticket.deleted` event
 * (written by one statement, however many there are), then the customer its `customer.deleted`.
 */
export async function deleteCustomer(deps: CustomerDeps, organizationId: string, id: string, actor: Actor, ifMatch?: IfMatch): Promise<void> {
  const attachmentIds = await withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    const current = await getCustomerRow(trx, organizationId, id, true);
    assertIfMatch(ifMatch, presentCustomer(current), 'The customer');
    const ticketIds = await ticketIdsOfCustomer(trx, organizationId, id);
    const ids: string[] = [];
    for (let i = 0; i < ticketIds.length; i += TICKET_ID_CHUNK) {
      ids.push(...(await attachmentIdsOfTickets(trx, organizationId, ticketIds.slice(i, i + TICKET_ID_CHUNK))));
    }
    const now = nowIso();
    // The tickets' tag rows go with them (cascade); the organization's counts are taken down here.
    if (ticketIds.length > 0) await forgetTags(trx, organizationId, await tagCountsOfCustomer(trx, organizationId, id));
    if (ticketIds.length > 0) await events.addSelected(now, (stamp) => insertCustomerTicketsDeletedEvents(trx, stamp, id));
    if (!(await deleteCustomerRow(trx, organizationId, id))) throw errors.notFound('Customer');
    events.add({ type: 'customer.deleted', resourceType: 'customer', resourceId: id, object: presentCustomer(current), occurredAt: now });
    return ids;
  });
  // The database store's bytes went with the rows (cascade), so this finds none. On disk, after
  // the commit: a crash here leaves only files without rows, which the start-up sweep removes.
  await deps.blobs.remove(attachmentIds);
}
