/**
 * Fast path for GET /v1/tickets/{id} (wired in tickets.routes.ts): the ticket is read together
 * with the caller's key, through authentication's hook point (KeyRead in auth/authenticate.ts),
 * so a request costs one read of the store instead of two. Without this file the route
 * authenticates as any other and the plain getTicket (tickets.service.ts) reads the ticket.
 * Gain (2026-11-27, 2 cores at load average ~20, `BENCH_GET_ONLY=1 npm run bench`, DATABASE_URL for
 * PostgreSQL): server CPU per request 35 against 41 us plain on SQLite, 49–62 against 159 us on PostgreSQL.
 *
 * - Keys read on every request (PostgreSQL): the key and the ticket in one statement; the reads of
 *   one turn of the event loop share one statement (TurnBatch), each answered by its own key.
 * - Keys cached (SQLite): the ticket and the cache's version in one statement; the reads of one
 *   turn share one read transaction, so one snapshot: one version covers them all.
 * The ticket is looked for only in the key's own organization; authentication decides as ever.
 */
import type { FastifyRequest } from 'fastify';
import type { CachedKeyRead, KeyRead } from '../../auth/authenticate.js';
import { keyWithRowReader, type KeyWithRow } from '../../auth/keys.repository.js';
import type { VersionedReads, VersionedStatement } from '../../db/store.js';
import type { Executor } from '../../shared/executor.js';
import { TurnBatch, type TurnBatchStats } from '../../shared/turn-batch.js';
import { LOWER_CASE_UUID } from '../../shared/validation.js';
import { errors } from '../../errors.js';
import { TICKET_COLUMNS, type TicketColumns } from './tickets.repository.js';
import type { Ticket } from './tickets.schemas.js';
import { presentTicket, type TicketDeps } from './tickets.service.js';

export interface GetByIdFastPath {
  /** For the route's `config.auth.keyRead`. */
  keyRead: KeyRead;
  /** The ticket read with the key for this request (a 404 when there is none); undefined when it was not read that way. */
  answer(request: FastifyRequest, id: string): Ticket | undefined;
}

/** Key-and-ticket reads of one turn in one statement (PostgreSQL), at most this many. */
const MAX_READS_PER_STATEMENT = 32;

const keyWithTicket = keyWithRowReader('tickets', TICKET_COLUMNS);

/** Per database: the turn's key-and-ticket reads (where keys are read on every request). */
const keyReads = new WeakMap<Executor, TurnBatch<{ keyHash: string; id: string }, KeyWithRow>>();

function keyReadsOf(db: Executor): TurnBatch<{ keyHash: string; id: string }, KeyWithRow> {
  let batch = keyReads.get(db);
  if (!batch) {
    batch = new TurnBatch({
      maxGroup: MAX_READS_PER_STATEMENT,
      group: async (pairs) => (await keyWithTicket.many(db, pairs)).map((value) => ({ ok: true, value })),
      alone: ({ keyHash, id }) => keyWithTicket.one(db, keyHash, id),
      // A failed statement fails each read of it: authentication then reads the key alone.
      fallBack: false,
    });
    keyReads.set(db, batch);
  }
  return batch;
}

/** How the get-by-id reads of this database were grouped so far (statements, reads, largest), or undefined before the first. */
export function ticketWithKeyReadStats(db: Executor): { statements: number; reads: number; largest: number } | undefined {
  const stats: TurnBatchStats | undefined = keyReads.get(db)?.stats;
  return stats && { statements: stats.groups, reads: stats.items, largest: stats.largest };
}

interface CachedKeyTicketRead {
  key: CachedKeyRead;
  id: string;
  row: TicketColumns | null;
}

/** The turn's ticket reads of cached keys, in one read transaction (Store.versionedReads). */
function versionedReadsOf(reads: VersionedReads): TurnBatch<CachedKeyTicketRead, number | undefined> {
  let statement: VersionedStatement | undefined;
  // The ticket in the key's organization as cached now, with the version of the same snapshot.
  const readOne = (read: CachedKeyTicketRead): number | undefined => {
    const organizationId = read.key.organizationId();
    if (organizationId === undefined) return undefined;
    try {
      statement ??= reads.prepare(TICKET_COLUMNS, 'tickets', 't.organization_id = ? and t.id = ?');
      const { version, row } = statement(organizationId, read.id);
      if (row === undefined) read.row = null;
      else {
        const ticket: Record<string, unknown> = {};
        for (let i = 0; i < TICKET_COLUMNS.length; i++) ticket[TICKET_COLUMNS[i]!] = row[i];
        read.row = ticket as TicketColumns;
      }
      return version;
    } catch {
      // Authentication then reads the key from the store and the route reads the ticket itself.
      return undefined;
    }
  };
  return new TurnBatch({
    maxGroup: 256,
    group: (items) => reads.group(() => items.map((value) => ({ ok: true, value: readOne(value) }))),
    alone: readOne,
    // The read transaction itself failed (a store that is gone): every request the slow way.
    fallBack: false,
  });
}

export function getByIdWithKey(deps: TicketDeps): GetByIdFastPath {
  const { db, versionedReads } = deps.store;
  // The ticket read with each request's key, by the id it was read for.
  const readWithKey = new WeakMap<FastifyRequest, { id: string; row: TicketColumns | null }>();
  const idOf = (request: FastifyRequest): string | undefined => {
    const id = (request.params as Record<string, unknown> | undefined)?.ticket_id;
    // Anything else is answered by validation later; the key is checked as on any route.
    return typeof id === 'string' && LOWER_CASE_UUID.test(id) ? id : undefined;
  };
  const cachedReads = versionedReads === null ? undefined : versionedReadsOf(versionedReads);
  const keyRead: KeyRead = {
    fromStore: (request, keyHash) => {
      const id = idOf(request);
      if (id === undefined) return undefined;
      return keyReadsOf(db)
        .submit({ keyHash, id })
        .then(({ key, row }) => {
          readWithKey.set(request, { id, row: row as TicketColumns | null });
          return key;
        });
    },
    cached:
      cachedReads &&
      ((request, key) => {
        const id = idOf(request);
        if (id === undefined) return false;
        const read: CachedKeyTicketRead = { key, id, row: null };
        cachedReads.add(read, (outcome) => key.finish(outcome.ok ? outcome.value : undefined, () => readWithKey.set(request, { id, row: read.row })));
        return true;
      }),
  };
  return {
    keyRead,
    answer: (request, id) => {
      const read = readWithKey.get(request);
      if (read === undefined || read.id !== id) return undefined;
      if (read.row === null) throw errors.notFound('Ticket');
      return presentTicket(read.row);
    },
  };
}
