import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import { revokeKeysOfHolder } from '../../auth/keys.repository.js';
import { hashPassword } from '../../auth/passwords.js';
import type { Store } from '../../db/store.js';
import type { UsersTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { normalizeEmail } from '../customers/customers.repository.js';
import { changesBetween, withEvents, type Actor, type Changes } from '../events/events.log.js';
import { deleteSessionsOfUser } from '../sessions/sessions.repository.js';
import {
  insertHeldKeysRevokedEvents,
  insertTicketsUnassignedEvents,
  insertUserMembershipsRemovedEvents,
} from '../events/events.repository.js';
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
async function getUserRow(db: Executor, organizationId: string, id: string, lock = false): Promise<UserColumns> {
  const row = await findUser(db, organizationId, id, lock);
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

export async function createUser(deps: UserDeps, organizationId: string, body: CreateUserBody, actor: Actor): Promise<User> {
  const { db } = deps.store;
  const emailNormalized = normalizeEmail(body.email);
  if (await findUserIdByEmail(db, organizationId, emailNormalized)) throw duplicateEmail();
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const id = randomUUID();
  const now = creationTimeIso();
  const row = {
    id,
    organization_id: organizationId,
    email: body.email,
    email_normalized: emailNormalized,
    full_name: body.full_name,
    role: body.role ?? 'agent',
    is_active: body.is_active === false ? 0 : 1,
    created_at: now,
    updated_at: now,
  };
  const user = presentUser(row);
  await guardEmail(() =>
    withEvents(db, organizationId, actor, async (trx, events) => {
      await insertUser(trx, { ...row, password_hash: passwordHash });
      events.add({ type: 'user.created', resourceType: 'user', resourceId: id, object: user, occurredAt: now });
    }),
  );
  return user;
}

export async function updateUser(deps: UserDeps, organizationId: string, id: string, body: UpdateUserBody, actor: Actor, ifMatch?: IfMatch): Promise<User> {
  const { db } = deps.store;
  await getUserRow(db, organizationId, id);
  if (body.email !== undefined) {
    const holder = await findUserIdByEmail(db, organizationId, normalizeEmail(body.email));
    // Changing only the case of one's own address is allowed; taking another user's is not.
    if (holder !== undefined && holder !== id) throw duplicateEmail();
  }
  // Hashed before the transaction: scrypt takes tens of milliseconds, no lock need wait for it.
  const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
  return guardEmail(() =>
    withEvents(db, organizationId, actor, async (trx, events) => {
      // Locked until the commit: the event's old values are the ones this change replaces.
      const current = await getUserRow(trx, organizationId, id, true);
      assertIfMatch(ifMatch, presentUser(current), 'The user');
      const changes: Updateable<UsersTable> = {};
      if (body.email !== undefined && body.email !== current.email) {
        changes.email = body.email;
        changes.email_normalized = normalizeEmail(body.email);
      }
      if (body.full_name !== undefined && body.full_name !== current.full_name) changes.full_name = body.full_name;
      if (body.role !== undefined && body.role !== current.role) changes.role = body.role;
      if (body.is_active !== undefined && body.is_active !== Boolean(current.is_active)) changes.is_active = body.is_active ? 1 : 0;
      if (passwordHash !== undefined) changes.password_hash = passwordHash;
      if (Object.keys(changes).length === 0) return presentUser(current);
      const now = nowIso();
      changes.updated_at = now;
      await updateUserRow(trx, organizationId, id, changes);
      // A new password or a deactivation ends every session of the user (docs/api-behaviour.md, "Signing in").
      if (passwordHash !== undefined || changes.is_active === 0) await deleteSessionsOfUser(trx, organizationId, id);
      const before = presentUser(current);
      const user = presentUser({ ...current, ...changes });
      // The event says that the password changed, never anything of it.
      const changed: Changes | null = passwordHash === undefined ? changesBetween(before, user) : { ...changesBetween(before, user), password: { changed: true } };
      events.add({ type: 'user.updated', resourceType: 'user', resourceId: id, object: user, changes: changed, occurredAt: now });
      return user;
    }),
  );
}

/** Sets the password of the user with this email (the CLI's `users set-password`); ends their sessions. */
export async function setPasswordByEmail(deps: UserDeps, organizationId: string, email: string, password: string, actor: Actor): Promise<User> {
  const id = await findUserIdByEmail(deps.store.db, organizationId, normalizeEmail(email));
  if (id === undefined) throw errors.notFound('User');
  return updateUser(deps, organizationId, id, { password }, actor);
}

/**
 * Deletes a user in one transaction: their tickets are unassigned (touching `updated_at`), they
 * leave every team, and the API keys they hold are revoked, so an agent who is gone can no longer
 * act through a key issued to them. Comments and attachments they wrote stay, with the author set
 * to null by the foreign keys. Events: `ticket.updated` per ticket unassigned, `team.member_removed`
 * per team left, `api_key.revoked` per key revoked (each kind by one statement), then `user.deleted`.
 */
export async function deleteUser(deps: UserDeps, organizationId: string, id: string, actor: Actor, ifMatch?: IfMatch): Promise<void> {
  await withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    const current = await getUserRow(trx, organizationId, id, true);
    assertIfMatch(ifMatch, presentUser(current), 'The user');
    const now = nowIso();
    // Each kind of event before the change it describes: afterwards the rows no longer name the user.
    await events.addSelected(now, (stamp) => insertTicketsUnassignedEvents(trx, stamp, 'assigned_user_id', id));
    await unassignTickets(trx, organizationId, 'assigned_user_id', id, now);
    await events.addSelected(now, (stamp) => insertUserMembershipsRemovedEvents(trx, stamp, id));
    await removeUserFromTeams(trx, organizationId, id);
    // Before the delete: the holder column is set to null when the user row goes.
    await events.addSelected(now, (stamp) => insertHeldKeysRevokedEvents(trx, stamp, id));
    await revokeKeysOfHolder(trx, organizationId, id, now);
    if (!(await deleteUserRow(trx, organizationId, id))) throw errors.notFound('User');
    events.add({ type: 'user.deleted', resourceType: 'user', resourceId: id, object: presentUser(current), occurredAt: now });
  });
}
