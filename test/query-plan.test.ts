import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNINDEXED_TERM_WINDOW } from '../src/search/search.js';
import { rowPairs, termPairs } from '../src/search/search-pairs.js';
import { listTicketsQuery, type TicketFilters } from '../src/modules/tickets/tickets.repository.js';
import { listCustomersQuery, type CustomerFilters } from '../src/modules/customers/customers.repository.js';
import type { Page } from '../src/shared/pagination.js';
import { ticketNumberOf } from '../src/modules/tickets/tickets.service.js';
import { buildTestApp, TEST_STORE, type TestApp } from './helpers/test-app.js';

/**
 * Every ticket list query (each filter, and search) must be served by an index: the plan the store
 * picks for the real query the repository builds, with its real parameters. Runs on SQLite and, in
 * the postgres project, on PostgreSQL (whose checks are further down).
 */
let t: TestApp;
/** PostgreSQL: the caller's organization as the high 32 bits of its search index keys (migration 0014). */
let orgKey: bigint;
beforeAll(async () => {
  t = await buildTestApp();
  if (t.store.dialect === 'postgres') {
    const { rows } = await sql<{ h: number }>`select hashtext(${t.org.id}) as h`.execute(t.store.db);
    orgKey = BigInt(rows[0]!.h);
  }
});
afterAll(async () => {
  await t.close();
});

const compiled = (filters: TicketFilters, page: Page = { limit: 100, offset: 200 }) =>
  listTicketsQuery(t.store.db, t.store.search, t.org.id, filters, page).compile();

async function plan(filters: TicketFilters, page?: Page, analyze = false): Promise<string[]> {
  const query = compiled(filters, page);
  if (t.store.dialect === 'postgres') {
    // One connection, so the setting holds for the EXPLAIN. The tables here are tiny, and a
    // sequential scan would be cheapest; turned off, the plan shows which index can serve the query.
    return t.store.db.connection().execute(async (conn) => {
      await sql`set enable_seqscan = off`.execute(conn);
      try {
        const explain = CompiledQuery.raw(`explain (costs off${analyze ? ', analyze, timing off, summary off' : ''}) ${query.sql}`, [...query.parameters]);
        return (await conn.executeQuery<{ 'QUERY PLAN': string }>(explain)).rows.map((r) => r['QUERY PLAN']);
      } finally {
        await sql`reset enable_seqscan`.execute(conn);
      }
    });
  }
  const explain = CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]);
  const result = await t.store.db.executeQuery<{ detail: string }>(explain);
  return result.rows.map((r) => r.detail);
}

const uuid = '00000000-0000-4000-8000-000000000000';
const term = (text: string) => ({ text, ticketNumber: ticketNumberOf(text), deadline: Date.now() + 3_600_000 });

/** Filters and a line their plan must contain. */
const filterCases: [string, TicketFilters, string][] = [
  ['no filter', {}, 'SEARCH tickets USING INDEX tickets_org_number_key (organization_id=?)'],
  ['status', { status: 'open' }, 'SEARCH tickets USING INDEX tickets_org_status_idx (organization_id=? AND status=?)'],
  // Several values (status=open,pending): one range of the filter's index per value (their matches
  // then sorted), or the organization's tickets newest first, whichever the planner deems cheaper.
  ['status (any of)', { status: ['open', 'pending'] }, 'SEARCH tickets USING INDEX tickets_org_'],
  ['priority (any of)', { priority: ['high', 'urgent'] }, 'SEARCH tickets USING INDEX tickets_org_'],
  ['priority', { priority: 'low' }, 'SEARCH tickets USING INDEX tickets_org_priority_idx (organization_id=? AND priority=?)'],
  ['assigned_user_id', { assignedUserId: uuid }, 'SEARCH tickets USING INDEX tickets_org_assigned_user_id_idx (organization_id=? AND assigned_user_id=?)'],
  ['assigned_team_id', { assignedTeamId: uuid }, 'SEARCH tickets USING INDEX tickets_org_assigned_team_id_idx (organization_id=? AND assigned_team_id=?)'],
  ['customer_id', { customerId: uuid }, 'SEARCH tickets USING INDEX tickets_org_customer_id_idx (organization_id=? AND customer_id=?)'],
  ['category', { category: 'billing' }, 'SEARCH tickets USING INDEX tickets_org_category_idx (organization_id=? AND category=?)'],
  ['unassigned=true', { unassigned: true }, 'SEARCH tickets USING INDEX tickets_org_assigned_user_id_idx (organization_id=? AND assigned_user_id=?)'],
  ['unassigned=false', { unassigned: false }, 'USING INDEX tickets_org_'],
  ['short search term', { search: term('ab') }, 'SEARCH tickets USING INDEX tickets_org_number_key (organization_id=?)'],
  // Its own index on an empty store (then sorted), the newest-first walk once the matches are many.
  ['updated_since', { updatedSince: '2026-01-01T00:00:00.000Z' }, 'USING INDEX tickets_org_'],
];

/** Search terms the index answers: the matches must drive the query, each ticket fetched by key. */
const searchCases: [string, TicketFilters][] = [
  ['search', { search: term('printer') }],
  // In one ticket of ten once populated: the matches are many, still each fetched by its key.
  ['search for a common term', { search: term('refund') }],
  ['search by display id', { search: term('TKT-42') }],
  ['search by number', { search: term('12345') }],
  ['search with filters', { search: term('printer'), status: 'open', priority: 'high', unassigned: true }],
];

function expectNoScan(lines: string[]): void {
  for (const line of lines) {
    expect(line).not.toMatch(/\bSCAN (tickets|customers|c)\b/);
    expect(line).not.toMatch(/AUTOMATIC/);
  }
}

function checkAll(): void {
  for (const [name, filters, expected] of filterCases) {
    it(`${name} is read from an index`, async () => {
      const lines = await plan(filters);
      expect(lines.join('\n'), name).toContain(expected);
      if (name === 'short search term') {
        // The organization's newest tickets, a window of UNINDEXED_TERM_WINDOW read from the index
        // in order (a co-routine), and only that window tested: never a walk of all its tickets.
        expect(lines[0]).toBe('CO-ROUTINE tickets');
        expectNoScan(lines.filter((l) => l !== 'SCAN tickets'));
        expect(compiled(filters).parameters).toContain(UNINDEXED_TERM_WINDOW);
      } else {
        expectNoScan(lines);
      }
      // A filtered list is read in ticket-number order from its index: no sort.
      // Several values are several ranges of the index: their matches are merged by a sort.
      if (name !== 'unassigned=false' && name !== 'updated_since' && !name.endsWith('(any of)')) expect(lines).not.toContain('USE TEMP B-TREE FOR ORDER BY');
    });
  }
  it('a cursor page starts in the ticket-number index, after the cursor', async () => {
    const lines = await plan({}, { limit: 100, offset: 0, after: [500] });
    expect(lines).toContain('SEARCH tickets USING INDEX tickets_org_number_key (organization_id=? AND ticket_number<?)');
    expectNoScan(lines);
    expect(lines).not.toContain('USE TEMP B-TREE FOR ORDER BY');
  });
  it('a repetitive term first looks up its seam on its own, in the caller\'s partition, before the AND of its pieces', async () => {
    // A sentence given three times that no ticket holds: its seam piece alone ends the search,
    // where the AND of its pieces stepped over every ticket holding the sentence once.
    const filters = { search: term('Please process a refund for last month. '.repeat(3)) };
    const lines = await plan(filters);
    const text = lines.join('\n');
    expect(lines.some((l) => /^SCAN p VIRTUAL TABLE INDEX \d+:M\d*><$/.test(l)), text).toBe(true);
    expect(lines.some((l) => /^SCAN s VIRTUAL TABLE INDEX \d+:M\d*><$/.test(l)), text).toBe(true);
    // The probes, in order (the seam's windows of two trigrams, then the seam piece), then the AND.
    const parameters = compiled(filters).parameters.filter((p): p is string => typeof p === 'string' && p.startsWith('"'));
    expect(parameters.slice(0, 4)).toEqual(['"h. P"', '". Pl"', '" Ple"', '"h. Ple"']);
    expect(parameters[4]).toMatch(/^"h\. Ple" AND /);
    // A term of one piece: that piece is the whole lookup, with nothing looked up before it.
    const short = (await plan({ search: term('refund') })).join('\n');
    expect(short).not.toMatch(/SCAN p /);
  });
  it('a term of several words first looks up its inner word pairs, one seek each in the caller\'s organization', async () => {
    // The sentence given three times needs `month please`, which no ticket holds (migration 0018):
    // its counts are read before any lookup of the trigram index, each pair a seek of the primary
    // key that leads with the caller's organization key, never a scan of the table.
    const sentence = 'Please process a refund for last month. '.repeat(3);
    const filters = { search: term(sentence) };
    const lines = await plan(filters);
    const text = lines.join('\n');
    const seek = lines.indexOf('SEARCH wp USING PRIMARY KEY (organization_key=? AND pair=?)');
    expect(seek, text).toBeGreaterThan(-1);
    expect(lines.filter((l) => /\bwp\b/.test(l)), text).toEqual(['SEARCH wp USING PRIMARY KEY (organization_key=? AND pair=?)']);
    expect(lines.findIndex((l) => l.startsWith('SCAN p VIRTUAL TABLE')), text).toBeGreaterThan(seek);
    // The organization key is the caller's (its id is the statement's first parameter), the pairs are the term's.
    const { sql: statement, parameters } = compiled(filters);
    expect(statement).toMatch(/^select .* from ticket_search as "s" cross join "tickets" where s\.ticket_search match \(case when \(select count\(\*\) from ticket_search_pairs wp\s+where wp\.organization_key = \(select k\.key from ticket_search_organizations k where k\.organization_id = \?\)/s);
    expect(parameters[0]).toBe(t.org.id);
    expect(JSON.parse(parameters[1] as string)).toEqual(termPairs(sentence.toLowerCase()));
    expect(JSON.parse(parameters[1] as string)).toContain([...rowPairs('month please')][0]);
    // A term without inner pairs (one word; or words its ends may cut) looks none up.
    expect(compiled({ search: term('refund') }).sql).not.toContain('ticket_search_pairs');
    expect(compiled({ search: term('process a refund') }).sql).not.toContain('ticket_search_pairs');
  });
  for (const [name, filters] of searchCases) {
    it(`${name} is driven by the caller's partition of the search index, newest first`, async () => {
      const lines = await plan(filters);
      const text = lines.join('\n');
      expectNoScan(lines);
      // The index is the outer loop, constrained to the organization's rowid range (`>` and `<`:
      // FTS5 seeks each posting list to it, so other organizations' entries are never read) and
      // read in rowid order, which is ticket-number order: no sort of the matches.
      expect(lines.some((l) => /^SCAN s VIRTUAL TABLE INDEX \d+:M\d*><$/.test(l)), text).toBe(true);
      expect(lines.findIndex((l) => l.startsWith('SCAN s'))).toBeLessThan(lines.findIndex((l) => l.startsWith('SEARCH tickets')));
      // Each candidate fetched by its number (with other filters, maybe through their index, by number still).
      expect(lines.some((l) => /^SEARCH tickets USING INDEX tickets_org_\w+ \(organization_id=\? AND (\w+=\? AND )*ticket_number=\?\)$/.test(l)), text).toBe(true);
      // Never a walk over the organization's tickets, testing each against the matches.
      expect(lines.filter((l) => l.startsWith('SEARCH tickets') && l.endsWith('(organization_id=?)')), text).toEqual([]);
      if (filters.search?.ticketNumber === null) {
        expect(lines, text).not.toContain('USE TEMP B-TREE FOR ORDER BY');
      } else {
        // The numbered ticket is merged into the page of matches read in order: only that is sorted.
        expect(lines.slice(lines.indexOf('SCAN m')), text).toContain('USE TEMP B-TREE FOR ORDER BY');
        expect(lines.slice(0, lines.indexOf('SCAN m')), text).not.toContain('USE TEMP B-TREE FOR ORDER BY');
      }
    });
  }
}

/**
 * PostgreSQL: no sequential scan anywhere, and every index condition names the organization, is a
 * ticket fetched by its key, or looks up search keys that are all the caller's organization's
 * (migration 0014: its high 32 bits), so nothing reads beyond the caller's organization. A filter is
 * served by an index: either its column is an index condition, or the organization's tickets are
 * walked newest first from tickets_org_number_key without a sort, which stops at the page's end.
 */
function expectPostgresIndexed(lines: string[]): void {
  const text = lines.join('\n');
  expect(text).not.toMatch(/Seq Scan/);
  for (const line of lines.filter((l) => /(Index|Recheck) Cond:/.test(l))) {
    const keys = /ticket_search_trigram_keys\(organization_id, .*?\) @> '\{([-\d,]+)\}'::bigint\[\]\)/.exec(line);
    if (keys) expect(keys[1]!.split(',').map((k) => BigInt.asIntN(32, BigInt(k) >> 32n)), text).toEqual(keys[1]!.split(',').map(() => orgKey));
    // The organization's own row (the newest-window's ticket counter) is the caller's too.
    else expect(line, text).toMatch(new RegExp(`organization_id = '|\\(seq = |^\\s+Index Cond: \\(id = '${t.org.id}'::text\\)$`));
  }
}

const filterColumn: Record<string, string> = {
  status: 'status', priority: 'priority', 'status (any of)': 'status', 'priority (any of)': 'priority', assigned_user_id: 'assigned_user_id', assigned_team_id: 'assigned_team_id',
  customer_id: 'customer_id', category: 'category', 'unassigned=true': 'assigned_user_id', 'unassigned=false': 'assigned_user_id',
  updated_since: 'updated_at',
};

const walksNewestFirst = (lines: string[]) =>
  lines.some((l) => l.includes('Index Scan Backward using tickets_org_number_key on tickets')) && !lines.some((l) => /\bSort\b/.test(l));

function checkAllPostgres(populated: boolean): void {
  it('a cursor page starts in the ticket-number index, after the cursor', async () => {
    const lines = await plan({}, { limit: 100, offset: 0, after: [500] });
    expectPostgresIndexed(lines);
    const text = lines.join('\n');
    expect(walksNewestFirst(lines), text).toBe(true);
    expect(text).toMatch(/Index Cond: \(\(organization_id = '[^']*'::text\) AND \(ticket_number < /);
  });
  for (const [name, filters] of filterCases) {
    it(`${name} is read from an index`, async () => {
      const lines = await plan(filters);
      expectPostgresIndexed(lines);
      const column = filterColumn[name];
      const text = lines.join('\n');
      const indexCond = column !== undefined && lines.some((l) => l.includes('Index Cond:') && l.includes(`(${column} `));
      if (column === undefined || name === 'short search term') {
        expect(walksNewestFirst(lines), text).toBe(true);
      } else if (!populated && !name.startsWith('unassigned') && name !== 'updated_since' && !name.endsWith('(any of)')) {
        // With no statistics to go by, the filter's own index is what serves it.
        expect(text).toContain(`using tickets_org_${column}_idx`);
        expect(indexCond, text).toBe(true);
      } else {
        expect(indexCond || walksNewestFirst(lines), text).toBe(true);
      }
    });
  }
  for (const [name, filters] of searchCases) {
    it(`${name} is ${populated ? 'driven by the trigram indexes' : 'read from indexes'}`, async () => {
      // A page whose scan (50 tickets per ticket needed) is shorter than the organization's 5,000
      // tickets, as it is at scale: the planner then reads them newest first from an index.
      const lines = await plan(filters, populated ? { limit: 25, offset: 0 } : undefined);
      const text = lines.join('\n');
      expectPostgresIndexed(lines);
      if (!populated) return;
      // A rare term (1 ticket in 1,000) or a common one (1 in 10): the matches come from the
      // organization-partitioned search indexes of tickets and customers (every key looked up is the
      // caller's: expectPostgresIndexed), each fetched by its key; the organization's tickets are
      // walked only by the bounded newest-first scan, never whole, nor joined whole.
      for (const index of ['tickets_search_keys_idx', 'customers_search_keys_idx']) {
        expect(text).toMatch(new RegExp(`Bitmap Index Scan on ${index}\\n\\s+Index Cond: \\(\\(*ticket_search_trigram_keys\\(organization_id, `));
      }
      // The organization's tickets are walked newest first only under a Limit (the scan that
      // comes first: TicketSearch.scanFirst), from the number index or a filter's.
      expectWalksBounded(lines);
      // The index's matches are fetched by key, with filters too (tested after: never a walk of a
      // filter's index testing each ticket against the matches).
      expect(text).toMatch(/Index Scan using tickets_pkey on tickets( tickets_\d+)?\n\s+Index Cond: \(seq = /);
      if (filters.search?.ticketNumber !== null) {
        expect(text).toMatch(/using tickets_org_number_key on tickets tickets_\d+\n\s+Index Cond: \(\(organization_id = '[^']*'::text\) AND \(ticket_number = /);
      }
    });
  }
}

/**
 * Every walk of the organization's tickets (an index range led by the organization alone, or by
 * the organization and a filter) is bounded by a Limit: the newest-first scan a search makes first
 * (TicketSearch.scanFirst) and its probe for a ticket beyond it read an index backward under a
 * Limit or, where the planner expects few tickets to pass the filters, a bitmap of them under a
 * top-N Sort under a Limit.
 */
function expectWalksBounded(lines: string[]): void {
  const text = lines.join('\n');
  const walk = /Index Cond: (\(organization_id = '[^']*'::text\)|\(\(organization_id = '[^']*'::text\) AND \(\w+ = '[^']*'::text\)\))$/;
  const indent = (line: string) => line.search(/\S/);
  // The plan node a line belongs to, or the node above a node.
  const parent = (i: number): number => {
    const depth = lines[i]!.includes('->') ? indent(lines[i]!) : indent(lines[i]!) - 1;
    for (let j = i - 1; j >= 0; j--) if (lines[j]!.includes('->') && indent(lines[j]!) < depth) return j;
    return -1;
  };
  const walks = lines.flatMap((l, i) => (walk.test(l) ? [i] : []));
  expect(walks.length, text).toBeGreaterThan(0);
  for (const i of walks) {
    let node = parent(i);
    if (/Bitmap Index Scan on tickets_org_\w+/.test(lines[node]!)) {
      node = parent(node);
      expect(lines[node], text).toMatch(/Bitmap Heap Scan on tickets/);
      node = parent(node);
      expect(lines[node], text).toMatch(/->\s+Sort/);
    } else {
      expect(lines[node], text).toMatch(/Index (Only )?Scan Backward using tickets_org_\w+ on tickets/);
    }
    expect(lines[parent(node)], text).toMatch(/->\s+Limit/);
  }
}

/**
 * PostgreSQL: a search first tests the organization's newest tickets, at most
 * scanFirst(offset + limit) of them, and reads the index's matches only when those do not fill
 * the page: both in one statement, the index's half under a one-time condition.
 */
function checkScanFirstPostgres(): void {
  const page = { limit: 25, offset: 0 };
  const need = page.offset + page.limit;
  const actualRows = (lines: string[], pattern: RegExp): number => {
    const line = lines.find((l) => pattern.test(l));
    expect(line, lines.join('\n')).toBeDefined();
    if (line!.includes('never executed')) return 0;
    return Number(/rows=(\d+)/.exec(line!)![1]);
  };
  it('a common term is answered by the bounded newest-first scan; the search index is not read', async () => {
    // "refund" is in one of the caller's tickets in ten: the page fills within the first 250.
    expect(compiled({ search: term('refund') }, page).parameters).toContain(t.store.search.scanFirst!(need));
    const lines = await plan({ search: term('refund') }, page, true);
    const text = lines.join('\n');
    expect(actualRows(lines, /Index Scan Backward using tickets_org_number_key/), text).toBeLessThanOrEqual(need * 10 + 10);
    expect(lines.find((l) => l.includes('Bitmap Index Scan on tickets_search_keys_idx')), text).toMatch(/never executed/);
    expect(lines.find((l) => l.includes('Index Scan using tickets_pkey')), text).toMatch(/never executed/);
  });
  it('a rare term reads at most scanFirst(offset + limit) of the newest tickets, then the search index', async () => {
    // "printer" is in 10 of the caller's 5,000 tickets: the scan stops at its bound.
    const lines = await plan({ search: term('printer') }, page, true);
    const text = lines.join('\n');
    expect(actualRows(lines, /Index Scan Backward using tickets_org_number_key/), text).toBe(t.store.search.scanFirst!(need));
    expect(actualRows(lines, /Bitmap Index Scan on tickets_search_keys_idx/), text).toBe(10);
    expect(actualRows(lines, /^\s*Limit/), text).toBe(10);
  });
  it('a sentence given three times that no ticket holds has no candidate in the search index', async () => {
    // Its words are in every ticket holding the sentence once; the pair where one repetition meets
    // the next (`month please`, migration 0017) is in none. Before, each was read and rechecked.
    const sentence = 'Please process a refund for last month. ';
    const now = new Date().toISOString();
    const customer = await t.store.db.selectFrom('customers').select('id').where('organization_id', '=', t.org.id).executeTakeFirstOrThrow();
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: randomUUID(), organization_id: t.org.id, ticket_number: 100_000 + i, tracking_token: randomUUID(), customer_id: customer.id,
      subject: 'Refund', description: `${sentence}Thanks!`, status: 'new' as const, priority: 'low' as const, created_at: now, updated_at: now,
    }));
    await t.store.db.insertInto('tickets').values(rows).execute();
    try {
      const lines = await plan({ search: term(sentence.repeat(3)) }, page, true);
      expect(actualRows(lines, /Bitmap Index Scan on tickets_search_keys_idx/), lines.join('\n')).toBe(0);
      const once = await plan({ search: term(sentence.trim()) }, { limit: 100, offset: 0 }, true);
      expect(actualRows(once, /^\s*Limit/), once.join('\n')).toBe(30);
    } finally {
      await t.store.db.deleteFrom('tickets').where('ticket_number', '>=', 100_000).where('organization_id', '=', t.org.id).execute();
    }
  });
  it('when the filters let through fewer tickets than the scan\'s bound, the scan is the whole answer; the search index is not read', async () => {
    // 1,000 of the caller's tickets are open, none of them with "refund": a page of 25 may scan
    // 1,250, so the scan read every one; the index would fetch every "refund" ticket to filter them.
    const lines = await plan({ search: term('refund'), status: 'open' }, page, true);
    const text = lines.join('\n');
    expect(actualRows(lines, /^\s*Limit/), text).toBe(0);
    expect(lines.find((l) => l.includes('Bitmap Index Scan on tickets_search_keys_idx')), text).toMatch(/never executed/);
  });
  it('with filters, the scan reads the filter\'s index newest first, bounded too', async () => {
    // 1,000 of the caller's tickets are open: a page of 10 scans at most 500 of them.
    const lines = await plan({ search: term('refund'), status: 'open' }, { limit: 10, offset: 0 }, true);
    const text = lines.join('\n');
    expectPostgresIndexed(lines);
    expectWalksBounded(lines);
    expect(text).toMatch(/Index Scan Backward using tickets_org_status_idx on tickets/);
  });
}

const TICKETS = 10_000;
const FIELD_ID = randomUUID();
const CUSTOMERS = 2_000;

async function populate(): Promise<void> {
  const other = await t.newOrg('Other');
  const now = new Date().toISOString();
  const customers = Array.from({ length: CUSTOMERS }, (_, i) => ({ id: randomUUID(), org: i % 2 ? other.id : t.org.id }));
  await t.store.db
    .insertInto('customers')
    .values(customers.map((c, i) => ({ id: c.id, organization_id: c.org, name: `C${i}`, email: `c${i}@x.io`, email_normalized: `c${i}@x.io`, has_premium_support: 0, is_vip: 0, created_at: now, updated_at: now })))
    .execute();
  const customerOf = (i: number) => customers[i % CUSTOMERS]!;
  const statuses = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
  const rows = Array.from({ length: TICKETS }, (_, i) => ({
    id: randomUUID(), organization_id: customerOf(i).org, ticket_number: i + 1, tracking_token: randomUUID(),
    // The searched word is in one ticket of a thousand, as a real search term would be.
    customer_id: customerOf(i).id, subject: `${i % 1000 === 0 ? 'printer' : 'other'} problem ${i}`,
    description: i % 20 === 0 ? 'asks for a refund' : 'the description', status: statuses[i % 5]!,
    priority: 'low' as const, category: i % 3 ? 'billing' : null, created_at: now, updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 500) await t.store.db.insertInto('tickets').values(rows.slice(i, i + 500)).execute();
  // Tags: 'rare' on one ticket of a thousand, 'common' on every other one.
  const tagged = rows.flatMap((r, i) => [
    ...(i % 1000 === 0 ? ['rare'] : []),
    ...(i % 2 === 0 ? ['common'] : []),
  ].map((tag) => ({ organization_id: r.organization_id, tag, ticket_number: r.ticket_number, ticket_id: r.id })));
  for (let i = 0; i < tagged.length; i += 500) await t.store.db.insertInto('ticket_tags').values(tagged.slice(i, i + 500)).execute();
  // A custom field with a text value on one ticket of three and a number on every other one.
  await t.store.db
    .insertInto('ticket_fields')
    .values({ id: FIELD_ID, organization_id: t.org.id, key: 'plan', label: 'Plan', type: 'text', options: null, required: 0, created_at: now, updated_at: now })
    .execute();
  const values = rows.flatMap((r, i) =>
    r.organization_id !== t.org.id ? [] : [
      ...(i % 3 === 0 ? [{ value_text: 'pro', value_number: null }] : []),
      ...(i % 2 === 0 ? [{ value_text: null, value_number: i % 7 }] : []),
    ].map((v) => ({ id: randomUUID(), organization_id: r.organization_id, field_id: FIELD_ID, ticket_id: r.id, ticket_number: r.ticket_number, ...v })),
  );
  for (let i = 0; i < values.length; i += 500) await t.store.db.insertInto('ticket_field_values').values(values.slice(i, i + 500)).execute();
  await t.store.db.executeQuery(CompiledQuery.raw('analyze'));
}

describe('on an empty store', () => {
  if (TEST_STORE === 'postgres') checkAllPostgres(false);
  else checkAll();
});

describe('with statistics from a populated store (ANALYZE)', () => {
  beforeAll(populate);
  it('custom_fields[<key>]= is driven by the value index of its type, newest first, each ticket fetched by number', async () => {
    for (const [value, index] of [[{ text: 'pro' }, 'ticket_field_values_text_idx'], [{ number: 3 }, 'ticket_field_values_number_idx']] as const) {
      const column = 'text' in value ? 'value_text' : 'value_number';
      for (const after of [undefined, [5000]]) {
        const lines = await plan({ customFields: [{ fieldId: FIELD_ID, value }] }, { limit: 25, offset: 0, after });
        const text = lines.join('\n');
        if (t.store.dialect === 'postgres') {
          expectPostgresIndexed(lines);
          expect(text).toMatch(new RegExp(`Index Only Scan Backward using ${index} on ticket_field_values fv\\n\\s+Index Cond: \\(\\(organization_id = '[^']*'::text\\) AND \\(field_id = '[^']*'::text\\) AND \\(${column} = [^)]*\\)${after ? ' AND \\(ticket_number < ' : '\\)'}`));
          expect(text).not.toMatch(/\bSort\b/);
        } else {
          expect(lines[0], text).toBe(`SEARCH fv USING COVERING INDEX ${index} (organization_id=? AND field_id=? AND ${column}=?${after ? ' AND ticket_number<?' : ''})`);
          expect(lines[1], text).toBe('SEARCH tickets USING INDEX tickets_org_number_key (organization_id=? AND ticket_number=?)');
          expectNoScan(lines);
          expect(lines, text).not.toContain('USE TEMP B-TREE FOR ORDER BY');
        }
      }
    }
    // A second field's value is checked by a seek of its index.
    const two = await plan({ customFields: [{ fieldId: FIELD_ID, value: { text: 'pro' } }, { fieldId: FIELD_ID, value: { number: 3 } }] }, { limit: 25, offset: 0 });
    expect(two.join('\n')).toMatch(/ticket_field_values_number_idx/);
  });
  describe('tag filters', () => {
    const page = { limit: 25, offset: 0 };
    const sqliteTagSeek = (alias: string, more = '') => `SEARCH ${alias} USING COVERING INDEX sqlite_autoindex_ticket_tags_1 (organization_id=? AND tag=?${more})`;
    it('tag= is driven by the first tag\'s rows of ticket_tags, newest first, each ticket fetched by number', async () => {
      for (const tags of [['rare'], ['common'], ['rare', 'common']]) {
        const lines = await plan({ tags }, page);
        const text = lines.join('\n');
        if (t.store.dialect === 'postgres') {
          expectPostgresIndexed(lines);
          expect(lines[1]).toMatch(/^\s+->\s+(Nested Loop|Merge Join)/);
          expect(text).toMatch(/Index Only Scan Backward using ticket_tags_pkey on ticket_tags tt\n\s+Index Cond: \(\(organization_id = '[^']*'::text\) AND \(tag = /);
          expect(text).not.toMatch(/\bSort\b/);
          if (tags.length > 1) expect(text).toMatch(/Index Only Scan using ticket_tags_pkey on ticket_tags\n\s+Index Cond: .*\(tag = 'common'::text\) AND \(ticket_number = tickets.ticket_number\)/);
        } else {
          expect(lines[0], text).toBe(sqliteTagSeek('tt'));
          expect(lines[1], text).toBe('SEARCH tickets USING INDEX tickets_org_number_key (organization_id=? AND ticket_number=?)');
          if (tags.length > 1) expect(lines, text).toContain(sqliteTagSeek('ticket_tags', ' AND ticket_number=?'));
          expectNoScan(lines);
          expect(lines, text).not.toContain('USE TEMP B-TREE FOR ORDER BY');
        }
      }
    });
    it('a cursor page of tag= starts in ticket_tags after the cursor', async () => {
      const lines = await plan({ tags: ['common'] }, { limit: 25, offset: 0, after: [5000] });
      const text = lines.join('\n');
      if (t.store.dialect === 'postgres') {
        expectPostgresIndexed(lines);
        expect(text).toMatch(/on ticket_tags tt\n\s+Index Cond: \(\(organization_id = '[^']*'::text\) AND \(tag = 'common'::text\) AND \(ticket_number < /);
      } else {
        expect(lines[0], text).toBe(sqliteTagSeek('tt', ' AND ticket_number<?'));
        expect(lines, text).not.toContain('USE TEMP B-TREE FOR ORDER BY');
      }
    });
    it('any_tag= walks the tickets newest first, each checked by a seek of ticket_tags; one tag drives like tag=', async () => {
      const lines = await plan({ anyTags: ['rare', 'common'] }, page);
      const text = lines.join('\n');
      if (t.store.dialect === 'postgres') {
        expectPostgresIndexed(lines);
        expect(walksNewestFirst(lines), text).toBe(true);
        expect(text).toMatch(/using ticket_tags_pkey on ticket_tags\n\s+Index Cond: .*\(tag = ANY .*\(ticket_number = tickets.ticket_number\)/);
      } else {
        expect(lines, text).toContain('SEARCH tickets USING INDEX tickets_org_number_key (organization_id=?)');
        expect(lines, text).toContain(sqliteTagSeek('ticket_tags', ' AND ticket_number=?'));
        expectNoScan(lines);
        expect(lines, text).not.toContain('USE TEMP B-TREE FOR ORDER BY');
      }
      const one = (await plan({ anyTags: ['rare'] }, page)).join('\n');
      expect(one).toMatch(t.store.dialect === 'postgres' ? /Index Only Scan Backward using ticket_tags_pkey/ : /^SEARCH tt USING COVERING INDEX/);
    });
  });
  if (TEST_STORE === 'postgres') {
    checkAllPostgres(true);
    checkScanFirstPostgres();
  } else checkAll();
});

/** The customer list's filters (email, updated_since) and its cursor are served by indexes too. */
describe('customer list filters', () => {
  async function customerPlan(filters: CustomerFilters, page: Page): Promise<string[]> {
    const compiled = listCustomersQuery(t.store.db, t.org.id, filters, page).compile();
    if (t.store.dialect === 'postgres') {
      return t.store.db.connection().execute(async (conn) => {
        await sql`set enable_seqscan = off`.execute(conn);
        try {
          const explain = CompiledQuery.raw(`explain (costs off) ${compiled.sql}`, [...compiled.parameters]);
          return (await conn.executeQuery<{ 'QUERY PLAN': string }>(explain)).rows.map((r) => r['QUERY PLAN']);
        } finally {
          await sql`reset enable_seqscan`.execute(conn);
        }
      });
    }
    const explain = CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]);
    return (await t.store.db.executeQuery<{ detail: string }>(explain)).rows.map((r) => r.detail);
  }
  const cases: [string, CustomerFilters, Page, RegExp][] = [
    ['email', { email: 'Ada@Example.com' }, { limit: 50, offset: 0 }, /customers_org_email_key/],
    ['updated_since', { updatedSince: '2026-01-01T00:00:00.000Z' }, { limit: 50, offset: 0 }, /customers_org_(updated_at|created)_idx/],
    ['cursor', {}, { limit: 50, offset: 0, after: ['2026-01-01T00:00:00.000Z', uuid] }, /customers_org_created_idx/],
  ];
  for (const [name, filters, page, index] of cases) {
    it(`${name} is read from an index`, async () => {
      const lines = await customerPlan(filters, page);
      const text = lines.join('\n');
      expect(text).toMatch(index);
      expect(text).not.toMatch(/Seq Scan|\bSCAN customers\b/);
    });
  }
});
