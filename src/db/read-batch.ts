import type { Pending } from '../shared/group-commit.js';

/**
 * Reads of one kind that arrive in the same turn of the event loop, answered by one statement for
 * all of them instead of one statement each, every read still getting its own answer (on
 * PostgreSQL: one round trip, one Bind/Execute, one executor start-up and one row description for
 * the group; docs/architecture.md#api-keys-on-the-hot-path).
 *
 * A read waits at most until the end of the turn it was asked in (`setImmediate`, the same turn
 * the group commit of creates waits for): every request parsed in that turn joins it, and a lone
 * read goes alone, by the single-read statement, without a timer's delay. Groups are not queued
 * behind each other: each goes as soon as its turn ends, on a connection of its own (the pool
 * bounds how many run at once), and a group holds at most `maxBatch` reads (more are split into
 * even groups), so one slow statement holds up only its own reads. A failed statement fails every
 * read of its group with its error; the caller decides per read what that means.
 */
export interface ReadBatchStats {
  /** Statements run (a group of one included). */
  statements: number;
  /** Reads answered by them. */
  reads: number;
  /** The largest group so far. */
  largest: number;
}

export class ReadBatch<I, R> {
  private queue: Array<Pending<I, R>> = [];
  private scheduled = false;
  readonly stats: ReadBatchStats = { statements: 0, reads: 0, largest: 0 };

  constructor(
    /** One read alone (the statement a lone read has always had). */
    private readonly one: (item: I) => Promise<R>,
    /** Several reads in one statement, answered in their order. */
    private readonly many: (items: I[]) => Promise<R[]>,
    private readonly maxBatch = 32,
  ) {}

  read(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(this.flush);
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    const groups = Math.ceil(queue.length / this.maxBatch);
    const size = Math.ceil(queue.length / groups);
    for (let i = 0; i < queue.length; i += size) this.run(queue.slice(i, i + size));
  };

  private run(group: Array<Pending<I, R>>): void {
    this.stats.statements++;
    this.stats.reads += group.length;
    if (group.length > this.stats.largest) this.stats.largest = group.length;
    if (group.length === 1) {
      const only = group[0]!;
      this.one(only.item).then(only.resolve, only.reject);
      return;
    }
    this.many(group.map((p) => p.item)).then(
      (results) => {
        for (let i = 0; i < group.length; i++) group[i]!.resolve(results[i]!);
      },
      (error: unknown) => {
        for (const p of group) p.reject(error);
      },
    );
  }
}
