import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.js';
import { logFailure } from '../../http/error-handler.js';
import { SYSTEM_ACTOR, withEvents } from '../events/events.log.js';
import { findTicket, updateTicket } from '../tickets/tickets.repository.js';
import { presentTicket } from '../tickets/tickets.service.js';
import { logSlaEvents, slaFireDue } from './sla.hooks.js';
import { claimDueTicket, dueTickets, releaseLease, takeLease } from './sla.sweeper.repository.js';

/**
 * The SLA sweeper: writes `sla.warning` and `sla.breached` when their instant comes. One process
 * of a fleet sweeps at a time (a lease in `job_leases`, renewed each run, taken over by another
 * process once it runs out); a run reads only the tickets whose next SLA instant has come, from
 * the index of that instant, so its cost does not grow with the number of tickets. Each ticket's
 * events are written in the transaction that moves its next instant on, so each fires exactly
 * once, whoever sweeps and whatever dies when; an instant that passed while every process was
 * down fires on the first run after start.
 */
export const SLA_LEASE = 'sla-sweeper';
const LEASE_MS = 5_000;
const BATCH = 200;
const BATCHES_PER_RUN = 50;

export interface SlaSweeperDeps {
  store: Store;
  config: { slaSweepIntervalMs: number };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

/** Fires what is due at `now` on one ticket, in one transaction; false when nothing was (any longer) due. */
async function sweepTicket(store: Store, organizationId: string, id: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  return withEvents(store.db, organizationId, SYSTEM_ACTOR, async (trx, events) => {
    if (!(await claimDueTicket(trx, organizationId, id, at))) return false;
    const current = await findTicket(trx, organizationId, id);
    if (!current) return false;
    const { columns, events: fired } = slaFireDue(current.sla, now);
    await updateTicket(trx, organizationId, id, columns);
    logSlaEvents(events, presentTicket({ ...current, ...columns }), fired);
    return true;
  });
}

/** Fires everything due at `now` (bounded per run); resolves to how many tickets had something due. */
export async function sweepSlaOnce(store: Store, now: Date = new Date()): Promise<number> {
  let swept = 0;
  for (let i = 0; i < BATCHES_PER_RUN; i++) {
    const due = await dueTickets(store.db, now.toISOString(), BATCH);
    for (const ticket of due) if (await sweepTicket(store, ticket.organization_id, ticket.id, now)) swept++;
    if (due.length < BATCH) break;
  }
  return swept;
}

export interface SlaSweeper {
  stop(): Promise<void>;
}

export function startSlaSweeper(deps: SlaSweeperDeps): SlaSweeper {
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const run = async (): Promise<void> => {
    try {
      const now = new Date();
      const held = await takeLease(deps.store.db, SLA_LEASE, owner, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString());
      if (held) await sweepSlaOnce(deps.store, now);
    } catch (error) {
      logFailure(deps.log, error, 'SLA sweep failed');
    }
  };
  const tick = () => {
    if (stopped) return;
    running = run().finally(() => {
      running = null;
      if (!stopped) timer = setTimeout(tick, deps.config.slaSweepIntervalMs).unref();
    });
  };
  timer = setTimeout(tick, 0).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await releaseLease(deps.store.db, SLA_LEASE, owner, new Date().toISOString()).catch(() => undefined);
    },
  };
}
