import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Store } from '../../db/store.js';
import { eventsAfter } from '../events/events.repository.js';
import { onEventsCommitted } from '../events/events.log.js';
import { RESOURCE_TYPES, type Event } from '../events/events.schemas.js';
import { presentEvent } from '../events/events.service.js';
import type { PresenceUpdate } from './live.presence.js';
import { feedHeads } from './live.repository.js';

/**
 * Follows the change feed for the open streams of this process (docs/api-behaviour.md#live-stream-and-presence).
 * One reader per organization with streams, however many streams it has: it reads the events after
 * the position its furthest-behind stream has seen, in commit order, and hands each stream those
 * it may see and has not seen. It reads when a transaction of this process commits events
 * (events.log.ts `onEventsCommitted`), and every `pollIntervalMs` it looks at the feeds' heads (one
 * statement for all organizations) to find what other processes of a fleet committed. The timer
 * runs only while streams are open; nothing is read for an organization without streams.
 */

/** One open stream, as the hub sees it. */
export interface Subscriber {
  auth: Pick<AuthContext, 'organizationId' | 'role' | 'scopes'>;
  /** The last feed position this stream has been given (or passed over). */
  position: number;
  /** The resource types whose events it may see (events.visibility.ts). */
  resourceTypes: ReadonlySet<string>;
  send(event: Event): void;
  /** Given presence changes of its organization; absent for a stream that may not read tickets. */
  presence?: ((update: PresenceUpdate) => void) | undefined;
}

interface Feed {
  subscribers: Set<Subscriber>;
  reading: Promise<void> | null;
  again: boolean;
}

const PAGE = 200;

export class LiveHub {
  private readonly feeds = new Map<string, Feed>();
  private poller: NodeJS.Timeout | undefined;
  private polling = false;
  private readonly stopListening: () => void;

  constructor(
    private readonly store: Store,
    private readonly pollIntervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.stopListening = onEventsCommitted((organizationId) => this.wake(organizationId));
  }

  /** Adds a stream; returns what removes it. It is given every event after its position. */
  subscribe(subscriber: Subscriber): () => void {
    const organizationId = subscriber.auth.organizationId;
    let feed = this.feeds.get(organizationId);
    if (!feed) this.feeds.set(organizationId, (feed = { subscribers: new Set(), reading: null, again: false }));
    feed.subscribers.add(subscriber);
    this.poller ??= setInterval(() => void this.poll(), this.pollIntervalMs).unref();
    // A stream that resumes from an earlier position is caught up at once.
    this.wake(organizationId);
    return () => {
      feed.subscribers.delete(subscriber);
      if (feed.subscribers.size === 0 && this.feeds.get(organizationId) === feed) this.feeds.delete(organizationId);
      if (this.feeds.size === 0) this.stopPolling();
    };
  }

  /** The streams of an organization (for presence, which does not come from the feed). */
  subscribersOf(organizationId: string): Iterable<Subscriber> {
    return this.feeds.get(organizationId)?.subscribers ?? [];
  }

  close(): void {
    this.stopListening();
    this.stopPolling();
    this.feeds.clear();
  }

  private stopPolling(): void {
    clearInterval(this.poller);
    this.poller = undefined;
  }

  /** Reads the organization's new events now, or right after the read in progress. */
  private wake(organizationId: string): void {
    const feed = this.feeds.get(organizationId);
    if (!feed) return;
    if (feed.reading) {
      feed.again = true;
      return;
    }
    feed.reading = (async () => {
      do {
        feed.again = false;
        try {
          await this.read(organizationId, feed);
        } catch (error) {
          // The next commit or poll tries again; a stream never sees an error for it.
          this.log.warn({ err: error, organization_id: organizationId }, 'Reading the change feed for live streams failed');
        }
      } while (feed.again && this.feeds.get(organizationId) === feed);
      feed.reading = null;
    })();
  }

  private async read(organizationId: string, feed: Feed): Promise<void> {
    for (;;) {
      if (feed.subscribers.size === 0) return;
      const from = Math.min(...[...feed.subscribers].map((s) => s.position));
      const rows = await eventsAfter(this.store.db, organizationId, from, { resourceTypes: RESOURCE_TYPES, types: undefined }, PAGE);
      if (rows.length === 0) return;
      for (const row of rows) {
        const position = Number(row.position);
        let event: Event | undefined;
        for (const subscriber of feed.subscribers) {
          if (subscriber.position >= position) continue;
          subscriber.position = position;
          if (!subscriber.resourceTypes.has(row.resource_type)) continue;
          event ??= presentEvent(row);
          subscriber.send(event);
        }
      }
      if (rows.length < PAGE) return;
    }
  }

  /** Finds events other processes committed: the heads of the followed feeds, in one statement. */
  private async poll(): Promise<void> {
    if (this.polling || this.feeds.size === 0) return;
    this.polling = true;
    try {
      const heads = await feedHeads(this.store.db, [...this.feeds.keys()]);
      for (const [organizationId, head] of heads) {
        const feed = this.feeds.get(organizationId);
        if (feed && [...feed.subscribers].some((s) => s.position < head)) this.wake(organizationId);
      }
    } catch (error) {
      this.log.warn({ err: error }, 'Polling the change feed for live streams failed');
    } finally {
      this.polling = false;
    }
  }
}
