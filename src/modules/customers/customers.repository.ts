import type { Insertable, Updateable } from 'kysely';
import type { CustomerRow, CustomersTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';

/** Emails are compared case-insensitively: the stored key is the lower-cased address. */
export const normalizeEmail = (email: string): string => email.toLowerCase();

const COLUMNS = [
  'id', 'name', 'email', 'company', 'department', 'title', 'customer_tier', 'contact_number', 'pronoun',
  'location_country', 'location_city', 'location_state', 'location_zip', 'location_address', 'region', 'timezone',
  'account_value_cents', 'has_premium_support', 'is_vip', 'social_linkedin', 'social_website', 'social_github',
  'notes', 'created_at', 'updated_at', 'email_status',
] as const;

export type CustomerColumns = Pick<CustomerRow, (typeof COLUMNS)[number]>;

/** The id of the organization's customer with this email (compared case-insensitively), if any. */
export function findCustomerByEmail(db: Executor, organizationId: string, email: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('email_normalized', '=', normalizeEmail(email))
    .executeTakeFirst();
}

/** The organization's customers with these normalized emails: id by normalized email. */
export async function findCustomersByNormalizedEmails(db: Executor, organizationId: string, normalized: string[]): Promise<Map<string, string>> {
  if (normalized.length === 0) return new Map();
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'email_normalized'])
    .where('organization_id', '=', organizationId)
    .where('email_normalized', 'in', normalized)
    .execute();
  return new Map(rows.map((row) => [row.email_normalized, row.id]));
}

export async function insertCustomer(db: Executor, row: Insertable<CustomersTable>): Promise<void> {
  await db.insertInto('customers').values(row).execute();
}

/**
 * Inserts the customer unless the organization already has one with that email, and returns the id
 * of the one that exists afterwards. The unique index decides, so a customer created at the same
 * moment by another request (on PostgreSQL nothing else serializes the two) is found, not a failure.
 */
export async function insertCustomerUnlessExists(db: Executor, row: Insertable<CustomersTable>): Promise<string> {
  await db
    .insertInto('customers')
    .values(row)
    .onConflict((oc) => oc.columns(['organization_id', 'email_normalized']).doNothing())
    .execute();
  const existing = await findCustomerByEmail(db, row.organization_id, row.email);
  if (!existing) throw new Error('Customer neither inserted nor found');
  return existing.id;
}

/** The customer; with `lock`, locked until the transaction ends (see forUpdate). */
export function findCustomer(db: Executor, organizationId: string, id: string, lock = false): Promise<CustomerColumns | undefined> {
  const query = db.selectFrom('customers').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

export interface CustomerFilters {
  /** Compared case-insensitively, as emails are (customers_org_email_key). */
  email?: string | undefined;
  /** ISO 8601 UTC: customers whose `updated_at` is at or after it (customers_org_updated_at_idx). */
  updatedSince?: string | undefined;
}

/** One page of an organization's customers, oldest first (served by customers_org_created_idx). */
export function listCustomersQuery(db: Executor, organizationId: string, filters: CustomerFilters, page: Page) {
  let query = db.selectFrom('customers').select(COLUMNS).where('organization_id', '=', organizationId);
  if (filters.email !== undefined) query = query.where('email_normalized', '=', normalizeEmail(filters.email));
  if (filters.updatedSince !== undefined) query = query.where('updated_at', '>=', filters.updatedSince);
  return query.$call(paged(page, CREATED_ASC));
}

export function listCustomers(db: Executor, organizationId: string, filters: CustomerFilters, page: Page): Promise<CustomerColumns[]> {
  return listCustomersQuery(db, organizationId, filters, page).execute();
}

export async function updateCustomer(
  db: Executor,
  organizationId: string,
  id: string,
  changes: Updateable<CustomersTable>,
): Promise<void> {
  await db.updateTable('customers').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Deletes a customer; their tickets go with it, and the tickets' comments and attachment rows (foreign keys cascade). */
export async function deleteCustomer(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('customers').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * True when a write failed on a unique index (SQLite or PostgreSQL): the check before the write
 * cannot see a concurrent insert, the index can.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
