import type { Insertable, Updateable } from 'kysely';
import type { UserRow, UsersTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';

export type UserColumns = Omit<UserRow, 'organization_id' | 'email_normalized' | 'password_hash'>;

const COLUMNS = ['id', 'email', 'full_name', 'role', 'is_active', 'created_at', 'updated_at'] as const;

/** True when the user exists in the organization. */
export async function userExists(db: Executor, organizationId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The user; with `lock`, locked until the transaction ends (see forUpdate). */
export function findUser(db: Executor, organizationId: string, id: string, lock = false): Promise<UserColumns | undefined> {
  const query = db.selectFrom('users').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

/** The id of the user holding this normalized email in the organization, if any. */
export async function findUserIdByEmail(db: Executor, organizationId: string, emailNormalized: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('email_normalized', '=', emailNormalized)
    .executeTakeFirst();
  return row?.id;
}

/** One page of the organization's users, oldest first (served by users_org_created_idx). */
export function listUsers(db: Executor, organizationId: string, page: Page): Promise<UserColumns[]> {
  return db
    .selectFrom('users')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .$call(paged(page, CREATED_ASC))
    .execute();
}

export async function insertUser(db: Executor, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUser(db: Executor, organizationId: string, id: string, changes: Updateable<UsersTable>): Promise<void> {
  await db.updateTable('users').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteUser(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * True when the error is the unique index on (organization, email) refusing a row: two concurrent
 * requests can both pass the service's look-up, and the index is the real guard.
 */
export function isDuplicateEmailError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; constraint?: unknown };
  // SQLite names the columns in the message; PostgreSQL (23505) names the index.
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE') return typeof e.message === 'string' && e.message.includes('email_normalized');
  return e.code === '23505' && e.constraint === 'users_org_email_key';
}

/** A user who may try to sign in: active, with the password hash to check. */
export type SignInCandidate = UserColumns & { organization_id: string; password_hash: string | null };

/**
 * The active users with this normalized email across organizations (or in one), oldest first:
 * sign-in happens before the organization is known (served by users_email_normalized_idx).
 */
export function findSignInCandidates(db: Executor, emailNormalized: string, organizationId?: string): Promise<SignInCandidate[]> {
  let query = db
    .selectFrom('users')
    .select([...COLUMNS, 'organization_id', 'password_hash'])
    .where('email_normalized', '=', emailNormalized)
    .where('is_active', '=', 1);
  if (organizationId !== undefined) query = query.where('organization_id', '=', organizationId);
  return query.orderBy('created_at').orderBy('id').limit(10).execute();
}
