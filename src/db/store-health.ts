import { isWriteFailure } from './unavailable.js';

/**
 * How long a failed write (disk full, read-only, I/O error) keeps readiness failing. Long enough
 * for a load balancer to see it (health checks run every few seconds), short enough that the
 * process is tried again soon after the cause is fixed: there is no cheap probe that proves a
 * store can write again (a tiny write may succeed where a larger one fails for lack of space), so
 * readiness recovers by itself once no write has failed for this long.
 */
export const WRITE_FAILURE_MEMORY_MS = 10_000;

/** What the store has seen of its own writes, for the readiness check. */
export class StoreHealth {
  #lastWriteFailure = 0;

  /** Notes an error a request or a job ran into; only write failures count. */
  observe(error: unknown): void {
    if (isWriteFailure(error)) this.#lastWriteFailure = Date.now();
  }

  /** True while a write failed for lack of space, a read-only store or an I/O error recently. */
  writesFailing(now = Date.now()): boolean {
    return this.#lastWriteFailure !== 0 && now - this.#lastWriteFailure < WRITE_FAILURE_MEMORY_MS;
  }
}
