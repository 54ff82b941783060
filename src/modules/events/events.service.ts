import type { AuthContext } from '../../auth/authenticate.js';
import type { Store } from '../../db/store.js';
import { errors } from '../../errors.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { toIso } from '../../shared/time.js';
import { getTicketRow } from '../tickets/tickets.service.js';
import {
  eventsAfter,
  feedHead,
  oldestRetainedPosition,
  ticketEvents,
  type EventColumns,
} from './events.repository.js';
import { visibleResourceTypes } from './events.visibility.js';
import { EVENT_TYPES, isEventType, type Event, type FeedPage, type FeedQuery, type ResourceType, type TicketEventsQuery } from './events.schemas.js';

export interface EventDeps {
  store: Store;
}

/** The public shape of an event row. */
export function presentEvent(row: EventColumns): Event {
  const data = JSON.parse(row.data) as { object: Record<string, unknown>; changes: Event['changes'] };
  return {
    id: row.id,
    cursor: String(row.position),
    type: row.type as Event['type'],
    occurred_at: toIso(row.occurred_at),
    actor: {
      type: row.actor_type,
      api_key_id: row.actor_type === 'api_key' ? row.actor_id : null,
      user_id: row.actor_user_id,
      customer_id: row.actor_type === 'customer' ? row.actor_id : null,
      ...(row.actor_type === 'trigger' ? { trigger_id: row.actor_id! } : row.actor_type === 'automation' ? { automation_id: row.actor_id! } : {}),
    },
    resource_type: row.resource_type as Event['resource_type'],
    resource_id: row.resource_id,
    ticket_id: row.ticket_id,
    object: data.object,
    changes: data.changes ?? null,
  };
}

/** `a,b,c` as a list of known event types; an unknown one is a 422 naming the parameter. */
export function parseTypes(value: string | undefined, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  const types = [...new Set(value.split(',').map((t) => t.trim()).filter((t) => t.length > 0))];
  const unknown = types.filter((t) => !isEventType(t));
  if (types.length === 0 || unknown.length > 0) {
    throw errors.invalidField(field, `must be a comma-separated list of event types (${EVENT_TYPES.join(', ')}); unknown: ${unknown.join(', ') || '(none given)'}`);
  }
  return types;
}

/**
 * One page of the change feed: the events after the cursor, in commit order. Everything is read
 * in one snapshot (a repeatable-read transaction on PostgreSQL, a read transaction on SQLite), so
 * `next_cursor` — the last event returned, or the feed's head when the page reaches the end — skips
 * nothing: events filtered out (by `types`, or as the key may not see them) are passed over,
 * events not yet committed are not.
 */
export async function readFeed(deps: EventDeps, auth: Pick<AuthContext, 'organizationId' | 'role' | 'scopes'>, query: FeedQuery): Promise<FeedPage> {
  const { organizationId } = auth;
  const types = parseTypes(query.types, 'query.types');
  // Only the events of resources the key may read (docs/api-behaviour.md#who-sees-which-events);
  // filtered in the query, so a page is full and its cursor passes over the others.
  const resourceTypes = visibleResourceTypes(auth);
  // `now` is the head as of this read's snapshot: nothing before it, nothing after it skipped.
  const fromNow = query.after === 'now';
  const after = query.after === undefined || fromNow ? 0 : Number(query.after);
  return deps.store.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const head = await feedHead(trx, organizationId);
      if (fromNow) return { events: [], next_cursor: String(head), has_more: false };
      if (after > head) {
        throw errors.invalidField('query.after', 'is not a cursor of this feed: it is ahead of the newest event');
      }
      await assertRetained(trx, organizationId, after, head);
      const rows = resourceTypes.length === 0 ? [] : await eventsAfter(trx, organizationId, after, { resourceTypes, types }, query.limit + 1);
      const hasMore = rows.length > query.limit;
      const page = rows.slice(0, query.limit);
      const next = hasMore ? Number(page[page.length - 1]!.position) : head;
      return { events: page.map(presentEvent), next_cursor: String(next), has_more: hasMore };
    });
}

/**
 * 410 when events after the cursor were pruned (retention), so a client that fell behind learns
 * that it missed some instead of silently going on. Pruning removes the oldest events first, so
 * the events kept are always the positions after some point: one look at the oldest one tells.
 */
async function assertRetained(db: Executor, organizationId: string, after: number, head: number): Promise<void> {
  if (after === head) return;
  const oldest = (await oldestRetainedPosition(db, organizationId)) ?? head + 1;
  if (after + 1 < oldest) {
    throw errors.gone(
      `Events after this cursor are no longer kept (events are kept for a limited time); the oldest kept has cursor ${oldest}. ` +
        'Resynchronize, then follow the feed again from a new cursor.',
    );
  }
}

/** What a ticket's history holds: the events of the ticket, its comments and its attachments. */
const HISTORY_RESOURCES: readonly ResourceType[] = ['ticket', 'comment', 'attachment'];

/**
 * A ticket's history, oldest first: its own events and those of its comments and attachments
 * (as far as the key may read them). 404 for a ticket that does not exist (any more).
 */
export async function ticketHistory(
  deps: EventDeps,
  auth: Pick<AuthContext, 'organizationId' | 'role' | 'scopes'>,
  ticketId: string,
  query: TicketEventsQuery,
  page: Page,
): Promise<Event[]> {
  const types = parseTypes(query.types, 'query.types');
  const { db } = deps.store;
  await getTicketRow(db, auth.organizationId, ticketId);
  const resourceTypes = visibleResourceTypes(auth).filter((r) => HISTORY_RESOURCES.includes(r));
  const rows = await ticketEvents(db, auth.organizationId, ticketId, { resourceTypes, types }, page);
  return rows.map(presentEvent);
}
