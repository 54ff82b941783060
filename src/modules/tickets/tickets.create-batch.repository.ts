import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type RawBuilder } from 'kysely';
import { preparedQuery } from '../../db/prepared.js';
import type { CustomersTable, TicketsTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import type { UnpositionedEventRow } from '../events/events.repository.js';

/**
 * The statements of tickets.create-batch.ts: several creates written at once. The plain create
 * (tickets.service.ts createTicket) needs none of them.
 */

/** Rows per insert: 21 parameters each stays below SQLite's limit of 32,766. */
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
  'assigned_team_id', 'due_date', 'created_at', 'updated_at', 'resolved_at', 'closed_at', 'sla', 'sla_next_due_at', 'next_sla_deadline_at',
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
// (its parse and plan were a fifth of the statement's time).
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

