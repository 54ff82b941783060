import type { Insertable } from 'kysely';
import type { SessionsTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';

/** A session with what authenticating a request by it needs of its user. */
export interface SessionWithUser {
  id: string;
  organization_id: string;
  user_id: string;
  last_seen_at: string | Date;
  expires_at: string | Date;
  role: 'admin' | 'agent';
  is_active: number | boolean;
}

export async function insertSession(db: Executor, row: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The session holding this token hash, with its user's role and state (one read per request). */
export function findSessionByTokenHash(db: Executor, tokenHash: string): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', (join) => join.onRef('u.organization_id', '=', 's.organization_id').onRef('u.id', '=', 's.user_id'))
    .select(['s.id', 's.organization_id', 's.user_id', 's.last_seen_at', 's.expires_at', 'u.role', 'u.is_active'])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchSession(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Ends every session of the user (a password change, a deactivation). */
export async function deleteSessionsOfUser(db: Executor, organizationId: string, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

/** Forgets the user's sessions that can no longer be used (run at each sign-in, so rows do not pile up). */
export async function deleteEndedSessionsOfUser(db: Executor, organizationId: string, userId: string, now: string, idleSince: string): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]))
    .execute();
}
