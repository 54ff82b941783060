import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.js';
import { logFailure } from '../../http/error-handler.js';
import { startLeasedWorker } from '../../shared/leased-worker.js';
import { nowIso } from '../../shared/time.js';
import { onEventsCommitted, withEvents, type Actor } from '../events/events.log.js';
import { feedHead } from '../events/events.repository.js';
import type { Mailer } from '../mail/mail.outbox.js';
import { ticketFieldsByKey } from '../ticket-fields/ticket-fields.repository.js';
import { applyRuleActions } from './automations.apply.js';
import * as repo from './automations.repository.js';
import { compileRuleConditions, type StoredConditions } from './automations.rules.js';
import { usesCustomFields } from '../views/conditions.js';
import type { RuleActions } from './automations.schemas.js';

/**
 * The trigger worker: runs triggers after the events that set them off have committed, at least
 * once and never twice for one (event, trigger).
 *
 * It follows each organization's event log by a cursor (`trigger_cursors`, one row per
 * organization that has had a trigger), leased to one process at a time like a webhook endpoint.
 * For a batch of the events past the cursor that some active trigger's `on` names (the others are
 * passed over unread) it checks each trigger's `on` and conditions against the tickets as they are
 * now (one query for all the triggers per batch), then applies each matching trigger
 * in a transaction of its own that re-checks the conditions on the ticket, writes the trigger's
 * changes and events (actor: the trigger), and inserts the (trigger, event) row of `trigger_runs`;
 * only then does the cursor move. A crash before a commit leaves nothing, and the event is taken
 * again; after it, the run's row makes the retry a no-op. Events made by a trigger or an automation
 * run no trigger, so no trigger sets off another, or itself. A run that fails (a user named by the
 * actions deleted since) is recorded as failed, and the worker moves on.
 */
export interface TriggerWorkerDeps {
  store: Store;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
  /** How often to look for events committed by other processes (this one's wake it at once). */
  pollIntervalMs?: number;
}

export interface TriggerWorker {
  /** Follows the logs until nothing is left to do now; resolves to the number of events taken. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** Events taken at a time. */
const BATCH = 100;
/** Positions of the log looked through at a time for events to follow (the others are passed over). */
const WINDOW = 10 * BATCH;
/** Longer than a batch takes: a live process never loses its organization in the middle of one. */
const LEASE_MS = 15_000;
/** After a commit, the wait before looking: a batch of a burst of creates is one look (claim, reads, release), not one per create. */
const WAKE_GAP_MS = 100;

class LeaseLost extends Error {}

export function startTriggerWorker(deps: TriggerWorkerDeps): TriggerWorker {
  const { db } = deps.store;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  const applyOne = async (organizationId: string, trigger: repo.TriggerRow, event: { id: string; ticket_id: string }, where: ReturnType<typeof compileRuleConditions>): Promise<void> => {
    const actor: Actor = { type: 'trigger', triggerId: trigger.id };
    try {
      await withEvents(db, organizationId, actor, async (trx, events) => {
        if (!(await repo.holdsTriggerCursor(trx, organizationId, owner))) throw new LeaseLost();
        // The ticket as it is now: a change since the batch's check may have made it stop matching.
        if ((await repo.ticketsMatching(trx, organizationId, [event.ticket_id], where)).size === 0) return;
        const run = { organization_id: organizationId, trigger_id: trigger.id, event_id: event.id, ticket_id: event.ticket_id, outcome: 'applied' as const, error: null, created_at: nowIso() };
        if (!(await repo.insertTriggerRun(trx, run))) return;
        const note = await applyRuleActions(trx, events, deps.mailer, event.ticket_id, JSON.parse(trigger.actions) as RuleActions, actor);
        if (note !== null) await repo.setTriggerRunError(trx, organizationId, trigger.id, event.id, note);
      });
    } catch (error) {
      if (error instanceof LeaseLost) throw error;
      const message = error instanceof Error ? error.message : String(error);
      deps.log.warn({ organizationId, triggerId: trigger.id, eventId: event.id, err: message }, 'trigger failed on an event');
      await repo.insertTriggerRun(db, { organization_id: organizationId, trigger_id: trigger.id, event_id: event.id, ticket_id: event.ticket_id, outcome: 'failed', error: message.slice(0, 1000), created_at: nowIso() });
    }
  };

  /** One batch of one organization's log; resolves to the number of events taken (0: nothing to do). */
  const followOne = async (worker: { readonly stopping: boolean }): Promise<number> => {
    const now = Date.now();
    const claimed = await repo.claimTriggerCursor(db, { owner, now: new Date(now).toISOString(), until: new Date(now + LEASE_MS).toISOString() });
    if (!claimed) return 0;
    const org = claimed.organization_id;
    let position = claimed.position;
    try {
      // The head before the triggers: a trigger made after this read starts at or after it.
      const head = await feedHead(db, org);
      // Each trigger's `on` read once; the log is read for the types they follow only, made by no
      // rule, so the events no trigger could take are passed over without being read.
      const rules = (await repo.activeTriggers(db, org)).map((trigger) => ({ trigger, on: new Set(JSON.parse(trigger.on_types) as string[]), conditions: JSON.parse(trigger.conditions) as StoredConditions }));
      const types = [...new Set(rules.flatMap((r) => [...r.on]))];
      if (types.length === 0) {
        // Nothing to run: straight to the end of the log.
        position = Math.max(position, head);
        return 1;
      }
      const through = position + WINDOW;
      const batch = await repo.eventsToFollow(db, org, { after: position, through, limit: BATCH, types });
      const fieldIds = rules.some((r) => usesCustomFields(r.conditions)) ? new Map([...(await ticketFieldsByKey(db, org))].map(([key, f]) => [key, f.id])) : new Map<string, string>();
      const ctx = { organizationId: org, me: null, fieldIds, now: new Date() };
      const candidates = [];
      for (const { trigger, on, conditions } of rules) {
        const events = batch.filter((e): e is typeof e & { ticket_id: string } => e.ticket_id !== null && Number(e.position) > Number(trigger.after_position) && on.has(e.type));
        if (events.length > 0) candidates.push({ trigger, events, where: compileRuleConditions(conditions, ctx) });
      }
      // One query for all the triggers: which of the batch's tickets each matches now.
      const ticketIds = [...new Set(candidates.flatMap((c) => c.events.map((e) => e.ticket_id)))];
      const matching = await repo.ticketsMatchingEach(db, org, ticketIds, candidates.map((c) => c.where));
      const plans = candidates.map((c, i) => ({ trigger: c.trigger, where: c.where, events: new Set(c.events.filter((e) => matching[i]!.has(e.ticket_id))) }));
      // In commit order of the events, each event's triggers in their order.
      let done = true;
      for (const event of batch) {
        if (worker.stopping) {
          done = false;
          break;
        }
        for (const plan of plans) {
          if (plan.events.has(event as never)) await applyOne(org, plan.trigger, event as typeof event & { ticket_id: string }, plan.where);
        }
        position = Number(event.position);
      }
      // A batch short of BATCH held every event to follow up to `through` (or the head, read
      // before it: every event up to it has committed), so the cursor moves past the others.
      if (done && batch.length < BATCH) position = Math.max(position, Math.min(head, through));
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      deps.log.warn({ organizationId: org }, 'trigger worker lost its lease; another process carries on');
      return 1;
    } finally {
      await repo.releaseTriggerCursor(db, org, owner, position, nowIso()).catch((error: unknown) => logFailure(deps.log, error, 'trigger cursor release failed'));
    }
    return Math.max(1, position - claimed.position);
  };

  const worker = startLeasedWorker({
    name: 'trigger worker',
    batch: followOne,
    pollIntervalMs: deps.pollIntervalMs ?? 500,
    wakeOn: onEventsCommitted,
    settleMs: WAKE_GAP_MS,
    log: deps.log,
  });

  return { runOnce: () => worker.drain(), stop: () => worker.stop() };
}
