/**
 * The one batching primitive: items that arrive within one turn of the event loop are handled
 * together at its end (`setImmediate`), each still getting its own outcome. A lone item waits for
 * no timer, only for the end of its turn; a turn's requests are all parsed by then.
 *
 * - `group` handles several items at once (one transaction, one statement) and returns one
 *   outcome per item, in order; it may answer synchronously, and then every item is answered in
 *   that same turn, without a promise.
 * - `alone` handles one item by itself: a lone item (unless `groupOfOne`), and, when `group`
 *   throws, each item of that group again (unless `fallBack` is false: then each fails with the
 *   group's error).
 * - `serial`: one group at a time (a group commit: items arriving meanwhile wait for the next);
 *   otherwise a turn's items go at once, split into even groups of at most `maxGroup`.
 */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface TurnBatchOptions<I, R> {
  group: (items: I[]) => Array<Outcome<R>> | Promise<Array<Outcome<R>>>;
  alone?: (item: I) => R | Promise<R>;
  maxGroup: number;
  groupOfOne?: boolean;
  fallBack?: boolean;
  serial?: boolean;
  /** Called when a serial batch has nothing left to do (its owner may then let it go). */
  onIdle?: () => void;
  /** Counted here; several batches may share one. */
  stats?: TurnBatchStats;
}

export interface TurnBatchStats {
  /** Groups run, lone items included. */
  groups: number;
  /** Items handled in them. */
  items: number;
  /** The largest group so far. */
  largest: number;
  /** Items handled again alone after their group failed. */
  alone: number;
}

interface Pending<I, R> {
  item: I;
  answer: (outcome: Outcome<R>) => void;
}

export class TurnBatch<I, R> {
  readonly stats: TurnBatchStats;
  private queue: Array<Pending<I, R>> = [];
  private scheduled = false;
  private running = false;

  constructor(private readonly options: TurnBatchOptions<I, R>) {
    this.stats = options.stats ?? { groups: 0, items: 0, largest: 0, alone: 0 };
  }

  /** Takes the item into the turn's batch; `answer` is called once with its outcome. */
  add(item: I, answer: (outcome: Outcome<R>) => void): void {
    this.queue.push({ item, answer });
    this.schedule();
  }

  submit(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the error as thrown, whatever it is
      this.add(item, (outcome) => (outcome.ok ? resolve(outcome.value) : reject(outcome.error)));
    });
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    if (this.options.serial) {
      this.running = true;
      void settle(this.run(this.queue.splice(0, this.options.maxGroup)), () => {
        this.running = false;
        this.schedule();
        if (!this.scheduled) this.options.onIdle?.();
      });
      return;
    }
    const queue = this.queue;
    this.queue = [];
    const size = Math.ceil(queue.length / Math.ceil(queue.length / this.options.maxGroup));
    for (let i = 0; i < queue.length; i += size) void this.run(queue.slice(i, i + size));
  };

  /** Runs one group and answers its items; synchronous when its work is. */
  private run(group: Array<Pending<I, R>>): void | Promise<void> {
    const { stats, options } = this;
    stats.groups++;
    stats.items += group.length;
    if (group.length > stats.largest) stats.largest = group.length;
    const items = group.map((p) => p.item);
    if (group.length === 1 && options.alone && !options.groupOfOne) return this.alone(group[0]!);
    return settle(
      attempt(() => options.group(items)),
      (outcomes) => {
        if (outcomes.ok) group.forEach((p, i) => p.answer(outcomes.value[i] ?? { ok: false, error: new Error('The batch gave no outcome for an item') }));
        else if (!options.alone || options.fallBack === false) for (const p of group) p.answer(outcomes);
        else {
          stats.alone += group.length;
          return all(group.map((p) => this.alone(p)));
        }
      },
    );
  }

  private alone(p: Pending<I, R>): void | Promise<void> {
    return settle(
      attempt(() => this.options.alone!(p.item)),
      (outcome) => p.answer(outcome),
    );
  }
}

/** `work`'s outcome, a promise of it only when `work` returned one. */
function attempt<T>(work: () => T | Promise<T>): Outcome<T> | Promise<Outcome<T>> {
  try {
    const value = work();
    if (value instanceof Promise) {
      return value.then(
        (v): Outcome<T> => ({ ok: true, value: v }),
        (error: unknown): Outcome<T> => ({ ok: false, error }),
      );
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Calls `then` with the value, at once when it is not a promise. */
function settle<T, U>(value: T | Promise<T>, then: (value: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(then) : then(value);
}

function all(values: Array<void | Promise<void>>): void | Promise<void> {
  const promises = values.filter((v): v is Promise<void> => v instanceof Promise);
  if (promises.length > 0) return Promise.all(promises).then(() => undefined);
}
