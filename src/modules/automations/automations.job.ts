import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.js';
import { logFailure } from '../../http/error-handler.js';
import { startPeriodicJob } from '../../shared/periodic-job.js';
import { withEvents, type Actor } from '../events/events.log.js';
import type { Mailer } from '../mail/mail.outbox.js';
import { ticketFieldsByKey } from '../ticket-fields/ticket-fields.repository.js';
import { applyRuleActions } from './automations.apply.js';
import * as repo from './automations.repository.js';
import { compileRuleConditions, type StoredConditions } from './automations.rules.js';
import type { RuleActions } from './automations.schemas.js';

/**
 * The automations job: every AUTOMATIONS_INTERVAL_MS, each active automation that is due is leased
 * to one process of a fleet (PostgreSQL `skip locked`) and checked: the tickets matching its
 * conditions now (the hours_since_* fields compiled to timestamps, so the organization's indexes
 * serve) that have not had it in their current period get its actions, at most BATCH per turn.
 *
 * A period: `automation_runs` keeps, per (automation, ticket), the ticket's last status change as
 * it was after the run. A ticket has had the automation in this period while that row exists and
 * its time is still the ticket's; the row goes when the ticket stops matching (checked every turn),
 * and a status change makes a new period. Each run writes its row in the transaction of the
 * automation's changes, so a crash never applies it twice in one period. Its events carry the
 * automation as actor, and run no trigger.
 */
export interface AutomationsJobDeps {
  store: Store;
  mailer: Mailer;
  config: { automationsIntervalMs: number };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

export interface AutomationsJob {
  /** One sweep as of `at` (default now); resolves to the number of runs it made. */
  runOnce(at?: Date): Promise<number>;
  stop(): Promise<void>;
}

/** Tickets one automation acts on per turn; the rest wait for the next turn. */
export const BATCH = 100;
/** Automations leased at a time. */
const CLAIM = 10;
const LEASE_MS = 60_000;

/** One sweep as of `at` (default now), without the timer (the job's runs; tests call it). Resolves to the number of runs made. */
export function automationsSweep(deps: AutomationsJobDeps): (at?: Date) => Promise<number> {
  const { db } = deps.store;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  const runAutomation = async (automation: repo.AutomationRow, at: Date): Promise<number> => {
    const org = automation.organization_id;
    const fieldIds = new Map([...(await ticketFieldsByKey(db, org))].map(([key, f]) => [key, f.id]));
    const where = compileRuleConditions(JSON.parse(automation.conditions) as StoredConditions, { organizationId: org, me: null, fieldIds, now: at });
    const actions = JSON.parse(automation.actions) as RuleActions;
    const actor: Actor = { type: 'automation', automationId: automation.id };
    await repo.forgetUnmatchedRuns(db, org, automation.id, where, BATCH * 5);
    let runs = 0;
    for (const ticket of await repo.ticketsDueForAutomation(db, org, automation.id, where, BATCH)) {
      try {
        const ran = await withEvents(db, org, actor, async (trx, events) => {
          const since = await repo.matchingSince(trx, org, ticket.id, where);
          if (since === null) return false;
          const row = { organization_id: org, automation_id: automation.id, ticket_id: ticket.id, matched_since: since, created_at: at.toISOString() };
          if (!(await repo.recordAutomationRun(trx, row))) return false;
          const note = await applyRuleActions(trx, events, deps.mailer, ticket.id, actions, actor);
          if (note !== null) deps.log.warn({ organizationId: org, automationId: automation.id, ticketId: ticket.id, note }, 'automation could not mail');
          // Its own status change is no new period.
          const after = await repo.ticketSince(trx, org, ticket.id);
          if (after !== null && after !== since) await repo.setAutomationRunSince(trx, org, automation.id, ticket.id, after);
          return true;
        });
        if (ran) runs += 1;
      } catch (error) {
        // A failing ticket (its actions name a user deleted since) waits for its next period, like one that ran.
        const message = error instanceof Error ? error.message : String(error);
        deps.log.warn({ organizationId: org, automationId: automation.id, ticketId: ticket.id, err: message }, 'automation failed on a ticket');
        const since = await repo.ticketSince(db, org, ticket.id);
        if (since !== null) await repo.recordAutomationRun(db, { organization_id: org, automation_id: automation.id, ticket_id: ticket.id, matched_since: since, created_at: at.toISOString() });
      }
    }
    return runs;
  };

  const runOnce = async (at = new Date()): Promise<number> => {
    let runs = 0;
    for (;;) {
      const now = at.toISOString();
      const claimed = await repo.claimDueAutomations(db, { owner, now, until: new Date(at.getTime() + LEASE_MS).toISOString(), limit: CLAIM });
      if (claimed.length === 0) return runs;
      for (const automation of claimed) {
        try {
          runs += await runAutomation(automation, at);
        } finally {
          const next = new Date(at.getTime() + deps.config.automationsIntervalMs).toISOString();
          await repo.finishAutomationTurn(db, automation.organization_id, automation.id, owner, next);
        }
      }
    }
  };

  return runOnce;
}

export function startAutomationsJob(deps: AutomationsJobDeps): AutomationsJob {
  const runOnce = automationsSweep(deps);
  const job = startPeriodicJob(
    async () => {
      try {
        await runOnce();
      } catch (error) {
        logFailure(deps.log, error, 'automations sweep failed');
      }
    },
    { firstMs: 1_000, everyMs: deps.config.automationsIntervalMs },
  );
  return { runOnce, stop: () => job.stop() };
}
