import { Worker } from 'node:worker_threads';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { SEARCH_BUDGET_EXCEEDED } from './search.js';
import type { Database } from '../db/types.js';

/** How searches run (docs/operations.md#search): time budget and how many at once. */
export interface SearchOptions {
  /** A search that takes longer fails (503 search_timeout). */
  timeoutMs: number;
  /**
   * Searches of this process that run at once: SQLite worker threads (0: on the main thread, for
   * an in-memory store), or PostgreSQL pool connections searches may hold. More wait, within the budget.
   */
  concurrency: number;
  /** Searches of one organization that run (or wait) at once; one more is refused (429 search_busy). */
  perOrganization: number;
}

export const DEFAULT_SEARCH_OPTIONS: SearchOptions = { timeoutMs: 800, concurrency: 4, perOrganization: 2 };

/** The search did not finish within its budget. */
export class SearchTimeoutError extends Error {
  constructor() {
    super('search time budget exceeded');
  }
}

/** The organization already runs as many searches as it may. */
export class SearchBusyError extends Error {
  constructor(readonly limit: number) {
    super('too many searches of this organization at once');
  }
}

export type SearchRead = <R>(query: CompiledQuery<R>) => Promise<R[]>;

/**
 * A kind of heavy read other than a search (the views' counts): its own time budget and its own
 * per-organization bound (`perOrganization` of its kind), on the same slots (worker threads,
 * connections), so searches and counts never refuse each other but together never take more.
 */
export interface ReadBudget {
  kind: string;
  timeoutMs: number;
}

/** Runs searches: bounded in time, in number, and per organization. */
export interface SearchRunner {
  readonly options: SearchOptions;
  /**
   * Runs `work` as one search of the organization, its reads through `read`, all before `deadline`
   * (which `work` also passes to the SQL text test). Throws SearchBusyError at once when the
   * organization already runs `perOrganization` searches, SearchTimeoutError past the deadline.
   * With `budget`: a read of that kind, bounded by its time and counted apart per organization.
   */
  run<T>(organizationId: string, work: (read: SearchRead, deadline: number) => Promise<T>, budget?: ReadBudget): Promise<T>;
  /** Searches holding a slot (a worker thread, a connection) now, and searches waiting for one: for the metrics. */
  slots(): { inUse: number; waiting: number };
  close(): Promise<void>;
}

/** Counts searches per organization. */
class PerOrganization {
  private readonly running = new Map<string, number>();
  constructor(private readonly limit: number) {}
  get total(): number {
    let sum = 0;
    for (const count of this.running.values()) sum += count;
    return sum;
  }
  async run<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
    const count = this.running.get(organizationId) ?? 0;
    if (count >= this.limit) throw new SearchBusyError(this.limit);
    this.running.set(organizationId, count + 1);
    try {
      return await work();
    } finally {
      const left = (this.running.get(organizationId) ?? 1) - 1;
      if (left > 0) this.running.set(organizationId, left);
      else this.running.delete(organizationId);
    }
  }
}

/** One PerOrganization per kind of read (searches: ''), and the time budget of each. */
class Kinds {
  private readonly kinds = new Map<string, PerOrganization>();
  constructor(private readonly options: SearchOptions) {}
  get total(): number {
    let sum = 0;
    for (const kind of this.kinds.values()) sum += kind.total;
    return sum;
  }
  /** Runs `work` as one read of the organization of this kind, with its deadline. */
  run<T>(organizationId: string, budget: ReadBudget | undefined, work: (deadline: number) => Promise<T>): Promise<T> {
    const kind = budget?.kind ?? '';
    let perOrganization = this.kinds.get(kind);
    if (!perOrganization) this.kinds.set(kind, (perOrganization = new PerOrganization(this.options.perOrganization)));
    return perOrganization.run(organizationId, () => work(Date.now() + (budget?.timeoutMs ?? this.options.timeoutMs)));
  }
}

/** The SQLite errors that mean the text test's deadline passed. */
export function isBudgetError(error: unknown): boolean {
  return error instanceof Error && error.message.includes(SEARCH_BUDGET_EXCEEDED);
}

/** Slots of a fixed number, handed out first come first served, given up at a deadline. */
class Slots {
  private free: number;
  private readonly waiting: Array<{ take: () => void; timer: NodeJS.Timeout }> = [];
  constructor(private readonly size: number) {
    this.free = size;
  }
  get inUse(): number {
    return this.size - this.free;
  }
  get queued(): number {
    return this.waiting.length;
  }
  async take(deadline: number): Promise<() => void> {
    if (this.free > 0) {
      this.free--;
      return () => this.give();
    }
    return new Promise((resolve, reject) => {
      const entry = {
        take: () => resolve(() => this.give()),
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(new SearchTimeoutError());
        }, Math.max(0, deadline - Date.now())),
      };
      this.waiting.push(entry);
    });
  }
  private give(): void {
    const next = this.waiting.shift();
    if (next) {
      clearTimeout(next.timer);
      next.take();
    } else this.free++;
  }
}

/**
 * PostgreSQL: each read in its own transaction with `statement_timeout` set to what is left of the
 * budget (SET LOCAL), and at most `concurrency` searches holding connections at once, so searches
 * never take the whole pool from other requests.
 */
export function postgresSearchRunner(db: Kysely<Database>, options: SearchOptions): SearchRunner {
  const kinds = new Kinds(options);
  const slots = new Slots(options.concurrency);
  return {
    options,
    run: (organizationId, work, budget) =>
      kinds.run(organizationId, budget, async (deadline) => {
        const release = await slots.take(deadline);
        try {
          const read: SearchRead = async (query) => {
            const left = deadline - Date.now();
            if (left <= 0) throw new SearchTimeoutError();
            try {
              return await db.transaction().execute(async (trx) => {
                await sql`select set_config('statement_timeout', ${String(left)}, true)`.execute(trx);
                return (await trx.executeQuery(query)).rows;
              });
            } catch (error) {
              // 57014: query_canceled, here by the statement timeout just set.
              if ((error as { code?: unknown }).code === '57014') throw new SearchTimeoutError();
              throw error;
            }
          };
          return await work(read, deadline);
        } finally {
          release();
        }
      }),
    slots: () => ({ inUse: slots.inUse, waiting: slots.queued }),
    close: () => Promise.resolve(),
  };
}

/**
 * SQLite on the main thread (an in-memory store, or SEARCH_CONCURRENCY=0): bounded by the text
 * test's deadline only, which every candidate passes through.
 */
export function mainThreadSearchRunner(db: Kysely<Database>, options: SearchOptions): SearchRunner {
  const kinds = new Kinds(options);
  return {
    options,
    run: (organizationId, work, budget) =>
      kinds.run(organizationId, budget, async (deadline) => {
        const read: SearchRead = async (query) => {
          try {
            return (await db.executeQuery(query)).rows;
          } catch (error) {
            if (isBudgetError(error)) throw new SearchTimeoutError();
            throw error;
          }
        };
        return work(read, deadline);
      }),
    // On the main thread: every running search holds the event loop's turn; none waits for a slot.
    slots: () => ({ inUse: kinds.total, waiting: 0 }),
    close: () => Promise.resolve(),
  };
}

interface Task {
  id: number;
  sql: string;
  parameters: readonly unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  task: Task | undefined;
}

/** Past the deadline, how long a worker may take to stop by itself (its text test) before it is terminated. */
const TERMINATE_GRACE_MS = 200;

/**
 * SQLite: searches run on `concurrency` worker threads, each with its own read-only connection, so
 * no search holds the event loop (better-sqlite3's own advice for long reads). A search past its
 * deadline fails at once; its worker stops at its next text test or, stuck in SQLite itself, is
 * terminated and replaced.
 */
export function sqliteSearchRunner(file: string, options: SearchOptions, busyTimeoutMs: number): SearchRunner {
  const kinds = new Kinds(options);
  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    // Beside this file both in src/ (run by the tests) and in dist/ (search.worker.js).
    const worker = new Worker(new URL('./search.worker.js', import.meta.url), {
      workerData: { file, busyTimeoutMs, budgetMessage: SEARCH_BUDGET_EXCEEDED },
    });
    worker.unref();
    const slot: Slot = { worker, task: undefined };
    worker.on('message', (message: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const task = slot.task;
      if (!task || task.id !== message.id) return;
      finish(slot);
      if (message.error) {
        const error = Object.assign(new Error(message.error.message), { code: message.error.code });
        task.reject(isBudgetError(error) ? new SearchTimeoutError() : error);
      } else task.resolve(message.rows ?? []);
    });
    worker.on('error', (error) => {
      const task = slot.task;
      // Replaced when next needed, not at once: a worker that cannot start must not start again in a loop.
      replace(slot, false);
      task?.reject(error);
    });
    slots.push(slot);
    return slot;
  };

  const finish = (slot: Slot): void => {
    if (slot.task) clearTimeout(slot.task.timer);
    slot.task = undefined;
    pump();
  };

  const replace = (slot: Slot, now: boolean): void => {
    if (slot.task) clearTimeout(slot.task.timer);
    slot.task = undefined;
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    void slot.worker.terminate();
    // Its replacement starts now, so the next search does not pay for the start.
    if (now && !closed) spawn();
    pump();
  };

  const pump = (): void => {
    while (!closed && queue.length > 0) {
      const slot = slots.find((s) => !s.task) ?? (slots.length < options.concurrency ? spawn() : undefined);
      if (!slot) return;
      const task = queue.shift()!;
      slot.task = task;
      slot.worker.postMessage({ id: task.id, sql: task.sql, parameters: task.parameters });
    }
  };

  const expire = (task: Task): void => {
    const waiting = queue.indexOf(task);
    if (waiting >= 0) queue.splice(waiting, 1);
    const slot = slots.find((s) => s.task === task);
    if (slot) replace(slot, true);
    task.reject(new SearchTimeoutError());
  };

  const read = <R>(query: CompiledQuery<R>, deadline: number): Promise<R[]> =>
    new Promise<R[]>((resolve, reject) => {
      if (closed) return reject(new Error('The database connection is not open'));
      const task: Task = {
        id: nextId++,
        sql: query.sql,
        parameters: query.parameters,
        resolve: resolve as (rows: unknown[]) => void,
        reject,
        timer: setTimeout(() => expire(task), Math.max(0, deadline - Date.now()) + TERMINATE_GRACE_MS),
      };
      queue.push(task);
      pump();
    });

  return {
    options,
    run: (organizationId, work, budget) => kinds.run(organizationId, budget, (deadline) => work((query) => read(query, deadline), deadline)),
    slots: () => ({ inUse: slots.filter((s) => s.task !== undefined).length, waiting: queue.length }),
    async close() {
      closed = true;
      for (const task of queue.splice(0)) {
        clearTimeout(task.timer);
        task.reject(new Error('The database connection is not open'));
      }
      await Promise.all(slots.splice(0).map((s) => s.worker.terminate()));
    },
  };
}
