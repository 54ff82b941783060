import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type RawBuilder, type SelectQueryBuilder, type SqlBool, type Updateable } from 'kysely';
import { KEY_COLUMNS, type KeyColumns } from '../../auth/api-keys.repository.js';
import { dialectOf } from '../../db/dialect.js';
import { preparedQuery } from '../../db/prepared.js';
import { ReadBatch, type ReadBatchStats } from '../../db/read-batch.js';
import type { VersionedReads, VersionedStatement } from '../../db/store.js';
import { UNINDEXED_TERM_WINDOW, type SearchTerm, type TicketSearch } from '../../db/search.js';
import type { CustomersTable, Database, TicketRow, TicketsTable } from '../../db/types.js';
import type { UnpositionedEventRow } from '../events/events.repository.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { afterCursor, type Page, type SortKey } from '../../shared/pagination.js';

export type TicketColumns = Omit<TicketRow, 'seq'>;

const COLUMNS = [
  'id', 'organization_id', 'ticket_number', 'tracking_token', 'customer_id', 'subject', 'description', 'status',
  'priority', 'category', 'assigned_user_id', 'assigned_team_id', 'due_date', 'created_at', 'updated_at',
  'resolved_at', 'closed_at', 'channel', 'email',
] as const;

/** The same, named through the table: a search query has the index's columns (subject...) in scope too. */
const QUALIFIED = COLUMNS.map((c) => `tickets.${c}` as const);

export interface TicketFilters {
  status?: TicketRow['status'] | undefined;
  priority?: TicketRow['priority'] | undefined;
  assignedUserId?: string | undefined;
  assignedTeamId?: string | undefined;
  customerId?: string | undefined;
  category?: string | undefined;
  unassigned?: boolean | undefined;
  search?: SearchTerm | undefined;
  /** ISO 8601 UTC: tickets whose `updated_at` is at or after it (tickets_org_updated_at_idx). */
  updatedSince?: string | undefined;
}

/** Newest first: the ticket number is unique in the organization and never changes. */
export const TICKET_ORDER: SortKey<{ ticket_number: number }> = {
  columns: ['tickets.ticket_number'],
  types: ['number'],
  direction: 'desc',
  of: (ticket) => [ticket.ticket_number],
};

export async function insertTicket(db: Executor, row: Insertable<TicketsTable>): Promise<void> {
  await db.insertInto('tickets').values(row).execute();
}

/** Rows per insert: 18 parameters each stays below SQLite's limit of 32,766. */
const INSERT_BATCH = 500;

/** Several tickets, in order (one statement per 500). */
export async function insertTickets(db: Executor, rows: Array<Insertable<TicketsTable>>): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await db.insertInto('tickets').values(rows.slice(i, i + INSERT_BATCH)).execute();
  }
}

/** The columns of a new ticket that `insertTicketGroup` passes as arrays (all text). */
const GROUP_TICKET_COLUMNS = [
  'id', 'tracking_token', 'subject', 'description', 'status', 'priority', 'category', 'assigned_user_id',
  'assigned_team_id', 'due_date', 'created_at', 'updated_at', 'resolved_at', 'closed_at', 'channel', 'email',
] as const;

/** The columns of an event that `insertTicketGroup` passes as arrays (all text). */
const GROUP_EVENT_COLUMNS = [
  'id', 'type', 'occurred_at', 'actor_type', 'actor_id', 'actor_user_id', 'resource_type', 'resource_id', 'ticket_id', 'data',
] as const;

// Stand-ins for what only the statement knows, in a ticket.created event's JSON: the ticket's
// number and its customer's id. Random per process, so no text a caller sends can contain them.
const NUMBER_MARK = `n${randomUUID().replaceAll('-', '')}`;
const CUSTOMER_MARK = `c${randomUUID().replaceAll('-', '')}`;

/**
 * A ticket as the API shows it, with its number and customer id left to `insertTicketGroup` to
 * fill in: put in a `ticket.created` event, the event's JSON is the same text as if they had been
 * known (JSON.stringify of the finished ticket).
 */
export function withGroupPlaceholders<T extends { ticket_number: number; ticket_display_id: string; customer_id: string }>(ticket: T): T {
  return { ...ticket, ticket_number: NUMBER_MARK as unknown as number, ticket_display_id: `TKT-${NUMBER_MARK}`, customer_id: CUSTOMER_MARK };
}

export interface TicketGroup {
  organizationId: string;
  /** `created_at` of the customers it creates. */
  now: string;
  /**
   * The customers to create unless the organization has them already (one per normalized email,
   * of some of the emails the tickets name: every ticket's customer is looked for by email).
   */
  customers: Array<Insertable<CustomersTable>>;
  /** In order; each names its customer by normalized email. */
  tickets: Array<{ row: Omit<Insertable<TicketsTable>, 'ticket_number' | 'organization_id' | 'customer_id'>; customerEmail: string }>;
  /**
   * The events, in order: a ticket's (`ticket`, its 0-based index; its JSON made with
   * withGroupPlaceholders), and a customer's (`customer`, its id), written only if the statement
   * creates that customer.
   */
  events: Array<{ row: UnpositionedEventRow; ticket?: number; customer?: string }>;
}

/**
 * PostgreSQL: a group of new tickets of one organization in one statement, which is a transaction
 * of its own (no BEGIN/COMMIT, one round trip): the customers found by email or created, the next
 * ticket numbers taken from the organization's counter and the tickets inserted with them, the
 * events positioned in the organization's feed and appended. Resolves to the first number and
 * each ticket's customer id, in order.
 *
 * The organization's counter row (and the feed's) stays locked until the commit, which follows
 * the statement at once: the lock no longer waits on a round trip to this process. Locks are taken
 * in one order by every group: the rows the tickets refer to (existing customers, assignees) and
 * the new customers (by email), then the ticket counter, then the feed's counter; the counter's
 * update waits, through its condition, until the first are done.
 * A customer that another transaction created after this statement's snapshot is neither found
 * nor created here: the insert then fails (null customer) and the caller writes the creates again
 * one by one.
 */
export async function insertTicketGroup(db: Executor, group: TicketGroup): Promise<{ first: number; customerIds: string[] }> {
  const { tickets, events, customers } = group;
  const texts = (values: Array<string | null | undefined>) => values.map((v) => v ?? null);
  const referenced = (column: 'assigned_user_id' | 'assigned_team_id') =>
    [...new Set(tickets.map((t) => t.row[column]).filter((id): id is string => typeof id === 'string'))];
  const rows = await insertTicketGroupQuery(
    db,
    group.organizationId,
    group.now,
    tickets.length,
    referenced('assigned_user_id'),
    referenced('assigned_team_id'),
    texts(customers.map((c) => c.id)),
    texts(customers.map((c) => c.name)),
    texts(customers.map((c) => c.email)),
    texts(customers.map((c) => c.email_normalized)),
    ...GROUP_TICKET_COLUMNS.map((c) => texts(tickets.map((t) => t.row[c]))),
    texts(tickets.map((t) => t.customerEmail)),
    ...GROUP_EVENT_COLUMNS.map((c) => texts(events.map((e) => e.row[c]))),
    events.map((e) => (e.ticket === undefined ? null : e.ticket + 1)),
    texts(events.map((e) => e.customer)),
  );
  const row = rows[0];
  if (!row || row.customer_ids.length !== tickets.length) throw new Error('The tickets were not numbered and inserted');
  return { first: Number(row.base) + 1, customerIds: row.customer_ids };
}

// A named statement (db/prepared.ts): the same text for every group, whatever its size (the rows
// are array parameters), so it is parsed and planned once per connection, not once per group
// (measured on a loaded machine: parse 0.5 ms and plan 0.8 ms, a fifth of the statement's time).
const insertTicketGroupQuery = preparedQuery((db: Executor, ...args: unknown[]) => {
  let at = 0;
  const next = () => args[at++];
  const [org, now, count, users, teams] = [next(), next(), next(), next(), next()];
  const texts = (value: unknown) => sql`cast(${value} as text[])`;
  const [customerIds, customerNames, customerEmails, emails] = [next(), next(), next(), next()].map(texts) as [RawBuilder<unknown>, RawBuilder<unknown>, RawBuilder<unknown>, RawBuilder<unknown>];
  const ticketColumns = sql.join(GROUP_TICKET_COLUMNS.map(() => texts(next())));
  const ticketCustomers = texts(next());
  const eventColumns = sql.join(GROUP_EVENT_COLUMNS.map(() => texts(next())));
  const eventTickets = sql`cast(${next()} as bigint[])`;
  const eventCustomers = texts(next());
  const ticketNames = sql.join(GROUP_TICKET_COLUMNS.map((c) => sql.ref(c)));
  const eventNames = sql.join(GROUP_EVENT_COLUMNS.map((c) => sql.ref(c)));
  const picked = (prefix: string, names: readonly string[]) => sql.join(names.map((c) => sql.ref(`${prefix}.${c}`)));
  // The stand-ins are letters and digits only: literals, so the text stays the same for the process.
  const number = sql.lit(NUMBER_MARK);
  const quotedNumber = sql.lit(`"${NUMBER_MARK}"`);
  const quotedCustomer = sql.lit(`"${CUSTOMER_MARK}"`);
  // The rows the tickets refer to are locked (key share) before the counters: a foreign key is
  // checked only at the statement's end, after the feed's counter is taken, where waiting for a
  // transaction that deletes a referenced row (and then wants the feed's counter) is a deadlock.
  return {
    compile: () =>
      sql<{ base: string | number; customer_ids: string[] }>`with found as (
      select id, email_normalized from customers where organization_id = ${org} and email_normalized = any(${ticketCustomers}) for key share
    ), users as (
      select id from users where organization_id = ${org} and id = any(${texts(users)}) for key share
    ), teams as (
      select id from teams where organization_id = ${org} and id = any(${texts(teams)}) for key share
    ), created as (
      insert into customers (id, organization_id, name, email, email_normalized, has_premium_support, is_vip, created_at, updated_at)
      select c.id, ${org}, c.name, c.email, c.email_normalized, 0, 0, ${now}, ${now}
      from unnest(${customerIds}, ${customerNames}, ${customerEmails}, ${emails}) as c(id, name, email, email_normalized)
      where not exists (select from found f where f.email_normalized = c.email_normalized)
      order by c.email_normalized
      on conflict (organization_id, email_normalized) do nothing
      returning id, email_normalized
    ), n as (
      update organizations set ticket_counter = ticket_counter + cast(${count} as integer)
      where id = ${org} and (select count(*) from created) + (select count(*) from users) + (select count(*) from teams) >= 0
      returning ticket_counter - cast(${count} as integer) as base
    ), numbered as (
      select r.*, n.base + r.k as ticket_number, coalesce(f.id, c.id) as customer_id
      from n cross join unnest(${ticketColumns}, ${ticketCustomers}) with ordinality as r(${ticketNames}, customer_email, k)
        left join found f on f.email_normalized = r.customer_email
        left join created c on c.email_normalized = r.customer_email
    ), inserted as (
      insert into tickets (organization_id, ticket_number, customer_id, ${ticketNames})
      select ${org}, t.ticket_number, t.customer_id, ${picked('t', GROUP_TICKET_COLUMNS)} from numbered t order by t.k
      returning ticket_number, customer_id
    ), e as (
      select ${picked('v', GROUP_EVENT_COLUMNS.filter((c) => c !== 'data'))},
        case when t.k is null then v.data
          else replace(replace(replace(v.data, ${quotedNumber}, t.ticket_number::text), ${number}, t.ticket_number::text),
            ${quotedCustomer}, to_json(t.customer_id)::text) end as data,
        row_number() over (order by v.ord) as nth
      from unnest(${eventColumns}, ${eventTickets}, ${eventCustomers}) with ordinality as v(${eventNames}, ticket_k, customer_id, ord)
        left join numbered t on t.k = v.ticket_k
      where v.customer_id is null or v.customer_id in (select id from created)
    ), taken as (
      insert into event_counters (organization_id, position) values (${org}, (select count(*) from e))
      on conflict (organization_id) do update set position = event_counters.position + excluded.position
      returning position
    ), appended as (
      insert into events (organization_id, position, ${eventNames})
      select ${org}, taken.position - (select count(*) from e) + e.nth, ${picked('e', GROUP_EVENT_COLUMNS)}
      from taken, e order by e.nth
      returning 1
    )
    select n.base, array(select customer_id from inserted order by ticket_number) as customer_ids, (select count(*) from appended) as events
    from n`.compile(db),
  };
});

// The get-by-id read: compiled once (and a named statement on PostgreSQL), it runs on every GET.
const findTicketQuery = preparedQuery((db: Executor, organizationId: string, id: string) =>
  db.selectFrom('tickets').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id),
);

export async function findTicket(db: Executor, organizationId: string, id: string): Promise<TicketColumns | undefined> {
  return (await findTicketQuery(db, organizationId, id))[0];
}

const KEY_AS = KEY_COLUMNS.map((c) => sql`k.${sql.ref(c)} as ${sql.ref(`key_${c}`)}`);
const TICKET_AS = COLUMNS.map((c) => sql`t.${sql.ref(c)}`);

// The caller's key by hash and the ticket by id in the key's organization, in one statement.
const findTicketWithKeyQuery = preparedQuery((db: Executor, keyHash: string, id: string) => ({
  compile: () =>
    sql<Record<string, unknown>>`select ${sql.join(KEY_AS)}, ${sql.join(TICKET_AS)}
      from api_keys k left join tickets t on t.organization_id = k.organization_id and t.id = ${id}
      where k.key_hash = ${keyHash}`.compile(db),
}));

// The same for several (key, ticket) pairs at once, PostgreSQL only: row `i` answers the i-th pair
// (1-based); a pair whose key does not exist has no row. Each ticket is looked for only in its own
// key's organization, exactly as above.
const findTicketsWithKeysQuery = preparedQuery((db: Executor, keyHashes: string[], ids: string[]) => ({
  compile: () =>
    sql<Record<string, unknown>>`select r.i, ${sql.join(KEY_AS)}, ${sql.join(TICKET_AS)}
      from unnest(cast(${keyHashes} as text[]), cast(${ids} as text[])) with ordinality as r(key_hash, ticket_id, i)
        join api_keys k on k.key_hash = r.key_hash
        left join tickets t on t.organization_id = k.organization_id and t.id = r.ticket_id`.compile(db),
}));

export interface TicketWithKey {
  key: KeyColumns | undefined;
  record: TicketColumns | null;
}

const NO_KEY: TicketWithKey = { key: undefined, record: null };

function ticketWithKeyOf(row: Record<string, unknown>): TicketWithKey {
  const key: Record<string, unknown> = {};
  for (const c of KEY_COLUMNS) key[c] = row[`key_${c}`];
  if (row.id === null) return { key: key as KeyColumns, record: null };
  const ticket: Record<string, unknown> = {};
  for (const c of COLUMNS) ticket[c] = row[c];
  return { key: key as KeyColumns, record: ticket as TicketColumns };
}

interface KeyAndTicketId {
  keyHash: string;
  id: string;
}

/** Reads of several get-by-ids that arrived in the same turn, one statement per group (PostgreSQL). */
const MAX_READS_PER_STATEMENT = 32;

/** Per database (PostgreSQL only): get-by-id reads waiting to go out together. */
const batches = new WeakMap<Executor, ReadBatch<KeyAndTicketId, TicketWithKey> | null>();

function batchOf(db: Executor): ReadBatch<KeyAndTicketId, TicketWithKey> | null {
  let batch = batches.get(db);
  if (batch === undefined) {
    batch =
      dialectOf(db) === 'postgres'
        ? new ReadBatch<KeyAndTicketId, TicketWithKey>(
            async ({ keyHash, id }) => {
              const row = (await findTicketWithKeyQuery(db, keyHash, id))[0];
              return row ? ticketWithKeyOf(row) : NO_KEY;
            },
            async (reads) => {
              const rows = await findTicketsWithKeysQuery(db, reads.map((r) => r.keyHash), reads.map((r) => r.id));
              const answers = new Array<TicketWithKey>(reads.length).fill(NO_KEY);
              for (const row of rows) answers[(row.i as number) - 1] = ticketWithKeyOf(row);
              return answers;
            },
            MAX_READS_PER_STATEMENT,
          )
        : null;
    batches.set(db, batch);
  }
  return batch;
}

/**
 * GET by id where keys are read on every request (RouteAuth.withKey): the key and the ticket in
 * one round trip. The ticket is looked for only in the key's own organization. On PostgreSQL the
 * reads of requests that arrive in the same turn of the event loop share one statement
 * (db/read-batch.ts), each still answered with its own key and ticket.
 */
export async function findTicketWithKey(db: Executor, keyHash: string, id: string): Promise<TicketWithKey> {
  const batch = batchOf(db);
  if (batch) return batch.read({ keyHash, id });
  const row = (await findTicketWithKeyQuery(db, keyHash, id))[0];
  return row ? ticketWithKeyOf(row) : NO_KEY;
}

/** How the get-by-id reads of this database were grouped so far (statements, reads, largest), or undefined before the first. */
export function ticketWithKeyReadStats(db: Executor): ReadBatchStats | undefined {
  return batches.get(db)?.stats;
}

const versionedStatements = new WeakMap<VersionedReads, VersionedStatement>();

/**
 * GET by id where keys are cached (SQLite, RouteAuth.withKey.readVersioned): the ticket by id in
 * the organization, and the key cache's version from the same read transaction. Synchronous.
 */
export function findTicketVersioned(reads: VersionedReads, organizationId: string, id: string): { version: number; record: TicketColumns | null } {
  let statement = versionedStatements.get(reads);
  if (statement === undefined) {
    statement = reads.prepare(COLUMNS, 'tickets', 't.organization_id = ? and t.id = ?');
    versionedStatements.set(reads, statement);
  }
  const { version, row } = statement(organizationId, id);
  if (row === undefined) return { version, record: null };
  const ticket: Record<string, unknown> = {};
  for (let i = 0; i < COLUMNS.length; i++) ticket[COLUMNS[i]!] = row[i];
  return { version, record: ticket as TicketColumns };
}

/**
 * The ticket, locked until the transaction ends (PostgreSQL `for update`; SQLite's one writer at a
 * time holds the whole store), so what a change replaces is what the change's event says it replaced.
 */
export function findTicketForUpdate(trx: Executor, organizationId: string, id: string): Promise<TicketColumns | undefined> {
  const query = trx.selectFrom('tickets').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(trx, query).executeTakeFirst();
}

/**
 * The list filters other than search, and the cursor's start (a page read by `cursor` starts after
 * its ticket number), on a query that has `tickets` in scope.
 */
function withFilters<O>(query: SelectQueryBuilder<Database, 'tickets', O>, organizationId: string, filters: TicketFilters, page?: Page) {
  let q = query.where('tickets.organization_id', '=', organizationId);
  if (filters.status) q = q.where('tickets.status', '=', filters.status);
  if (filters.priority) q = q.where('tickets.priority', '=', filters.priority);
  if (filters.assignedUserId) q = q.where('tickets.assigned_user_id', '=', filters.assignedUserId);
  if (filters.assignedTeamId) q = q.where('tickets.assigned_team_id', '=', filters.assignedTeamId);
  if (filters.customerId) q = q.where('tickets.customer_id', '=', filters.customerId);
  if (filters.category !== undefined) q = q.where('tickets.category', '=', filters.category);
  if (filters.unassigned !== undefined) q = q.where('tickets.assigned_user_id', filters.unassigned ? 'is' : 'is not', null);
  if (filters.updatedSince !== undefined) q = q.where('tickets.updated_at', '>=', filters.updatedSince);
  if (page?.after) q = q.where(afterCursor(page.after, TICKET_ORDER));
  return q;
}

/**
 * The query for one page of an organization's tickets, newest first, built but not run (so its
 * plan can be checked); every filter is served by an index, and the work a search does is
 * bounded by the page asked for (docs/architecture.md#search):
 *
 * - a term the search index answers: the index yields the organization's candidates (only its
 *   own: the index is partitioned or led by the organization), each ticket fetched by its key and
 *   rechecked; on SQLite newest first straight from the index, stopping when the page is full; on
 *   PostgreSQL (TicketSearch.scanFirst) the organization's newest tickets are tested first, the
 *   index read only when they do not fill the page;
 * - a term it cannot answer (one or two characters): the organization's newest
 *   UNINDEXED_TERM_WINDOW tickets matching the filters, each tested (`windowExceeded` tells when
 *   the page lies beyond them).
 */
export function listTicketsQuery(
  db: Executor,
  search: TicketSearch,
  organizationId: string,
  filters: TicketFilters,
  page: Page,
) {
  const term = filters.search;
  if (term && search.indexes(term.text)) {
    const matches = search.indexedTickets(db, organizationId, term);
    const text = withFilters(matches.query, organizationId, filters, page).select(QUALIFIED).select(matches.newestFirst.as('newest_first'));
    if (search.scanFirst !== undefined && search.scanMatch) {
      // The organization's newest tickets (matching the filters, read from their index in order)
      // tested one by one, stopping when offset + limit match or after scanFirst(those) tickets; the
      // index's matches only when that comes back short, decided in the same statement: a page
      // filled from the newest tickets is the page (matches rank newest first).
      const need = page.offset + page.limit;
      const scanned = search.scanFirst(need);
      const newest = withFilters(db.selectFrom('tickets'), organizationId, filters, page)
        .selectAll('tickets')
        .orderBy('tickets.ticket_number', 'desc')
        .limit(scanned);
      const scan = db
        .selectFrom(newest.as('tickets'))
        .select(COLUMNS)
        .select(sql<number>`tickets.ticket_number`.as('newest_first'))
        .where(search.scanMatch(term, organizationId))
        .orderBy('tickets.ticket_number', 'desc')
        .limit(need);
      const found = sql<number>`(select count(*) from scan)`;
      // Short, the scan is still the whole answer when it read every ticket the filters let
      // through (a customer's 500 tickets): the index would have fetched every match of the term.
      // Looked at only when the scan came back short (AND and OR stop at their first operand).
      // (The ticket number alone, so that the filter's index can answer without the table.)
      const beyond = withFilters(db.selectFrom('tickets'), organizationId, filters, page)
        .select('tickets.ticket_number')
        .orderBy('tickets.ticket_number', 'desc')
        .offset(scanned - 1)
        .limit(1);
      const more = sql<SqlBool>`(select beyond.more from beyond)`;
      return db
        .with((cte) => cte('scan').materialized(), () => scan)
        .with((cte) => cte('beyond').materialized(), (d) => d.selectNoFrom(sql<SqlBool>`exists (${beyond})`.as('more')))
        .selectFrom('scan')
        .selectAll()
        .where(sql<SqlBool>`(${found} >= ${need} or not ${more})`)
        .unionAll(text.where(sql<SqlBool>`(${found} < ${need} and ${more})`) as never)
        .orderBy(sql.ref('newest_first'), 'desc')
        .limit(page.limit)
        .offset(page.offset);
    }
    const numbered = term.ticketNumber === null ? undefined : search.numberedTicket?.(db, organizationId, term.ticketNumber);
    if (!numbered) return text.orderBy(sql.ref('newest_first'), 'desc').limit(page.limit).offset(page.offset);
    // The page of matches read from the index in its order (no sort), then the numbered ticket
    // put in its place among them: a sort of at most offset + limit + 1 rows.
    const firstMatches = text.orderBy(sql.ref('newest_first'), 'desc').limit(page.offset + page.limit);
    const ticket = withFilters(numbered.query, organizationId, filters, page).select(QUALIFIED).select(numbered.newestFirst.as('newest_first'));
    return db
      .selectFrom(firstMatches.as('m'))
      .selectAll()
      .union(db.selectFrom(ticket.as('n')).selectAll())
      .orderBy(sql.ref('newest_first'), 'desc')
      .limit(page.limit)
      .offset(page.offset);
  }
  if (term) {
    // The newest tickets of the window, then the text test on each.
    const window = withFilters(db.selectFrom('tickets'), organizationId, filters, page)
      .selectAll('tickets')
      .orderBy('tickets.ticket_number', 'desc')
      .limit(UNINDEXED_TERM_WINDOW);
    return db
      .selectFrom(window.as('tickets'))
      .select(COLUMNS)
      .where((eb) => {
        const text = search.textMatch(term, organizationId);
        return term.ticketNumber === null ? text : eb.or([text, eb('tickets.ticket_number', '=', term.ticketNumber)]);
      })
      .orderBy('tickets.ticket_number', 'desc')
      .limit(page.limit)
      .offset(page.offset);
  }
  return withFilters(db.selectFrom('tickets'), organizationId, filters, page)
    .select(COLUMNS)
    .orderBy('tickets.ticket_number', 'desc')
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * A query that finds a ticket beyond the window of a term no index answers: when a page of such
 * a search comes back short and this finds one, the page could not be answered within the window.
 */
export function beyondWindowQuery(db: Executor, organizationId: string, filters: TicketFilters, page: Page) {
  return withFilters(db.selectFrom('tickets'), organizationId, filters, page)
    .select('tickets.seq')
    .orderBy('tickets.ticket_number', 'desc')
    .limit(1)
    .offset(UNINDEXED_TERM_WINDOW);
}

/** One page of an organization's tickets, newest first. */
export function listTickets(
  db: Executor,
  search: TicketSearch,
  organizationId: string,
  filters: TicketFilters,
  page: Page,
): Promise<TicketColumns[]> {
  return listTicketsQuery(db, search, organizationId, filters, page).execute();
}

export async function updateTicket(
  db: Executor,
  organizationId: string,
  id: string,
  changes: Updateable<TicketsTable>,
): Promise<void> {
  await db.updateTable('tickets').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Deletes a ticket; its comments and attachment rows go with it (foreign keys cascade). */
export async function deleteTicket(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('tickets').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Unassigns every ticket of a user or a team, touching `updated_at` (decisions §5). */
export async function unassignTickets(
  db: Executor,
  organizationId: string,
  column: 'assigned_user_id' | 'assigned_team_id',
  id: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('tickets')
    .set({ [column]: null, updated_at: at })
    .where('organization_id', '=', organizationId)
    .where(column, '=', id)
    .execute();
}

/** Ids of a customer's tickets (to remove their attachments' bytes when the customer goes). */
export async function ticketIdsOfCustomer(db: Executor, organizationId: string, customerId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('tickets')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('customer_id', '=', customerId)
    .execute();
  return rows.map((r) => r.id);
}
