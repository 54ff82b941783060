import type { Updateable } from 'kysely';
import type { ApiKeyRow, ApiKeysTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { paged, CREATED_ASC, type SortKey, type Page } from '../../shared/pagination.js';
import type { KeyStatus } from './api-keys.schemas.js';

/** Every column but the organization and the hash: the hash never leaves the authentication path. */
export type ApiKeyColumns = Omit<ApiKeyRow, 'organization_id' | 'key_hash'>;

const COLUMNS = [
  'id',
  'name',
  'key_prefix',
  'role',
  'scopes',
  'holder_user_id',
  'created_at',
  'expires_at',
  'last_used_at',
  'revoked_at',
] as const;

export interface ApiKeyFilter {
  role?: 'admin' | 'readonly' | undefined;
  holderUserId?: string | undefined;
  status?: KeyStatus | undefined;
  /** Set for a read-only caller: only its own key and the keys of its holder (a session: its user's keys). */
  visibleTo?: { keyId: string | null; holderUserId: string | null } | undefined;
  /** The current time (ISO), against which `expired` and `active` are judged. */
  now: string;
}

/** The key; with `lock`, locked until the transaction ends (see forUpdate). */
export function findApiKey(db: Executor, organizationId: string, id: string, lock = false): Promise<ApiKeyColumns | undefined> {
  const query = db.selectFrom('api_keys').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

/** Keys of the organization whose prefix starts with `prefix` (at most `limit`), for the CLI. */
export function findApiKeysByPrefix(db: Executor, organizationId: string, prefix: string, limit: number): Promise<ApiKeyColumns[]> {
  return db
    .selectFrom('api_keys')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    // key_prefix is [A-Za-z0-9_] only, but `_` is a LIKE wildcard: compare a slice exactly instead.
    .where((eb) => eb(eb.fn('substr', ['key_prefix', eb.lit(1), eb.lit(prefix.length)]), '=', prefix))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Newest first, ties broken by id. */
export const KEYS_ORDER: SortKey<{ created_at: string; id: string }> = { ...CREATED_ASC, direction: 'desc' };

/** One page of the organization's keys, newest first (served by api_keys_org_created_idx). */
export function listApiKeys(db: Executor, organizationId: string, filter: ApiKeyFilter, page: Page): Promise<ApiKeyColumns[]> {
  let query = db.selectFrom('api_keys').select(COLUMNS).where('organization_id', '=', organizationId);
  const visible = filter.visibleTo;
  if (visible) {
    const { keyId, holderUserId } = visible;
    query = query.where((eb) =>
      eb.or([
        ...(keyId === null ? [] : [eb('id', '=', keyId)]),
        ...(holderUserId === null ? [] : [eb('holder_user_id', '=', holderUserId)]),
      ]),
    );
  }
  if (filter.role !== undefined) query = query.where('role', '=', filter.role);
  if (filter.holderUserId !== undefined) query = query.where('holder_user_id', '=', filter.holderUserId);
  switch (filter.status) {
    case 'revoked':
      query = query.where('revoked_at', 'is not', null);
      break;
    case 'expired':
      query = query.where('revoked_at', 'is', null).where('expires_at', 'is not', null).where('expires_at', '<=', filter.now);
      break;
    case 'active':
      query = query
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', filter.now)]));
      break;
    case undefined:
      break;
  }
  return query.$call(paged(page, KEYS_ORDER)).execute();
}

export async function updateApiKey(
  db: Executor,
  organizationId: string,
  id: string,
  changes: Pick<Updateable<ApiKeysTable>, 'name' | 'scopes' | 'holder_user_id' | 'expires_at'>,
): Promise<void> {
  await db.updateTable('api_keys').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Sets `revoked_at` unless the key is already revoked; true when this call revoked it. */
export async function revokeApiKey(db: Executor, organizationId: string, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
