import type { Insertable } from 'kysely';
import type { CustomerRow, CustomersTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';

/** Emails are compared case-insensitively: the stored key is the lower-cased address. */
export const normalizeEmail = (email: string): string => email.toLowerCase();

export function findCustomerByEmail(db: Executor, organizationId: string, email: string): Promise<CustomerRow | undefined> {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('email_normalized', '=', normalizeEmail(email))
    .executeTakeFirst();
}

export async function insertCustomer(db: Executor, row: Insertable<CustomersTable>): Promise<void> {
  await db.insertInto('customers').values(row).execute();
}
