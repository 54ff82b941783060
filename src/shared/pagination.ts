import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { errors } from '../errors.js';

/** A cursor value: a column of a list's sort key (a timestamp or id as text, or a number). */
export type CursorValue = string | number;

export interface Page {
  limit: number;
  offset: number;
  /** With a cursor: the sort key of the last item of the previous page; the page starts after it. */
  after?: CursorValue[] | undefined;
}

/**
 * How a list is ordered, for keyset paging: the columns of its sort key (unique and never
 * changing, so a cursor neither skips nor repeats items when others are added or removed), the
 * direction, and how to read the key back from an item of the answer.
 */
export interface SortKey<T> {
  columns: readonly string[];
  types: readonly ('text' | 'number')[];
  direction: 'asc' | 'desc';
  of: (item: T) => CursorValue[];
}

/** Oldest first by creation, ties broken by id: most lists. */
export const CREATED_ASC: SortKey<{ created_at: string; id: string }> = {
  columns: ['created_at', 'id'],
  types: ['text', 'text'],
  direction: 'asc',
  of: (item) => [item.created_at, item.id],
};

const encodeCursor = (values: CursorValue[]): string => Buffer.from(JSON.stringify(values)).toString('base64url');

function decodeCursor(cursor: string): CursorValue[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  const ok = Array.isArray(values) && values.length > 0 && values.length <= 4 && values.every((v) => typeof v === 'string' || typeof v === 'number');
  if (!ok) throw invalidCursor();
  return values as CursorValue[];
}

const invalidCursor = () => errors.invalidField('query.cursor', 'is not a cursor of this list: use the one from the Link header of the previous page');

/**
 * Reads a page from `limit` and `offset`/`skip` (the same parameter under two names), or from
 * `cursor` (keyset paging), which cannot be combined with an offset.
 */
export function toPage(query: { limit: number; offset?: number | undefined; skip?: number | undefined; cursor?: string | undefined }): Page {
  if (query.offset !== undefined && query.skip !== undefined && query.offset !== query.skip) {
    throw errors.invalidField('query.skip', 'must equal offset when both are given (they are the same parameter)');
  }
  if (query.cursor !== undefined) {
    if (query.offset !== undefined || query.skip !== undefined) {
      throw errors.invalidField('query.cursor', 'cannot be combined with offset or skip: a cursor already says where the page starts');
    }
    return { limit: query.limit, offset: 0, after: decodeCursor(query.cursor) };
  }
  return { limit: query.limit, offset: query.offset ?? query.skip ?? 0 };
}

/**
 * The condition "after the cursor" in the list's order: a row-value comparison, which SQLite and
 * PostgreSQL both serve from an index on the sort key (after the organization). A cursor of
 * another shape (another list's, or made up) is a 422.
 */
export function afterCursor<T>(after: CursorValue[], key: SortKey<T>): RawBuilder<SqlBool> {
  if (after.length !== key.columns.length || after.some((v, i) => typeof v !== (key.types[i] === 'text' ? 'string' : 'number'))) {
    throw invalidCursor();
  }
  const columns = sql.join(key.columns.map((c) => sql.ref(c)));
  const values = sql.join(after.map((v) => sql`${v}`));
  return sql<SqlBool>`(${columns}) ${sql.raw(key.direction === 'asc' ? '>' : '<')} (${values})`;
}

/**
 * One page of a query in the list's order: after the cursor (if any), ordered by the sort key,
 * limited and offset. Apply with `.$call(paged(page, key))`.
 */
export function paged<T>(page: Page, key: SortKey<T>) {
  return <DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> => {
    let query = page.after ? qb.where(afterCursor(page.after, key)) : qb;
    for (const column of key.columns) query = query.orderBy(sql.ref(column), key.direction);
    return query.limit(page.limit).offset(page.offset);
  };
}

/**
 * Names the next page in a `Link: <...>; rel="next"` header (RFC 8288) when this page is full: the
 * same address with `cursor` set to the last item's sort key and `offset`/`skip` dropped. The
 * address is relative to the request's (as RFC 8288 allows), so it holds behind any proxy.
 * Returns the items, so a handler can end with it.
 */
export function withNextLink<T>(request: FastifyRequest, reply: FastifyReply, page: Page, items: T[], key: SortKey<T>): T[] {
  const last = items[items.length - 1];
  if (last === undefined || items.length < page.limit) return items;
  const [path, search = ''] = request.url.split('?', 2) as [string, string?];
  const params = new URLSearchParams(search);
  for (const name of ['offset', 'skip', 'cursor']) params.delete(name);
  params.set('cursor', encodeCursor(key.of(last)));
  void reply.header('link', `<${path}?${params.toString()}>; rel="next"`);
  return items;
}
