import { preparedQuery } from '../db/prepared.js';
import type { Executor } from '../shared/executor.js';
import type { ApiKeyRow } from '../db/types.js';

/** The key lookups authentication needs (by hash, last use), and the key writes other modules share. */

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
