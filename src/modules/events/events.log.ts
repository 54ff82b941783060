import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Kysely, Transaction } from 'kysely';
import type { AuthContext } from '../../auth/authenticate.js';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../shared/time.js';
import {
  appendEvents,
  insertEvents,
  positionWrittenEvents,
  takeEventPositions,
  type EventStamp,
  type UnpositionedEventRow,
} from './events.repository.js';
import type { EventType, ResourceType } from './events.schemas.js';
import { withoutSecrets } from './events.visibility.js';

/**
 * The event log as services write it: every change appends its events in the transaction that
 * makes the change, so no change commits without its events and no event outlives a rollback.
 *
 *   await withEvents(db, organizationId, actor, async (trx, events) => {
 *     ...the change...
 *     events.add({ type: 'ticket.updated', ... });
 *   });
 *
 * Events are positioned in their organization's feed as the very last thing before the commit
 * (events.repository.ts `takeEventPositions`), which makes positions follow commit order without
 * gaps on both stores; a cursor over them never skips or repeats an event.
 */

/** Who made a change. */
export type Actor =
  | { type: 'api_key'; apiKeyId: string; userId: string | null }
  | { type: 'user'; userId: string }
  | { type: 'customer'; customerId: string }
  | { type: 'system' }
  /** A trigger's or an automation's changes: the trigger worker never runs triggers on them. */
  | { type: 'trigger'; triggerId: string }
  | { type: 'automation'; automationId: string };

/** The command line and the service's own background work. */
export const SYSTEM_ACTOR: Actor = { type: 'system' };

/** The caller of an API request: its key and the key's holder, or a signed-in session's user. */
export function actorOf(auth: Pick<AuthContext, 'keyId' | 'holderUserId'>): Actor {
  if (auth.keyId === null) return { type: 'user', userId: auth.holderUserId! };
  return { type: 'api_key', apiKeyId: auth.keyId, userId: auth.holderUserId };
}

/**
 * Field-by-field changes of an update: old and new values as the API shows them; a secret field
 * (a ticket's tracking_token) only says that it changed.
 */
export type Changes = Record<string, { old: unknown; new: unknown } | { changed: true }>;

export interface NewEvent {
  type: EventType;
  resourceType: ResourceType;
  resourceId: string;
  /** The ticket the record belongs to (tickets, comments, attachments). */
  ticketId?: string | null;
  /** The record as the API shows it: after the change, or as it was for a deletion. */
  object: object;
  changes?: Changes | null;
  /** When the change was made; the record's own timestamp where it has one. Default: now. */
  occurredAt?: string;
}

/**
 * The fields whose value differs between two presentations of a record, `updated_at` left out (it
 * moves with every change). Null when nothing changed: then there is no update and no event.
 */
export function changesBetween(before: object, after: object, ignore: readonly string[] = ['updated_at']): Changes | null {
  const changes: Changes = {};
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (ignore.includes(key)) continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) changes[key] = { old: a[key] ?? null, new: b[key] ?? null };
  }
  return Object.keys(changes).length > 0 ? changes : null;
}

function actorIdOf(actor: Actor): string | null {
  switch (actor.type) {
    case 'api_key':
      return actor.apiKeyId;
    case 'customer':
      return actor.customerId;
    case 'user':
      return actor.userId;
    case 'trigger':
      return actor.triggerId;
    case 'automation':
      return actor.automationId;
    default:
      return null;
  }
}

function stampOf(organizationId: string, actor: Actor, occurredAt: string): EventStamp {
  return {
    organizationId,
    actorType: actor.type,
    actorId: actorIdOf(actor),
    actorUserId: actor.type === 'api_key' || actor.type === 'user' ? actor.userId : null,
    occurredAt,
  };
}

/**
 * An event as the row that stores it, without its position (given when it is appended). For a
 * statement that writes a change and its events at once (tickets.create-batch.repository.ts
 * `insertTicketGroup`); a transaction's events otherwise go through its EventLog.
 */
export function eventRowOf(organizationId: string, actor: Actor, event: NewEvent): UnpositionedEventRow {
  const occurredAt = event.occurredAt ?? nowIso();
  const stamp = stampOf(organizationId, actor, occurredAt);
  return {
    id: randomUUID(),
    organization_id: organizationId,
    type: event.type,
    occurred_at: occurredAt,
    actor_type: stamp.actorType,
    actor_id: stamp.actorId,
    actor_user_id: stamp.actorUserId,
    resource_type: event.resourceType,
    resource_id: event.resourceId,
    ticket_id: event.ticketId ?? null,
    // Credentials never enter the log (docs/api-behaviour.md#tracking-tokens).
    data: JSON.stringify(withoutSecrets(event.resourceType, { object: event.object, changes: event.changes ?? null })),
  };
}

/** The events of one transaction of one organization, written when it is sealed. */
export class EventLog {
  private readonly pending: NewEvent[] = [];
  /** Events the transaction wrote with set-based SQL; they get their positions when it is sealed. */
  private written = 0;
  private sealed = false;

  constructor(
    private readonly trx: Transaction<Database>,
    readonly organizationId: string,
    readonly actor: Actor,
  ) {}

  /** Adds an event of this transaction; it is written when the transaction is sealed. */
  add(event: NewEvent): void {
    if (this.sealed) throw new Error('The event log of this transaction is sealed already');
    this.pending.push(event);
  }

  /**
   * Records events that set-based SQL writes (one per affected row of a cascade), in the order
   * they are written; `write` resolves to how many it wrote. They come before the added events.
   */
  async addSelected(occurredAt: string, write: (stamp: EventStamp) => Promise<number>): Promise<void> {
    if (this.sealed) throw new Error('The event log of this transaction is sealed already');
    this.written += await write(this.stamp(occurredAt));
  }

  stamp(occurredAt: string): EventStamp {
    return stampOf(this.organizationId, this.actor, occurredAt);
  }

  /**
   * Positions and writes this transaction's events: the last statements before the commit. Two
   * statements for any number of added events (three with set-based ones); none without events.
   * Resolves to the number of events.
   */
  async seal(): Promise<number> {
    if (this.sealed) return 0;
    const written = this.written;
    const rows = this.takeRows();
    const total = written + rows.length;
    if (total === 0) return 0;
    if (written === 0) {
      // The common case: positions and rows in one go (one statement on PostgreSQL).
      await appendEvents(this.trx, this.organizationId, rows);
      return total;
    }
    const base = (await takeEventPositions(this.trx, this.organizationId, total)) - total;
    await positionWrittenEvents(this.trx, this.organizationId, base);
    await insertEvents(this.trx, rows.map((row, i) => ({ ...row, position: base + written + i + 1 })));
    return total;
  }

  /**
   * Seals the log and hands its added events over as rows, to be appended by whoever writes
   * several logs of one transaction together (`appendEventLogs`). Only for logs without
   * set-based events (those are positioned by `seal`).
   */
  takeRows(): UnpositionedEventRow[] {
    if (this.sealed) throw new Error('The event log of this transaction is sealed already');
    this.sealed = true;
    // Built before the positions are taken: nothing but the append runs under the lock.
    return this.pending.map((event) => eventRowOf(this.organizationId, this.actor, event));
  }

  /** Events written by set-based SQL (addSelected), which only `seal` can position. */
  get selectedCount(): number {
    return this.written;
  }
}

/**
 * Seals several event logs of one transaction (a group commit: several changes, by several
 * actors, of one or more organizations) as its last statements: one append per organization, in
 * the order of the organizations' ids (so two such transactions lock the feeds' counters in the
 * same order), each log's events in the order the logs are given. Resolves to the organizations
 * that got events, to announce after the commit.
 */
export async function appendEventLogs(trx: Transaction<Database>, logs: EventLog[]): Promise<string[]> {
  if (logs.some((log) => log.selectedCount > 0)) throw new Error('appendEventLogs takes logs without set-based events');
  const byOrganization = new Map<string, UnpositionedEventRow[]>();
  for (const log of logs) {
    const rows = log.takeRows();
    if (rows.length === 0) continue;
    const list = byOrganization.get(log.organizationId);
    if (list) list.push(...rows);
    else byOrganization.set(log.organizationId, rows);
  }
  const organizations = [...byOrganization.keys()].sort();
  for (const organizationId of organizations) await appendEvents(trx, organizationId, byOrganization.get(organizationId)!);
  return organizations;
}

const committed = new EventEmitter().setMaxListeners(0);

/** Calls `listener` with the organization each time a transaction of this process commits events. */
export function onEventsCommitted(listener: (organizationId: string) => void): () => void {
  committed.on('committed', listener);
  return () => committed.off('committed', listener);
}

/**
 * Runs `work` in a transaction with the event log of that transaction, sealing the log as the
 * last step before the commit. After the commit, the webhook worker of this process is told at
 * once (other processes find the events on their next poll).
 */
export async function withEvents<T>(
  db: Kysely<Database>,
  organizationId: string,
  actor: Actor,
  work: (trx: Transaction<Database>, events: EventLog) => Promise<T>,
): Promise<T> {
  const { value, count } = await db.transaction().execute(async (trx) => {
    const events = new EventLog(trx, organizationId, actor);
    const value = await work(trx, events);
    return { value, count: await events.seal() };
  });
  if (count > 0) committed.emit('committed', organizationId);
  return value;
}

/** Tells this process's webhook worker that a transaction committed events of the organization. */
export function announceCommitted(organizationId: string): void {
  committed.emit('committed', organizationId);
}

/** For a transaction opened elsewhere (the first start's bootstrap): seal it yourself before it commits. */
export function eventLogOf(trx: Transaction<Database>, organizationId: string, actor: Actor): EventLog {
  return new EventLog(trx, organizationId, actor);
}
