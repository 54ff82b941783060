import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import { revokeKeysOfHolder } from '../../auth/api-keys.repository.js';
import type { Store } from '../../db/store.js';
import type { UsersTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { normalizeEmail } from '../customers/customers.repository.js';
import { removeUserFromTeams } from '../teams/teams.repository.js';
import { unassignTickets } from '../tickets/tickets.repository.js';
import type { CreateUserBody, UpdateUserBody, User } from './users.schemas.js';
import {
  deleteUser as deleteUserRow,
  findUser,
  findUserIdByEmail,
  insertUser,
  isDuplicateEmailError,
  listUsers as listUserRows,
  updateUser as updateUserRow,
  type UserColumns,
} from './users.repository.js';

export interface UserDeps {
  store: Store;
}

const duplicateEmail = () => errors.conflict('A user with this email already exists in the organization');

/** The public shape of a user row. */
export function presentUser(row: UserColumns): User {
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    role: row.role,
    is_active: Boolean(row.is_active),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** The user, or a 404 that looks the same whether it is missing or another organization's. */
async function getUserRow(db: Executor, organizationId: string, id: string): Promise<UserColumns> {
  const row = await findUser(db, organizationId, id);
  if (!row) throw errors.notFound('User');
  return row;
}

/** Turns the unique index refusing an email (a concurrent request won the race) into the 409. */
async function guardEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDuplicateEmailError(error)) throw duplicateEmail();
    throw error;
  }
}

export async function listUsers(deps: UserDeps, organizationId: string, page: Page): Promise<User[]> {
  return (await listUserRows(deps.store.db, organizationId, page)).map(presentUser);
}

export async function getUser(deps: UserDeps, organizationId: string, id: string): Promise<User> {
  return presentUser(await getUserRow(deps.store.db, organizationId, id));
}

export async function createUser(deps: UserDeps, organizationId: string, body: CreateUserBody): Promise<User> {
  const { db } = deps.store;
  const emailNormalized = normalizeEmail(body.email);
  if (await findUserIdByEmail(db, organizationId, emailNormalized)) throw duplicateEmail();
  const id = randomUUID();
  const now = creationTimeIso();
  await guardEmail(() =>
    insertUser(db, {
      id,
      organization_id: organizationId,
      email: body.email,
      email_normalized: emailNormalized,
      full_name: body.full_name,
      role: body.role ?? 'agent',
      is_active: body.is_active === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    }),
  );
  return presentUser(await getUserRow(db, organizationId, id));
}

export async function updateUser(deps: UserDeps, organizationId: string, id: string, body: UpdateUserBody): Promise<User> {
  const { db } = deps.store;
  const current = await getUserRow(db, organizationId, id);
  const changes: Updateable<UsersTable> = {};
  if (body.email !== undefined && body.email !== current.email) {
    const emailNormalized = normalizeEmail(body.email);
    const holder = await findUserIdByEmail(db, organizationId, emailNormalized);
    // Changing only the case of one's own address is allowed; taking another user's is not.
    if (holder !== undefined && holder !== id) throw duplicateEmail();
    changes.email = body.email;
    changes.email_normalized = emailNormalized;
  }
  if (body.full_name !== undefined && body.full_name !== current.full_name) changes.full_name = body.full_name;
  if (body.role !== undefined && body.role !== current.role) changes.role = body.role;
  if (body.is_active !== undefined && body.is_active !== Boolean(current.is_active)) changes.is_active = body.is_active ? 1 : 0;
  if (Object.keys(changes).length > 0) {
    changes.updated_at = nowIso();
    await guardEmail(() => updateUserRow(db, organizationId, id, changes));
  }
  return presentUser(await getUserRow(db, organizationId, id));
}

/**
 * Deletes a user in one transaction: their tickets are unassigned (touching `updated_at`), they
 * leave every team, and the API keys they hold are revoked, so an agent who is gone can no longer
 * act through a key issued to them. Comments and attachments they wrote stay, with the author set
 * to null by the foreign keys.
 */
export async function deleteUser(deps: UserDeps, organizationId: string, id: string): Promise<void> {
  await deps.store.db.transaction().execute(async (trx) => {
    await getUserRow(trx, organizationId, id);
    const now = nowIso();
    await unassignTickets(trx, organizationId, 'assigned_user_id', id, now);
    await removeUserFromTeams(trx, organizationId, id);
    // Before the delete: the holder column is set to null when the user row goes.
    await revokeKeysOfHolder(trx, organizationId, id, now);
    if (!(await deleteUserRow(trx, organizationId, id))) throw errors.notFound('User');
  });
}
