import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Executor } from '../shared/executor.js';
import type { ApiKeyRow, Database } from '../db/types.js';
import { errors } from '../errors.js';
import { creationTimeIso } from '../shared/clock.js';
import { generateApiKey, type KeyRole } from './key-format.js';
import { assertBelowCap, type CollectionCap } from '../limits/collection-caps.js';
import { nowIso } from '../shared/time.js';
import { countActiveApiKeys, insertApiKey } from './keys.repository.js';
import { ALL_SCOPES, isReadScope, isScope, READ_SCOPES, type Scope } from './scopes.js';

/**
 * Issuing keys: a new key of a role with its scopes and lifetime, for the API (src/modules/api-keys/),
 * the CLI and new organizations. The key's API (list, rename, revoke) is src/modules/api-keys/.
 */

export const READONLY_KEY_LIFETIME_MS = 72 * 60 * 60 * 1000;

export interface NewApiKey {
  organizationId: string;
  role: KeyRole;
  name: string;
  scopes?: string[] | undefined;
  holderUserId?: string | null | undefined;
  /** Admin keys only; read-only keys always expire 72 hours after creation. */
  expiresAt?: string | null | undefined;
  /**
   * MAX_API_KEYS_PER_ORG (`config.caps.apiKeys`): the most active keys the organization may hold,
   * 422 past it. Every create on behalf of a client or the operator passes it; left out only by
   * the first key of an organization being created (it has none yet) and test or bench set-up.
   */
  maxActive?: number | undefined;
}

/** The cap on active API keys (src/limits/collection-caps.ts). */
export const apiKeysCap = (max: number): CollectionCap => ({
  collection: 'api_keys',
  max,
  setting: 'MAX_API_KEYS_PER_ORG',
  noun: 'active API keys',
  remedy: 'revoke some first',
});

/** Checks the scopes a key of this role may carry; the defaults when none are given. */
export function resolveScopes(role: KeyRole, scopes: string[] | undefined): Scope[] {
  if (scopes === undefined) return role === 'admin' ? [...ALL_SCOPES] : [...READ_SCOPES];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) throw errors.invalidField('body.scopes', `contains unknown scopes: ${unknown.join(', ')}`);
  if (role === 'readonly') {
    const forbidden = scopes.filter((s) => !isReadScope(s));
    if (forbidden.length > 0) {
      throw errors.invalidField('body.scopes', `a read-only key may carry only :read scopes, not ${forbidden.join(', ')}`);
    }
  }
  return [...new Set(scopes)] as Scope[];
}

/** Creates a key; the plain key is returned here once and is never stored or shown again. */
export async function createApiKey(
  db: Kysely<Database> | Transaction<Database>,
  input: NewApiKey,
): Promise<{ key: string; record: ApiKeyRow }> {
  const scopes = resolveScopes(input.role, input.scopes);
  const max = input.maxActive;
  if (max !== undefined) {
    // The count and the insert in one transaction, under the collection's lock.
    if (!db.isTransaction) return db.transaction().execute((trx) => createApiKey(trx, input));
    const count = (trx: Executor, organizationId: string) => countActiveApiKeys(trx, organizationId, nowIso());
    await assertBelowCap(db as Transaction<Database>, input.organizationId, apiKeysCap(max), count);
  }
  // Strictly increasing within the process, so key lists ordered by creation never tie.
  const createdAt = new Date(creationTimeIso());
  const expiresAt =
    input.role === 'readonly'
      ? new Date(createdAt.getTime() + READONLY_KEY_LIFETIME_MS).toISOString()
      : (input.expiresAt ?? null);
  const generated = generateApiKey(input.role);
  const record: ApiKeyRow = {
    id: randomUUID(),
    organization_id: input.organizationId,
    name: input.name,
    key_hash: generated.hash,
    key_prefix: generated.prefix,
    role: input.role,
    scopes: JSON.stringify(scopes),
    holder_user_id: input.holderUserId ?? null,
    created_at: createdAt.toISOString(),
    expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  await insertApiKey(db, record);
  return { key: generated.key, record };
}

