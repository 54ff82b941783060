import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database, IdempotencyKeysTable } from '../db/types.js';
import type { Executor } from '../shared/executor.js';

export type IdempotencyRecord = Selectable<IdempotencyKeysTable>;

export interface KeyId {
  organizationId: string;
  apiKeyId: string;
  key: string;
}

/** The row of one key: its primary key. */
const keyIs = (id: KeyId) => (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
  eb.and([eb('organization_id', '=', id.organizationId), eb('api_key_id', '=', id.apiKeyId), eb('idempotency_key', '=', id.key)]);

/** Inserts the key as in flight; false when the key is already there (the primary key decides, in every process). */
export async function insertInFlight(
  db: Executor,
  id: KeyId,
  values: { fingerprint: string; createdAt: string; lockedUntil: string; expiresAt: string },
): Promise<boolean> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      organization_id: id.organizationId,
      api_key_id: id.apiKeyId,
      idempotency_key: id.key,
      fingerprint: values.fingerprint,
      state: 'in_flight',
      created_at: values.createdAt,
      locked_until: values.lockedUntil,
      expires_at: values.expiresAt,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'api_key_id', 'idempotency_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export function findKey(db: Executor, id: KeyId): Promise<IdempotencyRecord | undefined> {
  return db.selectFrom('idempotency_keys').selectAll().where(keyIs(id)).executeTakeFirst();
}

/** Deletes the key if it has expired (`expires_at <= now`); true when it did. */
export async function deleteIfExpired(db: Executor, id: KeyId, now: string): Promise<boolean> {
  const result = await db.deleteFrom('idempotency_keys').where(keyIs(id)).where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Takes over a key whose request died in flight (its lock ran out): only if the lock is still the
 * one that was read, so of several requests doing this at once one wins.
 */
export async function takeOverAbandoned(db: Executor, id: KeyId, seenLockedUntil: string, lockedUntil: string): Promise<boolean> {
  const result = await db.updateTable('idempotency_keys').set({ locked_until: lockedUntil }).where(keyIs(id))
    .where('state', '=', 'in_flight')
    .where('locked_until', '=', seenLockedUntil)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stores the first request's answer: from now on it is replayed. */
export async function completeKey(
  db: Executor,
  id: KeyId,
  answer: { status: number; headers: string; body: string; fingerprint?: string | undefined },
): Promise<void> {
  await db.updateTable('idempotency_keys').set({
      // An upload's fingerprint is known only now that its file has been read.
      ...(answer.fingerprint === undefined ? {} : { fingerprint: answer.fingerprint }),
      state: 'complete',
      status_code: answer.status,
      response_headers: answer.headers,
      response_body: answer.body,
      locked_until: null,
    }).where(keyIs(id))
    .where('state', '=', 'in_flight')
    .execute();
}

/** Forgets a key still in flight (its request failed in a way a retry should redo: a 5xx). */
export async function releaseKey(db: Executor, id: KeyId): Promise<void> {
  await db.deleteFrom('idempotency_keys').where(keyIs(id)).where('state', '=', 'in_flight').execute();
}

/** Deletes an organization's expired keys; returns how many. */
export async function purgeExpiredKeys(db: Executor, organizationId: string, now: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('organization_id', '=', organizationId).where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
