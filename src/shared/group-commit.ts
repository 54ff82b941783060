/**
 * A group commit: work items submitted while a batch is being written wait and are written
 * together in the next batch, one transaction for all of them, instead of one transaction each.
 * Each item still gets its own answer: `write` resolves to one outcome per item, in order, and a
 * failed item rejects only its own submission.
 *
 * A batch starts on `setImmediate` after the first submission of an idle queue, so every request
 * that arrived in the same turn of the event loop joins it (on SQLite a whole transaction runs
 * without yielding to I/O, so without this no request would ever wait for another); then, while
 * it is being written, newcomers queue for the next. At most one batch is written at a time, of
 * at most `maxBatch` items.
 */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface GroupCommitStats {
  /** Batches written (each one transaction, or its fallback). */
  batches: number;
  /** Items written in them. */
  items: number;
  /** The largest batch so far. */
  largest: number;
}

/** A submitted item waiting for its batch, and how to answer it (GroupCommit, db/read-batch.ts). */
export interface Pending<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<I, R> {
  private queue: Array<Pending<I, R>> = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly write: (items: I[]) => Promise<Array<Outcome<R>>>,
    private readonly maxBatch = 64,
    /** Counted here; several queues may share one. */
    readonly stats: GroupCommitStats = { batches: 0, items: 0, largest: 0 },
    /** Called when the queue has nothing left to write (its owner may then let it go). */
    private readonly onIdle?: () => void,
  ) {}

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.next();
    });
  }

  private async next(): Promise<void> {
    if (this.running || this.queue.length === 0) return;
    this.running = true;
    const batch = this.queue.splice(0, this.maxBatch);
    this.stats.batches++;
    this.stats.items += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    try {
      const outcomes = await this.write(batch.map((p) => p.item));
      batch.forEach((p, i) => {
        const outcome = outcomes[i];
        if (!outcome) p.reject(new Error('The group commit gave no outcome for an item'));
        else if (outcome.ok) p.resolve(outcome.value);
        else p.reject(outcome.error);
      });
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      this.running = false;
      this.schedule();
      if (!this.scheduled) this.onIdle?.();
    }
  }
}
