import { preparedQuery } from '../db/prepared.js';
import type { Executor } from '../shared/executor.js';
import type { ApiKeyRow } from '../db/types.js';

/** A key's record without its hash, which is only ever compared in SQL. */
export const KEY_COLUMNS = [
  'id', 'organization_id', 'name', 'role', 'scopes', 'key_prefix', 'holder_user_id',
  'created_at', 'expires_at', 'last_used_at', 'revoked_at',
] as const;

// Every authenticated request on PostgreSQL runs it: compiled once, a named statement there.
const findApiKeyByHashQuery = preparedQuery((db: Executor, keyHash: string) => db.selectFrom('api_keys').select(KEY_COLUMNS).where('key_hash', '=', keyHash));

export async function findApiKeyByHash(db: Executor, keyHash: string): Promise<KeyColumns | undefined> {
  return (await findApiKeyByHashQuery(db, keyHash))[0];
}

export type KeyColumns = Pick<ApiKeyRow, (typeof KEY_COLUMNS)[number]>;

export async function insertApiKey(db: Executor, row: Omit<ApiKeyRow, 'last_used_at' | 'revoked_at'>): Promise<void> {
  await db.insertInto('api_keys').values({ ...row, expires_at: row.expires_at as string | null, created_at: row.created_at as string }).execute();
}

export async function touchApiKey(db: Executor, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

export async function revokeKeysOfHolder(db: Executor, organizationId: string, userId: string, at: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('organization_id', '=', organizationId)
    .where('holder_user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Keys of the organization neither revoked nor expired at `now` (ISO): what MAX_API_KEYS_PER_ORG bounds. */
export async function countActiveApiKeys(db: Executor, organizationId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes keys revoked before `revokedBefore` or expired before `expiredBefore` (ISO), at most
 * `limit` at a time; resolves to how many. A deleted key is unknown: 401 like any other.
 */
export async function deleteOldApiKeys(db: Executor, revokedBefore: string, expiredBefore: string, limit: number): Promise<number> {
  const ids = db
    .selectFrom('api_keys')
    .select('id')
    .where((eb) => eb.or([eb('revoked_at', '<', revokedBefore), eb('expires_at', '<', expiredBefore)]))
    .limit(limit);
  const result = await db.deleteFrom('api_keys').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}
