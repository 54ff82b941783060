import { randomUUID } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTicketsQuery, type TicketFilters } from '../src/modules/tickets/tickets.repository.js';
import { ticketNumberOf } from '../src/modules/tickets/tickets.service.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Every ticket list query (each filter, and search) must be served by an index: the plan SQLite
 * picks for the real query the repository builds, with its real parameters.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

async function plan(filters: TicketFilters): Promise<string[]> {
  const compiled = listTicketsQuery(t.store.db, t.store.search, t.org.id, filters, { limit: 100, offset: 200 }).compile();
  const explain = CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]);
  const result = await t.store.db.executeQuery<{ detail: string }>(explain);
  return result.rows.map((r) => r.detail);
}

const uuid = '00000000-0000-4000-8000-000000000000';
const term = (text: string) => ({ text, ticketNumber: ticketNumberOf(text) });

/** Filters and a line their plan must contain. */
const filterCases: [string, TicketFilters, string][] = [
  ['no filter', {}, 'SEARCH tickets USING INDEX tickets_org_number_key (organization_id=?)'],
  ['status', { status: 'open' }, 'SEARCH tickets USING INDEX tickets_org_status_idx (organization_id=? AND status=?)'],
  ['priority', { priority: 'low' }, 'SEARCH tickets USING INDEX tickets_org_priority_idx (organization_id=? AND priority=?)'],
  ['assigned_user_id', { assignedUserId: uuid }, 'SEARCH tickets USING INDEX tickets_org_assigned_user_id_idx (organization_id=? AND assigned_user_id=?)'],
  ['assigned_team_id', { assignedTeamId: uuid }, 'SEARCH tickets USING INDEX tickets_org_assigned_team_id_idx (organization_id=? AND assigned_team_id=?)'],
  ['customer_id', { customerId: uuid }, 'SEARCH tickets USING INDEX tickets_org_customer_id_idx (organization_id=? AND customer_id=?)'],
  ['category', { category: 'billing' }, 'SEARCH tickets USING INDEX tickets_org_category_idx (organization_id=? AND category=?)'],
  ['unassigned=true', { unassigned: true }, 'SEARCH tickets USING INDEX tickets_org_assigned_user_id_idx (organization_id=? AND assigned_user_id=?)'],
  ['unassigned=false', { unassigned: false }, 'USING INDEX tickets_org_'],
  ['short search term', { search: term('ab') }, 'SEARCH tickets USING INDEX tickets_org_number_key (organization_id=?)'],
];

/** Search terms the index answers: the matches must drive the query, each ticket fetched by key. */
const searchCases: [string, TicketFilters][] = [
  ['search', { search: term('printer') }],
  ['search by display id', { search: term('TKT-42') }],
  ['search by number', { search: term('123') }],
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
      expectNoScan(lines);
      // A filtered list is read in ticket-number order from its index: no sort.
      if (name !== 'unassigned=false') expect(lines).not.toContain('USE TEMP B-TREE FOR ORDER BY');
    });
  }
  for (const [name, filters] of searchCases) {
    it(`${name} is driven by the search index`, async () => {
      const lines = await plan(filters);
      expectNoScan(lines);
      expect(lines).toContain('SEARCH tickets USING INTEGER PRIMARY KEY (rowid=?)');
      expect(lines.some((l) => /^SCAN ticket_search VIRTUAL TABLE INDEX \d+:M/.test(l)), lines.join('\n')).toBe(true);
      // Never a walk over all the organization's tickets, testing each against the matches.
      expect(lines.filter((l) => l.includes('(organization_id=?)'))).toEqual([]);
      if (filters.search?.ticketNumber !== null) {
        expect(lines).toContain('SEARCH tickets USING COVERING INDEX tickets_org_number_key (organization_id=? AND ticket_number=?)');
      }
    });
  }
}

describe('on an empty store', () => {
  checkAll();
});

describe('with statistics from a populated store (ANALYZE)', () => {
  beforeAll(async () => {
    const other = await t.newOrg('Other');
    const now = new Date().toISOString();
    const customers = [t.org.id, other.id].map((org) => ({ id: randomUUID(), org }));
    await t.store.db
      .insertInto('customers')
      .values(customers.map((c, i) => ({ id: c.id, organization_id: c.org, name: `C${i}`, email: `c${i}@x.io`, email_normalized: `c${i}@x.io`, has_premium_support: 0, is_vip: 0, created_at: now, updated_at: now })))
      .execute();
    const statuses = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: randomUUID(), organization_id: customers[i % 2]!.org, ticket_number: i + 1, tracking_token: randomUUID(),
      customer_id: customers[i % 2]!.id, subject: `printer problem ${i}`, description: 'the description', status: statuses[i % 5]!,
      priority: 'low' as const, category: i % 3 ? 'billing' : null, created_at: now, updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) await t.store.db.insertInto('tickets').values(rows.slice(i, i + 500)).execute();
    await t.store.db.executeQuery(CompiledQuery.raw('analyze'));
  });
  checkAll();
});
