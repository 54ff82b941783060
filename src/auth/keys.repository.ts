import { sql } from 'kysely';
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

/** A key and a row of another table read in the same statement (KeyRead.fromStore); null: no such row. */
export interface KeyWithRow {
  key: KeyColumns | undefined;
  row: Record<string, unknown> | null;
}

const NO_KEY: KeyWithRow = { key: undefined, row: null };
const KEY_AS = KEY_COLUMNS.map((c) => sql`k.${sql.ref(c)} as ${sql.ref(`key_${c}`)}`);

/**
 * The statements a route uses to read its record with the caller's key: the key by hash and, in
 * the key's own organization only, the row of `table` with the given id (`columns`, the first
 * never null), in one round trip. `many` answers several (key, id) pairs in one statement
 * (PostgreSQL: arrays), in their order; a pair whose key does not exist gets no key.
 */
export function keyWithRowReader(table: string, columns: readonly string[]) {
  const rowAs = columns.map((c) => sql`t.${sql.ref(c)}`);
  const answer = (row: Record<string, unknown>): KeyWithRow => {
    const key: Record<string, unknown> = {};
    for (const c of KEY_COLUMNS) key[c] = row[`key_${c}`];
    if (row[columns[0]!] === null) return { key: key as KeyColumns, row: null };
    const record: Record<string, unknown> = {};
    for (const c of columns) record[c] = row[c];
    return { key: key as KeyColumns, row: record };
  };
  const oneQuery = preparedQuery((db: Executor, keyHash: string, id: string) => ({
    compile: () =>
      sql<Record<string, unknown>>`select ${sql.join(KEY_AS)}, ${sql.join(rowAs)}
        from api_keys k left join ${sql.table(table)} t on t.organization_id = k.organization_id and t.id = ${id}
        where k.key_hash = ${keyHash}`.compile(db),
  }));
  const manyQuery = preparedQuery((db: Executor, keyHashes: string[], ids: string[]) => ({
    compile: () =>
      sql<Record<string, unknown>>`select r.i, ${sql.join(KEY_AS)}, ${sql.join(rowAs)}
        from unnest(cast(${keyHashes} as text[]), cast(${ids} as text[])) with ordinality as r(key_hash, row_id, i)
          join api_keys k on k.key_hash = r.key_hash
          left join ${sql.table(table)} t on t.organization_id = k.organization_id and t.id = r.row_id`.compile(db),
  }));
  return {
    async one(db: Executor, keyHash: string, id: string): Promise<KeyWithRow> {
      const row = (await oneQuery(db, keyHash, id))[0];
      return row ? answer(row) : NO_KEY;
    },
    async many(db: Executor, pairs: Array<{ keyHash: string; id: string }>): Promise<KeyWithRow[]> {
      const rows = await manyQuery(db, pairs.map((p) => p.keyHash), pairs.map((p) => p.id));
      const answers = new Array<KeyWithRow>(pairs.length).fill(NO_KEY);
      for (const row of rows) answers[Number(row.i) - 1] = answer(row);
      return answers;
    },
  };
}

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
