import type { Kysely } from 'kysely';
import { hashApiKey, isWellFormedApiKey } from '../../auth/key-format.js';
import { findApiKeyByHash } from '../../auth/keys.repository.js';
import { createApiKey, READONLY_KEY_LIFETIME_MS, resolveScopes } from '../../auth/keys.service.js';
import type { AuthContext } from '../../auth/authenticate.js';
import { ALL_SCOPES, READ_SCOPES, type Scope } from '../../auth/scopes.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { Database } from '../../db/types.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import { errors, type FieldError } from '../../errors.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso, toIsoOrNull } from '../../shared/time.js';
import { actorOf, changesBetween, SYSTEM_ACTOR, withEvents, type EventLog, type NewEvent } from '../events/events.log.js';
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
import { UUID_PATTERN } from '../../shared/validation.js';

export interface ApiKeyDeps {
  store: Store;
  config: { caps: Pick<Config['caps'], 'apiKeys'> };
}

/** The calling key, as far as key management needs it. */
export type Caller = Pick<AuthContext, 'keyId' | 'organizationId' | 'role' | 'scopes' | 'holderUserId' | 'expiresAt'>;

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

/** An admin key sees every key of its organization; a read-only key itself and its holder's keys (docs/api-behaviour.md#api-key-management-v1api-keys). */
function canSee(caller: Caller, row: ApiKeyColumns): boolean {
  if (caller.role === 'admin') return true;
  return (caller.keyId !== null && row.id === caller.keyId) || (caller.holderUserId !== null && row.holder_user_id === caller.holderUserId);
}

/** The key, or a 404 that looks the same whether it is missing, another organization's or not visible. */
async function getVisibleKey(db: Executor, caller: Caller, id: string, lock = false): Promise<ApiKeyColumns> {
  // Ids are stored lower-case; a UUID is the same id in either case.
  const row = await findApiKey(db, caller.organizationId, id.toLowerCase(), lock);
  if (!row || !canSee(caller, row)) throw errors.notFound('API key');
  return row;
}

const isExpired = (row: ApiKeyColumns, now: number): boolean => {
  const expiresAt = toIsoOrNull(row.expires_at);
  return expiresAt !== null && Date.parse(expiresAt) <= now;
};

/** What key authority looks at: a key's scopes and its expiry (null: never). */
interface KeyReach {
  scopes: readonly string[];
  expiresAt: string | null;
}

const reachOf = (row: ApiKeyColumns): KeyReach => ({ scopes: JSON.parse(row.scopes) as string[], expiresAt: toIsoOrNull(row.expires_at) });

/**
 * Key authority (docs/api-behaviour.md#api-key-management-v1api-keys): a key may create, change or revoke only keys whose scopes are a
 * subset of its own and whose expiry is no later than its own (never expiring counts as latest).
 * Checked on the target key as it is and as it would become, so a narrow or short-lived key can
 * neither touch a stronger key nor make one, itself included: it can never widen its own scopes or
 * extend its own expiry. 403 naming what the caller lacks. The CLI (the operator) is not bound.
 */
function assertAuthority(caller: Caller, target: KeyReach): void {
  const missing = target.scopes.find((s) => !caller.scopes.has(s));
  if (missing !== undefined) throw errors.forbidden(missing);
  const limit = caller.expiresAt;
  if (limit !== null && (target.expiresAt === null || Date.parse(target.expiresAt) > Date.parse(limit))) {
    throw errors.keyOutlivesCaller(toIsoOrNull(target.expiresAt), limit);
  }
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
  const expiresAt = body.role === 'readonly' ? new Date(Date.now() + READONLY_KEY_LIFETIME_MS).toISOString() : (body.expires_at ?? null);
  assertAuthority(caller, { scopes, expiresAt: toIsoOrNull(expiresAt) });
  return withEvents(deps.store.db, caller.organizationId, actorOf(caller), async (trx, events) => {
    await assertHolder(trx, caller.organizationId, body.holder_user_id);
    const { key, record } = await createApiKey(trx, {
      organizationId: caller.organizationId,
      role: body.role,
      name: body.name,
      scopes,
      holderUserId: body.holder_user_id ?? null,
      expiresAt: body.expires_at ?? null,
      maxActive: deps.config.caps.apiKeys,
    });
    events.add(apiKeyCreated(record));
    return { ...presentApiKey(record), key };
  });
}

/**
 * Edits a live key (the route admits admin keys only). Of a read-only key only the name may change:
 * its scopes and settings are fixed at creation. A revoked or expired key is final.
 */
export async function updateKey(deps: ApiKeyDeps, caller: Caller, id: string, body: UpdateApiKeyBody, ifMatch?: IfMatch): Promise<ApiKey> {
  const { db } = deps.store;
  return withEvents(db, caller.organizationId, actorOf(caller), async (trx, events) => {
    const row = await getVisibleKey(trx, caller, id, true);
    assertIfMatch(ifMatch, presentApiKey(row), 'The API key');
    const current = reachOf(row);
    assertAuthority(caller, current);
    if (row.revoked_at !== null) throw errors.conflict('The API key is revoked; a revoked key cannot be changed');
    if (isExpired(row, Date.now())) throw errors.conflict('The API key has expired; an expired key cannot be changed');
    if (row.role === 'readonly') {
      const fixed: FieldError[] = (['scopes', 'expires_at', 'holder_user_id'] as const)
        .filter((field) => body[field] !== undefined)
        .map((field) => ({ field: `body.${field}`, message: 'cannot be changed on a read-only key; only its name can' }));
      if (fixed.length > 0) throw errors.validation(fixed);
    }
    const changes: Parameters<typeof updateApiKey>[3] = {};
    const scopes = body.scopes === undefined ? current.scopes : resolveScopes('admin', body.scopes);
    if (body.expires_at !== undefined) assertFuture(body.expires_at);
    const expiresAt = body.expires_at === undefined ? current.expiresAt : toIsoOrNull(body.expires_at);
    assertAuthority(caller, { scopes, expiresAt });
    if (body.scopes !== undefined) changes.scopes = JSON.stringify(scopes);
    if (body.expires_at !== undefined) changes.expires_at = expiresAt;
    if (body.holder_user_id !== undefined) {
      await assertHolder(trx, caller.organizationId, body.holder_user_id);
      changes.holder_user_id = body.holder_user_id;
    }
    if (body.name !== undefined) changes.name = body.name;
    if (Object.keys(changes).length === 0) return presentApiKey(row);
    await updateApiKey(trx, caller.organizationId, row.id, changes);
    const key = presentApiKey({ ...row, ...changes });
    const changed = changesBetween(presentApiKey(row), key);
    // Storing the values already there (the same name again) is no change: no event.
    if (changed) events.add({ type: 'api_key.updated', resourceType: 'api_key', resourceId: key.id, object: key, changes: changed });
    return key;
  });
}

/**
 * Revokes a key: `revoked_at` is set and the row stays, so lists can show it; the key is refused
 * (401) from the next request on. Revoking a revoked key changes nothing. The route admits admin
 * keys, and read-only keys on themselves only.
 */
export async function revokeKey(deps: ApiKeyDeps, caller: Caller, id: string, ifMatch?: IfMatch): Promise<void> {
  await withEvents(deps.store.db, caller.organizationId, actorOf(caller), async (trx, events) => {
    const row = await getVisibleKey(trx, caller, id, true);
    assertIfMatch(ifMatch, presentApiKey(row), 'The API key');
    // A key may always revoke itself; any other only within its authority.
    if (row.id !== caller.keyId) assertAuthority(caller, reachOf(row));
    await revokeWithEvent(trx, events, caller.organizationId, row);
  });
}

/** Revokes the key unless it is revoked already, with its `api_key.revoked` event; true when this call revoked it. */
async function revokeWithEvent(trx: Executor, events: EventLog, organizationId: string, row: ApiKeyColumns): Promise<boolean> {
  const now = nowIso();
  if (row.revoked_at !== null || !(await revokeApiKey(trx, organizationId, row.id, now))) return false;
  const key = presentApiKey({ ...row, revoked_at: now });
  events.add({ type: 'api_key.revoked', resourceType: 'api_key', resourceId: key.id, object: key, changes: { revoked_at: { old: null, new: key.revoked_at } }, occurredAt: now });
  return true;
}

/** `api_key.created` for a key just made (never its hash or plain key: the public record only). */
export function apiKeyCreated(record: ApiKeyColumns): NewEvent {
  return { type: 'api_key.created', resourceType: 'api_key', resourceId: record.id, object: presentApiKey(record), occurredAt: toIso(record.created_at) };
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

/**
 * The keys of the organization a reference names: a key id, the whole key, or the start of its
 * key_prefix (at least the type prefix and one character). More than one match is ambiguous.
 */
export async function findOrganizationKeys(db: Executor, organizationId: string, reference: string): Promise<ApiKey[]> {
  if (UUID_PATTERN.test(reference)) {
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

/** Revokes the key unless it is already revoked (the command line: the actor is `system`); true when this call revoked it. */
export function revokeOrganizationKey(db: Kysely<Database>, organizationId: string, id: string): Promise<boolean> {
  return withEvents(db, organizationId, SYSTEM_ACTOR, async (trx, events) => {
    const row = await findApiKey(trx, organizationId, id, true);
    return row !== undefined && revokeWithEvent(trx, events, organizationId, row);
  });
}
