import { hashApiKey, isWellFormedApiKey } from '../../auth/api-keys.js';
import { findApiKeyByHash } from '../../auth/api-keys.repository.js';
import { createApiKey, resolveScopes } from '../../auth/api-keys.service.js';
import type { AuthContext } from '../../auth/authenticate.js';
import { ALL_SCOPES, READ_SCOPES, type Scope } from '../../auth/scopes.js';
import type { Store } from '../../db/store.js';
import { errors, type FieldError } from '../../errors.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso, toIsoOrNull } from '../../shared/time.js';
import { userExists } from '../users/users.repository.js';
import {
  findApiKey,
  findApiKeysByPrefix,
  listApiKeys as listApiKeyRows,
  revokeApiKey,
  updateApiKey,
  type ApiKeyColumns,
} from './api-keys.repository.js';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey, ListApiKeysQuery, UpdateApiKeyBody } from './api-keys.schemas.js';

export interface ApiKeyDeps {
  store: Store;
}

/** The calling key, as far as key management needs it. */
export type Caller = Pick<AuthContext, 'keyId' | 'organizationId' | 'role' | 'scopes' | 'holderUserId'>;

/** The public shape of a key row: never the hash, never the plain key. */
export function presentApiKey(row: ApiKeyColumns): ApiKey {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.key_prefix,
    role: row.role,
    scopes: JSON.parse(row.scopes) as string[],
    holder_user_id: row.holder_user_id,
    created_at: toIso(row.created_at),
    expires_at: toIsoOrNull(row.expires_at),
    last_used_at: toIsoOrNull(row.last_used_at),
    revoked_at: toIsoOrNull(row.revoked_at),
  };
}

/** An admin key sees every key of its organization; a read-only key itself and its holder's keys (spec §5.6). */
function canSee(caller: Caller, row: ApiKeyColumns): boolean {
  if (caller.role === 'admin') return true;
  return row.id === caller.keyId || (caller.holderUserId !== null && row.holder_user_id === caller.holderUserId);
}

/** The key, or a 404 that looks the same whether it is missing, another organization's or not visible. */
async function getVisibleKey(db: Executor, caller: Caller, id: string): Promise<ApiKeyColumns> {
  // Ids are stored lower-case; a UUID is the same id in either case.
  const row = await findApiKey(db, caller.organizationId, id.toLowerCase());
  if (!row || !canSee(caller, row)) throw errors.notFound('API key');
  return row;
}

const isExpired = (row: ApiKeyColumns, now: number): boolean => {
  const expiresAt = toIsoOrNull(row.expires_at);
  return expiresAt !== null && Date.parse(expiresAt) <= now;
};

/** A key can hand out only scopes it holds itself, so no key can mint a stronger one (403 naming the scope). */
function assertCanGrant(caller: Caller, scopes: readonly string[]): void {
  const missing = scopes.find((s) => !caller.scopes.has(s));
  if (missing !== undefined) throw errors.forbidden(missing);
}

function assertFuture(expiresAt: string | null | undefined): void {
  if (expiresAt !== undefined && expiresAt !== null && Date.parse(expiresAt) <= Date.now()) {
    throw errors.invalidField('body.expires_at', 'must be in the future');
  }
}

async function assertHolder(db: Executor, organizationId: string, holderUserId: string | null | undefined): Promise<void> {
  if (holderUserId !== undefined && holderUserId !== null && !(await userExists(db, organizationId, holderUserId))) {
    throw errors.invalidField('body.holder_user_id', 'does not name a user of this organization');
  }
}

export async function listApiKeys(deps: ApiKeyDeps, caller: Caller, query: ListApiKeysQuery, page: Page): Promise<ApiKey[]> {
  const rows = await listApiKeyRows(
    deps.store.db,
    caller.organizationId,
    {
      role: query.role,
      holderUserId: query.holder_user_id,
      status: query.status,
      visibleTo: caller.role === 'admin' ? undefined : { keyId: caller.keyId, holderUserId: caller.holderUserId },
      now: nowIso(),
    },
    page,
  );
  return rows.map(presentApiKey);
}

export async function getApiKey(deps: ApiKeyDeps, caller: Caller, id: string): Promise<ApiKey> {
  return presentApiKey(await getVisibleKey(deps.store.db, caller, id));
}

/**
 * Creates a key (the route admits admin keys only). Without `scopes` the new key gets every scope
 * its role allows that the caller holds, which for an unrestricted admin key is every such scope.
 */
export async function createKey(deps: ApiKeyDeps, caller: Caller, body: CreateApiKeyBody): Promise<CreatedApiKey> {
  const allowed: readonly Scope[] = body.role === 'admin' ? ALL_SCOPES : READ_SCOPES;
  const scopes = body.scopes === undefined ? allowed.filter((s) => caller.scopes.has(s)) : resolveScopes(body.role, body.scopes);
  if (body.role === 'readonly' && body.expires_at !== undefined) {
    throw errors.invalidField('body.expires_at', 'cannot be set: a read-only key always expires 72 hours after creation');
  }
  assertFuture(body.expires_at);
  assertCanGrant(caller, scopes);
  return deps.store.db.transaction().execute(async (trx) => {
    await assertHolder(trx, caller.organizationId, body.holder_user_id);
    const { key, record } = await createApiKey(trx, {
      organizationId: caller.organizationId,
      role: body.role,
      name: body.name,
      scopes,
      holderUserId: body.holder_user_id ?? null,
      expiresAt: body.expires_at ?? null,
    });
    return { ...presentApiKey(record), key };
  });
}

/**
 * Edits a live key (the route admits admin keys only). Of a read-only key only the name may change:
 * its scopes and settings are fixed at creation (spec §5.6). A revoked or expired key is final.
 */
export async function updateKey(deps: ApiKeyDeps, caller: Caller, id: string, body: UpdateApiKeyBody): Promise<ApiKey> {
  const { db } = deps.store;
  return db.transaction().execute(async (trx) => {
    const row = await getVisibleKey(trx, caller, id);
    if (row.revoked_at !== null) throw errors.conflict('The API key is revoked; a revoked key cannot be changed');
    if (isExpired(row, Date.now())) throw errors.conflict('The API key has expired; an expired key cannot be changed');
    if (row.role === 'readonly') {
      const fixed: FieldError[] = (['scopes', 'expires_at', 'holder_user_id'] as const)
        .filter((field) => body[field] !== undefined)
        .map((field) => ({ field: `body.${field}`, message: 'cannot be changed on a read-only key; only its name can' }));
      if (fixed.length > 0) throw errors.validation(fixed);
    }
    const changes: Parameters<typeof updateApiKey>[3] = {};
    if (body.scopes !== undefined) {
      const scopes = resolveScopes('admin', body.scopes);
      assertCanGrant(caller, scopes);
      changes.scopes = JSON.stringify(scopes);
    }
    if (body.expires_at !== undefined) {
      assertFuture(body.expires_at);
      changes.expires_at = body.expires_at === null ? null : toIso(body.expires_at);
    }
    if (body.holder_user_id !== undefined) {
      await assertHolder(trx, caller.organizationId, body.holder_user_id);
      changes.holder_user_id = body.holder_user_id;
    }
    if (body.name !== undefined) changes.name = body.name;
    if (Object.keys(changes).length > 0) await updateApiKey(trx, caller.organizationId, row.id, changes);
    return presentApiKey(await getVisibleKey(trx, caller, row.id));
  });
}

/**
 * Revokes a key: `revoked_at` is set and the row stays, so lists can show it; the key is refused
 * (401) from the next request on. Revoking a revoked key changes nothing. The route admits admin
 * keys, and read-only keys on themselves only.
 */
export async function revokeKey(deps: ApiKeyDeps, caller: Caller, id: string): Promise<void> {
  const { db } = deps.store;
  const row = await getVisibleKey(db, caller, id);
  if (row.revoked_at === null) await revokeApiKey(db, caller.organizationId, row.id, nowIso());
}

// The operator's side (`ticketing keys list|revoke`): the store's owner acts on a whole organization.

/** Every key of the organization, newest first. */
export async function listOrganizationKeys(db: Executor, organizationId: string): Promise<ApiKey[]> {
  const out: ApiKey[] = [];
  const limit = 500;
  for (let offset = 0; ; offset += limit) {
    const rows = await listApiKeyRows(db, organizationId, { now: nowIso() }, { limit, offset });
    out.push(...rows.map(presentApiKey));
    if (rows.length < limit) return out;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The keys of the organization a reference names: a key id, the whole key, or the start of its
 * key_prefix (at least the type prefix and one character). More than one match is ambiguous.
 */
export async function findOrganizationKeys(db: Executor, organizationId: string, reference: string): Promise<ApiKey[]> {
  if (UUID.test(reference)) {
    const row = await findApiKey(db, organizationId, reference.toLowerCase());
    return row ? [presentApiKey(row)] : [];
  }
  if (isWellFormedApiKey(reference)) {
    const row = await findApiKeyByHash(db, hashApiKey(reference));
    return row && row.organization_id === organizationId ? [presentApiKey(row)] : [];
  }
  if (!/^(key_admin_|key_ro_)[0-9A-Za-z]{1,6}$/.test(reference)) return [];
  return (await findApiKeysByPrefix(db, organizationId, reference, 10)).map(presentApiKey);
}

/** Revokes the key unless it is already revoked; true when this call revoked it. */
export function revokeOrganizationKey(db: Executor, organizationId: string, id: string): Promise<boolean> {
  return revokeApiKey(db, organizationId, id, nowIso());
}
