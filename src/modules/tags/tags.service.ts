import type { Store } from '../../db/store.js';
import { errors } from '../../errors.js';
import type { Executor } from '../../shared/executor.js';
import type { Page, SortKey } from '../../shared/pagination.js';
import { changeTagCounts, countsOfTags, deleteTicketTags, insertTicketTags, listTagCountsQuery } from './tags.repository.js';
import { MAX_TAG_LENGTH, MAX_TAGS_PER_TICKET, type TagCount } from './tags.schemas.js';

const TAG = /^[a-z0-9_:.-]+$/;

/**
 * A list of tags as stored: lower-cased, checked, sorted, without duplicates (docs/api-behaviour.md,
 * Tags). A bad tag is a 422 naming its place, `<field>[<index>]`.
 */
export function normalizeTags(input: readonly string[], field: string): string[] {
  const tags = new Set<string>();
  input.forEach((raw, i) => {
    const tag = raw.toLowerCase();
    const at = `${field}[${i}]`;
    if (tag.length === 0 || tag.length > MAX_TAG_LENGTH) throw errors.invalidField(at, `Tag '${raw}' must be 1 to ${MAX_TAG_LENGTH} characters long`);
    if (!TAG.test(tag)) throw errors.invalidField(at, `Tag '${raw}' may only contain a-z 0-9 _ - : .`);
    tags.add(tag);
  });
  return sortedTags(tags, field);
}

function sortedTags(tags: Iterable<string>, field: string): string[] {
  const sorted = [...new Set(tags)].sort();
  if (sorted.length > MAX_TAGS_PER_TICKET) throw errors.invalidField(field, `A ticket has at most ${MAX_TAGS_PER_TICKET} tags; this would give it ${sorted.length}`);
  return sorted;
}

/** A query's `a,b`: the tags, checked as in a body, the error naming the parameter. */
export function tagsOfQuery(value: string | undefined, parameter: string): string[] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(',');
  const at = (i: number) => `${parameter}[${i}]`;
  const tags = parts.map((raw, i) => {
    const tag = raw.toLowerCase();
    if (tag.length === 0 || tag.length > MAX_TAG_LENGTH || !TAG.test(tag)) {
      throw errors.invalidField(at(i), `Tag '${raw}' must be 1 to ${MAX_TAG_LENGTH} characters of a-z 0-9 _ - : .`);
    }
    return tag;
  });
  return sortedTags(tags, parameter);
}

/**
 * The tags of a `tag` filter, the least used first: the list reads that tag's tickets and checks
 * the others on each, so the rarest makes the shortest read.
 */
export async function rarestFirst(db: Executor, organizationId: string, tags: string[] | undefined): Promise<string[] | undefined> {
  if (tags === undefined || tags.length < 2) return tags;
  const counts = await countsOfTags(db, organizationId, tags);
  return [...tags].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || (a < b ? -1 : 1));
}

export interface TagChange {
  tags?: readonly string[] | undefined;
  add_tags?: readonly string[] | undefined;
  remove_tags?: readonly string[] | undefined;
}

/** The tags a ticket has after a PATCH: `tags` replaces them all, or `add_tags` and `remove_tags` change some. */
export function tagsAfter(current: readonly string[], change: TagChange): string[] | undefined {
  if (change.tags !== undefined) {
    if (change.add_tags !== undefined || change.remove_tags !== undefined) {
      throw errors.invalidField('body.tags', 'cannot be combined with add_tags or remove_tags: send the whole set, or the changes');
    }
    return normalizeTags(change.tags, 'body.tags');
  }
  if (change.add_tags === undefined && change.remove_tags === undefined) return undefined;
  const added = normalizeTags(change.add_tags ?? [], 'body.add_tags');
  const removed = new Set(normalizeTags(change.remove_tags ?? [], 'body.remove_tags'));
  return sortedTags([...current, ...added].filter((tag) => !removed.has(tag)), 'body.add_tags');
}

/** A ticket's tags as stored on its row (a JSON array). */
export const tagsOfRow = (row: { tags: string }): string[] => JSON.parse(row.tags) as string[];

/**
 * Writes a ticket's change of tags, `before` to `after`: its tag rows and the organization's
 * counts, in the caller's transaction (which holds the ticket's lock).
 */
export async function writeTicketTags(
  trx: Executor,
  organizationId: string,
  ticket: { id: string; ticket_number: number },
  before: readonly string[],
  after: readonly string[],
): Promise<void> {
  const added = after.filter((tag) => !before.includes(tag));
  const removed = before.filter((tag) => !after.includes(tag));
  if (added.length === 0 && removed.length === 0) return;
  await deleteTicketTags(trx, organizationId, ticket.id, removed);
  await insertTicketTags(trx, organizationId, ticket, added);
  const deltas = new Map<string, number>();
  for (const tag of added) deltas.set(tag, 1);
  for (const tag of removed) deltas.set(tag, -1);
  await changeTagCounts(trx, organizationId, deltas);
}

/** Takes tickets' tags off the counts before the tickets are deleted (their tag rows go with them). */
export async function forgetTags(trx: Executor, organizationId: string, counts: ReadonlyMap<string, number>): Promise<void> {
  await changeTagCounts(trx, organizationId, new Map([...counts].map(([tag, n]) => [tag, -n])));
}

/** Most used first, then by name. The cursor is the last tag's (count, tag). */
export const TAG_ORDER: SortKey<TagCount> = {
  columns: ['ticket_count', 'tag'],
  types: ['number', 'text'],
  direction: 'desc',
  of: (tag) => [tag.ticket_count, tag.tag],
};

export async function listTags(store: Store, organizationId: string, page: Page): Promise<TagCount[]> {
  let after: [number, string] | undefined;
  if (page.after) {
    const [count, tag] = page.after;
    if (page.after.length !== 2 || typeof count !== 'number' || typeof tag !== 'string') {
      throw errors.invalidField('query.cursor', 'is not a cursor of this list: use the one from the Link header of the previous page');
    }
    after = [count, tag];
  }
  const rows = await listTagCountsQuery(store.db, organizationId, page, after).execute();
  return rows.map((r) => ({ tag: r.tag, ticket_count: Number(r.ticket_count) }));
}
