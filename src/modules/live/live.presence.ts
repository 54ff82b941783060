import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * Who is on which ticket ("Dana is viewing / replying"), docs/api-behaviour.md#live-stream-and-presence.
 * Held in memory: an entry lives `ttlMs` after its last refresh, then is dropped and the ticket's new
 * list announced. With REDIS_URL every change is also published on one channel, and every process
 * applies the others' changes to its own copy, so a fleet's streams all see everyone. Nothing is
 * stored: a process that starts learns of an entry at its next refresh.
 */

export type PresenceState = 'viewing' | 'replying';

/** One caller on a ticket: a signed-in user (named by their full name) or an API key (by the key's name). */
export interface PresentUser {
  id: string;
  type: 'user' | 'api_key';
  name: string;
  state: PresenceState;
}

export interface PresenceUpdate {
  organizationId: string;
  ticketId: string;
  users: PresentUser[];
}

interface Entry extends PresentUser {
  expiresAt: number;
}

/** What crosses the Redis channel: one entry set (with its remaining life) or removed (null). */
interface BusMessage {
  origin: string;
  organization_id: string;
  ticket_id: string;
  who: string;
  entry: (PresentUser & { ttl_ms: number }) | null;
}

export class PresenceRegistry {
  private readonly orgs = new Map<string, Map<string, Map<string, Entry>>>();
  private readonly listeners = new Set<(update: PresenceUpdate) => void>();
  private readonly origin = randomUUID();
  private sweeper: NodeJS.Timeout | undefined;
  private bus: { publish(message: BusMessage): void; close(): Promise<void> } | null = null;

  constructor(private readonly ttlMs: number) {}

  /** Shares changes with the other processes through Redis pub/sub. */
  connectRedis(url: string, prefix: string, log: FastifyBaseLogger): void {
    const channel = `${prefix}presence`;
    const options = { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1, retryStrategy: (n: number) => Math.min(100 * 2 ** Math.min(n, 10), 5_000) };
    const pub = new Redis(url, options);
    const sub = new Redis(url, { ...options, maxRetriesPerRequest: null });
    let warned = false;
    const warn = (error: unknown): void => {
      if (warned) return;
      warned = true;
      log.warn({ err: error }, 'Redis unreachable: presence is shared within this process only until it is back');
    };
    pub.on('error', warn);
    sub.on('error', warn);
    sub.on('ready', () => (warned = false));
    sub.on('message', (_channel: string, text: string) => {
      try {
        const message = JSON.parse(text) as BusMessage;
        if (message.origin === this.origin) return;
        const e = message.entry;
        const entry = e && { id: e.id, type: e.type, name: e.name, state: e.state, expiresAt: Date.now() + Math.min(e.ttl_ms, this.ttlMs) };
        this.apply(message.organization_id, message.ticket_id, message.who, entry);
      } catch (error) {
        log.warn({ err: error }, 'A presence message from Redis could not be read');
      }
    });
    // Queued until connected (maxRetriesPerRequest: null), through reconnections; ioredis
    // subscribes again by itself after a reconnection.
    sub.subscribe(channel).catch(warn);
    this.bus = {
      publish: (message) => void pub.publish(channel, JSON.stringify(message)).catch(warn),
      close: async () => {
        sub.disconnect();
        await pub.quit().catch(() => pub.disconnect());
      },
    };
  }

  /** Sets (or, with `gone`, removes) the caller's presence on a ticket, here and on the other processes. */
  set(organizationId: string, ticketId: string, user: Omit<PresentUser, 'state'>, state: PresenceState | 'gone'): void {
    const who = `${user.type}:${user.id}`;
    const entry = state === 'gone' ? null : { ...user, state, expiresAt: Date.now() + this.ttlMs };
    this.apply(organizationId, ticketId, who, entry);
    this.bus?.publish({
      origin: this.origin,
      organization_id: organizationId,
      ticket_id: ticketId,
      who,
      entry: entry && { id: user.id, type: user.type, name: user.name, state: entry.state, ttl_ms: this.ttlMs },
    });
  }

  /** Every ticket of the organization with someone on it now. */
  snapshot(organizationId: string): PresenceUpdate[] {
    const tickets = this.orgs.get(organizationId);
    if (!tickets) return [];
    return [...tickets.keys()].map((ticketId) => ({ organizationId, ticketId, users: this.usersOf(organizationId, ticketId) }));
  }

  onChange(listener: (update: PresenceUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.listeners.clear();
    await this.bus?.close();
    this.bus = null;
  }

  private apply(organizationId: string, ticketId: string, who: string, entry: Entry | null): void {
    let tickets = this.orgs.get(organizationId);
    const before = tickets?.get(ticketId)?.get(who);
    if (entry === null) {
      if (!before) return;
      tickets!.get(ticketId)!.delete(who);
      this.prune(organizationId, ticketId);
    } else {
      if (!tickets) this.orgs.set(organizationId, (tickets = new Map<string, Map<string, Entry>>()));
      let people = tickets.get(ticketId);
      if (!people) tickets.set(ticketId, (people = new Map<string, Entry>()));
      people.set(who, entry);
      this.startSweeping();
      // A refresh that changes nothing visible is not announced again.
      if (before && before.state === entry.state && before.name === entry.name) return;
    }
    this.announce(organizationId, ticketId);
  }

  private usersOf(organizationId: string, ticketId: string): PresentUser[] {
    const people = this.orgs.get(organizationId)?.get(ticketId);
    if (!people) return [];
    return [...people.values()]
      .map(({ id, type, name, state }) => ({ id, type, name, state }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  private announce(organizationId: string, ticketId: string): void {
    const update = { organizationId, ticketId, users: this.usersOf(organizationId, ticketId) };
    for (const listener of this.listeners) listener(update);
  }

  private prune(organizationId: string, ticketId: string): void {
    const tickets = this.orgs.get(organizationId);
    if (tickets?.get(ticketId)?.size === 0) tickets.delete(ticketId);
    if (tickets?.size === 0) this.orgs.delete(organizationId);
  }

  /** Drops expired entries (a timer only while there are entries). */
  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), Math.max(50, Math.min(1_000, this.ttlMs / 4))).unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [organizationId, tickets] of [...this.orgs]) {
      for (const [ticketId, people] of [...tickets]) {
        let changed = false;
        for (const [who, entry] of [...people]) {
          if (entry.expiresAt <= now) changed = people.delete(who) || changed;
        }
        if (!changed) continue;
        this.prune(organizationId, ticketId);
        this.announce(organizationId, ticketId);
      }
    }
    if (this.orgs.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}
