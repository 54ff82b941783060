import { sql } from 'kysely';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';

/** A ticket's tag rows, one per tag (its number gives a tag filter the list's order). */
export async function insertTicketTags(db: Executor, organizationId: string, ticket: { id: string; ticket_number: number }, tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return;
  await db
    .insertInto('ticket_tags')
    .values(tags.map((tag) => ({ organization_id: organizationId, tag, ticket_number: ticket.ticket_number, ticket_id: ticket.id })))
    .execute();
}

export async function deleteTicketTags(db: Executor, organizationId: string, ticketId: string, tags: readonly string[]): Promise<void> {
  if (tags.length === 0) return;
  await db.deleteFrom('ticket_tags').where('organization_id', '=', organizationId).where('ticket_id', '=', ticketId).where('tag', 'in', tags).execute();
}

/**
 * Adds each delta to its tag's count, in the order of the tags (so two transactions never wait
 * for each other crosswise), and drops the counts that reached 0. Runs in the transaction that
 * changes the tickets' tags, so the counts are never off, however many change at once.
 */
export async function changeTagCounts(db: Executor, organizationId: string, deltas: ReadonlyMap<string, number>): Promise<void> {
  const tags = [...deltas.keys()].filter((tag) => deltas.get(tag) !== 0).sort();
  for (const tag of tags) {
    const delta = deltas.get(tag)!;
    if (delta > 0) {
      await db
        .insertInto('tag_counts')
        .values({ organization_id: organizationId, tag, ticket_count: delta })
        .onConflict((oc) => oc.columns(['organization_id', 'tag']).doUpdateSet({ ticket_count: sql`tag_counts.ticket_count + ${delta}` }))
        .execute();
    } else {
      await db
        .updateTable('tag_counts')
        .set({ ticket_count: sql`ticket_count - ${-delta}` })
        .where('organization_id', '=', organizationId)
        .where('tag', '=', tag)
        .execute();
    }
  }
  const dropped = tags.filter((tag) => deltas.get(tag)! < 0);
  if (dropped.length > 0) {
    await db.deleteFrom('tag_counts').where('organization_id', '=', organizationId).where('tag', 'in', dropped).where('ticket_count', '<=', 0).execute();
  }
}

/** How many of a customer's tickets carry each tag (to take them off the counts when the customer goes). */
export async function tagCountsOfCustomer(db: Executor, organizationId: string, customerId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('ticket_tags')
    .select(['ticket_tags.tag', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('ticket_tags.organization_id', '=', organizationId)
    .where('ticket_tags.ticket_id', 'in', (eb) =>
      eb.selectFrom('tickets').select('tickets.id').where('tickets.organization_id', '=', organizationId).where('tickets.customer_id', '=', customerId),
    )
    .groupBy('ticket_tags.tag')
    .execute();
  return new Map(rows.map((r) => [r.tag, Number(r.n)]));
}

/**
 * One page of the organization's tags, most used first, then by name: read in the order of
 * tag_counts_org_count_idx. `after` is the (count, tag) of the previous page's last tag.
 */
export function listTagCountsQuery(db: Executor, organizationId: string, page: Page, after?: [number, string]) {
  let query = db.selectFrom('tag_counts').select(['tag', 'ticket_count']).where('organization_id', '=', organizationId);
  if (after) {
    const [count, tag] = after;
    query = query.where((eb) => eb.or([eb('ticket_count', '<', count), eb.and([eb('ticket_count', '=', count), eb('tag', '>', tag)])]));
  }
  return query.orderBy('ticket_count', 'desc').orderBy('tag', 'asc').limit(page.limit).offset(page.offset);
}

/** How many tickets carry each of `tags` (a tag no ticket carries is absent). */
export async function countsOfTags(db: Executor, organizationId: string, tags: readonly string[]): Promise<Map<string, number>> {
  if (tags.length === 0) return new Map();
  const rows = await db.selectFrom('tag_counts').select(['tag', 'ticket_count']).where('organization_id', '=', organizationId).where('tag', 'in', tags).execute();
  return new Map(rows.map((r) => [r.tag, Number(r.ticket_count)]));
}
