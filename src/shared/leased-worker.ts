import type { FastifyBaseLogger } from 'fastify';
import { logFailure } from '../http/error-handler.js';

/**
 * The loop of a leased worker (the trigger worker, bulk jobs, the mail outbox): each *batch*
 * claims a lease in the store (a cursor, a batch of rows), does the work and releases it, and
 * resolves to how much it took (0: nothing is due now). Leases are what make a fleet share the work
 * and a dead process's work go to another; this loop only decides when to look:
 *
 * - batch after batch while there is work; then idle until this process commits new work (`wakeOn`)
 *   or `pollIntervalMs` passes (other processes' work); a wake during a batch is kept, not lost;
 * - after idling, `settleMs` more, so a burst of commits is one look rather than one per commit;
 * - one batch at a time in a process: the loop's and a caller's `runOnce`/`drain` take turns;
 * - a failing batch is logged and the loop idles before the next look;
 * - `stop` ends the loop and waits for the batch under way (the first is always taken); a batch
 *   sees `stopping` and may end early.
 *
 * Periodic work with no lease of its own to claim is src/shared/periodic-job.ts.
 */
export interface LeasedWorkerOptions {
  /** What the log calls it: "<name> run failed". */
  name: string;
  /** One batch: claim, work, release (also when it fails). `stopping` turns true when stop() is called. */
  batch: (state: { readonly stopping: boolean }) => Promise<number>;
  /** Idle look-ups for work that other processes made due. */
  pollIntervalMs: number;
  /** Subscribes `wake` to this process's commits of new work; answers the unsubscribe. */
  wakeOn?: (wake: () => void) => () => void;
  /** The wait after idling before the next look (a burst of commits is one look). */
  settleMs?: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

export interface LeasedWorker {
  /** One batch, in turn with the loop's; resolves to what it took. */
  runOnce(): Promise<number>;
  /** Batches, in turn with the loop's, until one finds nothing due (or stop); resolves to what they took. */
  drain(): Promise<number>;
  /** Ends the loop and waits for the batch under way. */
  stop(): Promise<void>;
  /** Wakes an idle loop at once (as a commit of new work does). */
  wake(): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function startLeasedWorker(options: LeasedWorkerOptions): LeasedWorker {
  const state = { stopping: false };
  let woken = false;
  let wakeUp: (() => void) | null = null;

  const wake = () => {
    woken = true;
    wakeUp?.();
  };

  /** At least one batch (a worker stopped as soon as started still takes its first), then more while there is work. */
  const drainAll = async (): Promise<number> => {
    let taken = 0;
    for (;;) {
      const n = await options.batch(state);
      taken += n;
      if (n === 0 || state.stopping) return taken;
    }
  };

  // One batch at a time in this process: the loop's and a caller's take turns.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = (run: () => Promise<number>): Promise<number> => {
    const next = turn.then(run, run);
    turn = next.catch(() => undefined);
    return next;
  };

  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.pollIntervalMs).unref();
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });

  const unsubscribe = options.wakeOn?.(wake) ?? (() => undefined);
  const loop = async (): Promise<void> => {
    while (!state.stopping) {
      try {
        await inTurn(drainAll);
      } catch (error) {
        logFailure(options.log, error, `${options.name} run failed`);
      }
      if (state.stopping) break;
      if (!woken) await idle();
      woken = false;
      if (options.settleMs !== undefined && !state.stopping) await sleep(options.settleMs);
    }
  };
  const looping = loop();

  return {
    runOnce: () => inTurn(() => options.batch(state)),
    drain: () => inTurn(drainAll),
    wake,
    async stop() {
      state.stopping = true;
      unsubscribe();
      wakeUp?.();
      await turn;
      await looping;
    },
  };
}
