import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import type { Store } from '../src/db/store.js';
import type { CustomersTable, TicketsTable } from '../src/db/types.js';

/** A small seeded generator, so every run seeds the same data set. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The words seeded tickets are made of (bench/search-seed-postgres.ts makes the same ones in SQL). */
export const FIRST = ['Ada', 'Grace', 'Alan', 'Linus', 'Margaret', 'Ken', 'Barbara', 'Dennis', 'Frances', 'Edsger', 'Radia', 'Tim', 'Hedy', 'John', 'Katherine', 'Guido', 'Sophie', 'Yukihiro', 'Anita', 'Bjarne'];
export const LAST = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Hamilton', 'Thompson', 'Liskov', 'Ritchie', 'Allen', 'Dijkstra', 'Perlman', 'Berners-Lee', 'Lamarr', 'Backus', 'Johnson', 'van Rossum', 'Wilson', 'Matsumoto', 'Borg', 'Stroustrup'];
export const DOMAINS = ['example.com', 'acme.test', 'globex.test', 'initech.test', 'umbrella.test', 'hooli.test'];
export const AREAS = ['invoice', 'login page', 'password reset', 'CSV export', 'dashboard', 'API token', 'webhook', 'mobile app', 'SSO setup', 'billing address', 'subscription', 'search results', 'email notifications', 'report builder', 'user permissions'];
export const PROBLEMS = ['is not loading', 'shows the wrong total', 'returns an error 500', 'is very slow since yesterday', 'does not send anything', 'times out', 'looks broken on Safari', 'keeps logging me out', 'lost my settings', 'was charged twice'];
export const OPENERS = ['Hello team,', 'Hi support,', 'Good morning,', 'Dear support team,', 'Hey there,'];
export const DETAILS = [
  'It started after the last update and happens for everyone in our office.',
  'We tried clearing the cache and another browser, with the same result.',
  'This blocks our month-end close, so a quick answer would be appreciated.',
  'The error message says something about an expired session.',
  'Attached is a screenshot of what we see on the screen.',
  'Our account manager suggested we open a ticket here.',
  'It only happens for some of our users, not all of them.',
  'We are on the business plan, if that matters.',
];
// The benchmark's search term: present in some tickets (about 3%), absent from the rest.
export const SEARCH_TERM = 'refund';
export const REFUND = ['Could we get a refund for the duplicate charge?', 'Please process a refund for last month.'];
const CATEGORIES = ['billing', 'technical', 'account', 'shipping', 'feature-request', null];
const STATUS: Array<[TicketsTable['status'], number]> = [['new', 0.15], ['open', 0.3], ['pending', 0.15], ['resolved', 0.25], ['closed', 0.15]];
const PRIORITY: Array<[TicketsTable['priority'], number]> = [['low', 0.25], ['medium', 0.45], ['high', 0.22], ['urgent', 0.08]];

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Due date, resolution and closing times of a ticket created at `created`: a due date on 40% of
 * tickets (1 to 14 days after creation), resolution 5 minutes to 14 days after creation
 * (log-uniform, so most are quick and a few take long), closing up to 2 days after that; none in
 * the future. The dashboard's overdue, resolved and median figures read these.
 */
function ticketTimes(rnd: () => number, created: string, status: TicketsTable['status'], now: number) {
  const createdMs = Date.parse(created);
  const iso = (ms: number) => new Date(Math.min(ms, now)).toISOString();
  const due = rnd() < 0.4 ? new Date(createdMs + DAY_MS * (1 + Math.floor(rnd() * 14))).toISOString() : null;
  const resolvedMs = createdMs + Math.exp(Math.log(5 * MINUTE_MS) + rnd() * Math.log((14 * DAY_MS) / (5 * MINUTE_MS)));
  const closedMs = resolvedMs + rnd() * 2 * DAY_MS;
  const done = status === 'resolved' || status === 'closed';
  return {
    due_date: due,
    resolved_at: done ? iso(resolvedMs) : null,
    closed_at: status === 'closed' ? iso(closedMs) : null,
    updated_at: status === 'closed' ? iso(closedMs) : done ? iso(resolvedMs) : created,
  };
}

const pick = <T>(rnd: () => number, list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
function weighted<T>(rnd: () => number, table: Array<[T, number]>): T {
  let r = rnd();
  for (const [value, weight] of table) if ((r -= weight) < 0) return value;
  return table[table.length - 1]![0];
}

export interface Seeded {
  ticketIds: string[];
  matching: number;
}

/**
 * Seeds one organization straight through Kysely in batched transactions: the API would take
 * minutes for 100,000 tickets, and the bench measures reads. The FTS triggers index every row.
 */
export async function seed(
  store: Store,
  organizationId: string,
  counts: { tickets: number; customers: number },
  onProgress: (done: number) => void = () => undefined,
): Promise<Seeded> {
  const { db } = store;
  const rnd = random(42);
  // Resolution times and due dates come from a generator of their own, so the rest of the data
  // set (and the search figures) stays what it was before the dashboard needed them.
  const rndTimes = random(4242);
  const now = Date.now();
  if (store.dialect === 'sqlite') {
    // A million rows with random-UUID keys touch index pages all over the file: give the seeding
    // connection a cache big enough to keep them (256 MiB; the default is 2 MiB).
    await sql`pragma cache_size = -262144`.execute(db);
  }
  const yearAgo = now - 365 * 86_400_000;
  const at = (i: number, total: number) => new Date(yearAgo + Math.floor((i / total) * 364 * 86_400_000)).toISOString();

  const userIds: string[] = [];
  const teamIds: string[] = [];
  await db.transaction().execute(async (trx) => {
    const now = new Date(yearAgo).toISOString();
    for (let i = 0; i < 8; i++) {
      const id = randomUUID();
      userIds.push(id);
      const email = `agent${i}@support.example.com`;
      await trx.insertInto('users').values({ id, organization_id: organizationId, email, email_normalized: email, full_name: `${pick(rnd, FIRST)} ${pick(rnd, LAST)}`, role: i === 0 ? 'admin' : 'agent', is_active: 1, created_at: now, updated_at: now }).execute();
    }
    for (const name of ['Billing', 'Technical support', 'Accounts', 'Escalations']) {
      const id = randomUUID();
      teamIds.push(id);
      await trx.insertInto('teams').values({ id, organization_id: organizationId, name, description: `${name} team`, created_at: now, updated_at: now }).execute();
    }
  });

  const customerIds: string[] = [];
  const customers: Insertable<CustomersTable>[] = [];
  for (let i = 0; i < counts.customers; i++) {
    const first = pick(rnd, FIRST);
    const last = pick(rnd, LAST);
    const email = `${first}.${last.replace(/[ -]/g, '')}${i}@${pick(rnd, DOMAINS)}`.toLowerCase();
    const id = randomUUID();
    customerIds.push(id);
    const created = at(i, counts.customers * 4);
    customers.push({ id, organization_id: organizationId, name: `${first} ${last}`, email, email_normalized: email, company: null, has_premium_support: rnd() < 0.2 ? 1 : 0, is_vip: rnd() < 0.05 ? 1 : 0, created_at: created, updated_at: created });
  }
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < customers.length; i += 500) await trx.insertInto('customers').values(customers.slice(i, i + 500)).execute();
  });

  const ticketIds: string[] = [];
  let matching = 0;
  const BATCH = 500; // 17 columns x 500 rows stays under SQLite's bound-parameter limit
  const PER_TRANSACTION = 40;
  for (let start = 0; start < counts.tickets; start += BATCH * PER_TRANSACTION) {
    await db.transaction().execute(async (trx) => {
      for (let b = start; b < Math.min(start + BATCH * PER_TRANSACTION, counts.tickets); b += BATCH) {
        const rows: Insertable<TicketsTable>[] = [];
        for (let n = b; n < Math.min(b + BATCH, counts.tickets); n++) {
          const id = randomUUID();
          ticketIds.push(id);
          const refund = rnd() < 0.03;
          if (refund) matching++;
          const area = pick(rnd, AREAS);
          const status = weighted(rnd, STATUS);
          const created = at(n, counts.tickets);
          const times = ticketTimes(rndTimes, created, status, now);
          const description = [pick(rnd, OPENERS), `The ${area} ${pick(rnd, PROBLEMS)}.`, pick(rnd, DETAILS), refund ? pick(rnd, REFUND) : pick(rnd, DETAILS), 'Thanks!'].join(' ');
          rows.push({
            id,
            organization_id: organizationId,
            ticket_number: n + 1,
            tracking_token: randomUUID(),
            customer_id: pick(rnd, customerIds),
            subject: `${refund && rnd() < 0.5 ? 'Refund request: ' : ''}${area[0]!.toUpperCase()}${area.slice(1)} ${pick(rnd, PROBLEMS)}`,
            description,
            status,
            priority: weighted(rnd, PRIORITY),
            category: pick(rnd, CATEGORIES),
            assigned_user_id: rnd() < 0.7 ? pick(rnd, userIds) : null,
            assigned_team_id: rnd() < 0.6 ? pick(rnd, teamIds) : null,
            ...times,
            created_at: created,
          });
        }
        await trx.insertInto('tickets').values(rows).execute();
      }
    });
    onProgress(Math.min(start + BATCH * PER_TRANSACTION, counts.tickets));
  }
  if (store.dialect === 'sqlite') await sql`pragma cache_size = -2000`.execute(db); // back to the default the service runs with
  // A table that has just been bulk-loaded has neither planner statistics nor a visibility map yet,
  // so PostgreSQL would guess plans and read the heap on index-only scans. Autovacuum sees to both
  // in a running installation; here it is done at once, so the figures are those of a settled table.
  if (store.dialect === 'postgres') await sql`vacuum analyze`.execute(db);
  // The next ticket created through the API must continue the numbering.
  await db.updateTable('organizations').set({ ticket_counter: counts.tickets }).where('id', '=', organizationId).execute();
  return { ticketIds, matching };
}
