import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../../db/store.js';
import { logFailure } from '../../http/error-handler.js';
import { SYSTEM_ACTOR, withEvents } from '../events/events.log.js';
import { presentTicket } from '../tickets/tickets.service.js';
import { logSlaEvents, slaFireDue } from './sla.hooks.js';
import { claimDueGroup, dueTickets, moveSweptTickets, releaseLease, takeLease } from './sla.sweeper.repository.js';

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
/**
 * Due tickets of one organization fired in one transaction: the commit and the event positions are
 * taken once for them all (bench/sla.ts: about half the CPU of a ticket each on SQLite), while the
 * tickets' rows stay locked (PostgreSQL) or the store's write lock held (SQLite) only for the few
 * ms these take.
 */
const GROUP = 50;

export interface SlaSweeperDeps {
  store: Store;
  config: { slaSweepIntervalMs: number };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

/**
 * Fires what is due at `now` on some of one organization's tickets (in the order given), in one
 * transaction: the tickets still due are claimed and read together, moved on and their events
 * logged as if each were alone, and the writes and the commit (with its one taking of event
 * positions) are shared. On PostgreSQL a group costs five round trips whatever its size (begin,
 * claim and read, update, events, commit). Resolves to how many had something due.
 */
async function sweepTickets(store: Store, organizationId: string, ids: string[], now: Date): Promise<number> {
  return withEvents(store.db, organizationId, SYSTEM_ACTOR, async (trx, events) => {
    const claimed = await claimDueGroup(trx, organizationId, ids, now.toISOString());
    const moved = claimed.map((current) => {
      const { columns, events: fired } = slaFireDue(current.sla, now);
      logSlaEvents(events, presentTicket({ ...current, ...columns }), fired);
      return { id: current.id, columns };
    });
    await moveSweptTickets(trx, organizationId, moved);
    return moved.length;
  });
}

/** A batch of due tickets as runs of at most GROUP of one organization, each run in deadline order. */
function groupsOf(due: Array<{ organization_id: string; id: string }>): Array<{ organizationId: string; ids: string[] }> {
  const byOrganization = new Map<string, string[]>();
  for (const ticket of due) {
    const ids = byOrganization.get(ticket.organization_id) ?? [];
    ids.push(ticket.id);
    byOrganization.set(ticket.organization_id, ids);
  }
  const groups: Array<{ organizationId: string; ids: string[] }> = [];
  for (const [organizationId, ids] of byOrganization) {
    for (let i = 0; i < ids.length; i += GROUP) groups.push({ organizationId, ids: ids.slice(i, i + GROUP) });
  }
  return groups;
}

/**
 * Fires everything due at `now` (bounded per run); resolves to how many tickets had something due.
 * A ticket that cannot be swept (its group is tried again a ticket at a time) holds back no other:
 * the run goes on and rejects with its error at the end.
 */
export async function sweepSlaOnce(store: Store, now: Date = new Date()): Promise<number> {
  let swept = 0;
  let failure: Error | undefined;
  const alone = async (organizationId: string, id: string) => {
    try {
      swept += await sweepTickets(store, organizationId, [id], now);
    } catch (error) {
      failure ??= error instanceof Error ? error : new Error(String(error));
    }
  };
  for (let i = 0; i < BATCHES_PER_RUN; i++) {
    const due = await dueTickets(store.db, now.toISOString(), BATCH);
    for (const { organizationId, ids } of groupsOf(due)) {
      if (ids.length === 1) {
        await alone(organizationId, ids[0]!);
        continue;
      }
      try {
        swept += await sweepTickets(store, organizationId, ids, now);
      } catch {
        // The group rolled back whole: each of its tickets again, alone.
        for (const id of ids) await alone(organizationId, id);
      }
    }
    if (due.length < BATCH) break;
  }
  if (failure !== undefined) throw failure;
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
