import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_STORE, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { rowPairs, termPairs } from '../../search/search-pairs.js';
import { deleteOrganizationRow } from '../organizations/transfer.repository.js';
import { ticketNumberOf } from './tickets.service.js';

/**
 * Word pairs (SQLite: migration 0018; PostgreSQL: 0017). A search looks up its term's inner word
 * pairs before anything else; these tests prove that this never loses a match (search equals a
 * brute-force substring test over random texts, on both stores) and, on SQLite, that every write
 * of a searched text keeps the organization's pair counts equal to a recount of its texts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

interface Sent {
  id: string;
  subject: string;
  description: string;
  customer_name: string;
  customer_email: string;
}

async function createTicket(org: TestOrg, body: Omit<Sent, 'id'>): Promise<Sent> {
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body, key: org.adminKey });
  expect(res.statusCode, res.body).toBe(201);
  return { ...body, id: res.json<{ id: string }>().id };
}

async function patchTicket(org: TestOrg, id: string, body: Record<string, unknown>): Promise<void> {
  const res = await t.request({ method: 'PATCH', url: `/v1/tickets/${id}`, body, key: org.adminKey });
  expect(res.statusCode, res.body).toBe(200);
}

async function searchIds(org: TestOrg, term: string): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets?limit=100&search=${encodeURIComponent(term)}`, key: org.adminKey });
  expect(res.statusCode, `${JSON.stringify(term)}: ${res.body}`).toBe(200);
  return res.json<Array<{ id: string }>>().map((x) => x.id).sort();
}

/** The stored pair counts (SQLite) as `organization key:pair` → n. */
async function storedPairs(): Promise<Map<string, number>> {
  const { rows } = await sql<{ organization_key: number; pair: number; n: number }>`select organization_key, pair, n from ticket_search_pairs`.execute(t.store.db);
  return new Map(rows.map((r) => [`${r.organization_key}:${r.pair}`, r.n]));
}

/** The same, recounted from every ticket's and customer's text as they are now. */
async function recountedPairs(): Promise<Map<string, number>> {
  const { rows: keys } = await sql<{ key: number; organization_id: string }>`select key, organization_id from ticket_search_organizations`.execute(t.store.db);
  const keyOf = new Map(keys.map((k) => [k.organization_id, k.key]));
  const tickets = await t.store.db.selectFrom('tickets').select(['organization_id', 'subject', 'description']).execute();
  const customers = await t.store.db.selectFrom('customers').select(['organization_id', 'name', 'email']).execute();
  const counts = new Map<string, number>();
  const count = (organizationId: string, a: unknown, b: unknown) => {
    for (const pair of rowPairs(a, b)) {
      const k = `${keyOf.get(organizationId)}:${pair}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  };
  for (const r of tickets) count(r.organization_id, r.subject, r.description);
  for (const r of customers) count(r.organization_id, r.name, r.email);
  return counts;
}

const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('word pairs', () => {
  it('a term needs its inner pairs only: not its first or last word unless the term itself ends it', () => {
    // `lease process` is in `please process`: a term's first word may continue in the text.
    expect(termPairs('lease process a')).toEqual([]);
    expect(termPairs(' please process a')).toHaveLength(1);
    expect(termPairs('month. please process')).toEqual([]);
    expect(termPairs('month. please process ')).toEqual([...rowPairs('please process')]);
    expect(termPairs(' month. please process ')).toHaveLength(2);
    const sentence = 'please process a refund for last month. ';
    // Three times: seven distinct pairs, one of them `month please`, where one repetition meets the next.
    expect(termPairs(sentence.repeat(3))).toHaveLength(7);
    expect(termPairs(sentence.repeat(3))).toEqual(expect.arrayContaining([...rowPairs('month please')]));
    expect([...rowPairs('Month, PLEASE')]).toEqual([...rowPairs('month please')]);
  });

  it.skipIf(TEST_STORE !== 'sqlite')('every write of a searched text keeps the pair counts equal to a recount', async () => {
    const org = await t.newOrg('Pairs writes');
    const a = await createTicket(org, { subject: 'Alpha beta gamma', description: 'Delta epsilon zeta eta', customer_name: 'Theta Iota', customer_email: 'kappa.lambda@mu.test' });
    const b = await createTicket(org, { subject: 'Alpha beta again', description: 'Nothing shared', customer_name: 'Theta Iota', customer_email: 'kappa.lambda@mu.test' });
    await createTicket(org, { subject: 'Other', description: 'Alpha beta gamma', customer_name: 'Rho Sigma', customer_email: 'rho@sigma.test' });
    expect(sorted(await storedPairs())).toEqual(sorted(await recountedPairs()));
    const before = await storedPairs();
    const { rows: own } = await sql<{ key: number }>`select key from ticket_search_organizations where organization_id = ${org.id}`.execute(t.store.db);
    const key = (text: string) => `${own[0]!.key}:${[...rowPairs(text)][0]}`;
    expect(before.get(key('alpha beta'))).toBe(3);
    expect(before.get(key('epsilon zeta'))).toBe(1);
    // A patch of the description removes its old pairs (the count of a pair no text holds any more
    // is deleted) and adds its new ones; a patch that leaves the texts as they were changes nothing.
    await patchTicket(org, a.id, { description: 'Omicron pi' });
    expect((await storedPairs()).has(key('epsilon zeta'))).toBe(false);
    expect((await storedPairs()).get(key('omicron pi'))).toBe(1);
    await patchTicket(org, a.id, { subject: 'Alpha only', priority: 'high' });
    await patchTicket(org, b.id, { status: 'open' });
    expect((await storedPairs()).get(key('alpha beta'))).toBe(2);
    expect(sorted(await storedPairs())).toEqual(sorted(await recountedPairs()));
    // A customer's name and email (counted once per customer, not per ticket).
    const customer = (await t.store.db.selectFrom('customers').select('id').where('organization_id', '=', org.id).where('email', '=', 'kappa.lambda@mu.test').executeTakeFirstOrThrow()).id;
    let res = await t.request({ method: 'PATCH', url: `/v1/customers/${customer}`, body: { name: 'Upsilon Phi', email: 'chi.psi@omega.test' }, key: org.adminKey });
    expect(res.statusCode, res.body).toBe(200);
    expect((await storedPairs()).has(key('theta iota'))).toBe(false);
    res = await t.request({ method: 'POST', url: '/v1/customers', body: { name: 'Lonely Customer', email: 'lonely@nowhere.test' }, key: org.adminKey });
    expect(res.statusCode, res.body).toBe(201);
    expect(sorted(await storedPairs())).toEqual(sorted(await recountedPairs()));
    res = await t.request({ method: 'DELETE', url: `/v1/customers/${res.json<{ id: string }>().id}`, key: org.adminKey });
    expect(res.statusCode, res.body).toBe(204);
    res = await t.request({ method: 'DELETE', url: `/v1/tickets/${b.id}`, key: org.adminKey });
    expect(res.statusCode, res.body).toBe(204);
    expect(sorted(await storedPairs())).toEqual(sorted(await recountedPairs()));
    // A customer deleted with its tickets (the cascade deletes them inside the customer's delete).
    expect(await t.store.db.selectFrom('tickets').select('id').where('customer_id', '=', customer).execute()).toEqual([{ id: a.id }]);
    res = await t.request({ method: 'DELETE', url: `/v1/customers/${customer}`, key: org.adminKey });
    expect(res.statusCode, res.body).toBe(204);
    expect((await storedPairs()).has(key('omicron pi'))).toBe(false);
    expect(sorted(await storedPairs())).toEqual(sorted(await recountedPairs()));
    // Another organization's texts count under its own key only, and its removal (the cascade
    // deletes its tickets and customers) takes its counts with it.
    const other = await t.newOrg('Pairs other');
    await createTicket(other, { subject: 'Alpha beta gamma', description: 'Omicron pi', customer_name: 'Theta Iota', customer_email: 'x@y.test' });
    expect(sorted(await storedPairs())).toEqual(sorted(await recountedPairs()));
    await deleteOrganizationRow(t.store.db, other.id);
    await deleteOrganizationRow(t.store.db, org.id);
    const { rows } = await sql<{ key: number }>`select key from ticket_search_organizations where organization_id in (${org.id}, ${other.id})`.execute(t.store.db);
    const left = [...(await storedPairs()).keys()].filter((k) => rows.some((r) => k.startsWith(`${r.key}:`)));
    expect(left).toEqual([]);
    expect(sorted(await storedPairs())).toEqual(sorted(await recountedPairs()));
  });

  it('search finds exactly the tickets whose texts hold the term, over random texts, terms and patches', async () => {
    const words = ['please', 'process', 'a', 'refund', 'for', 'last', 'month', 'lease', 'ess', 'x1', '42', 'tkt'];
    const separators = [' ', '. ', ', ', '-', '', '@', '.', '  ', '; '];
    const word = fc.constantFrom(...words);
    const text = (max: number) =>
      fc.array(fc.tuple(word, fc.constantFrom(...separators)), { minLength: 1, maxLength: max }).map((parts) => parts.map(([w, s]) => w + s).join('').trim() || 'x');
    // Letters are upper-cased at random (ASCII only: PostgreSQL's ILIKE folds by the database's locale).
    const recase = (s: string, flips: readonly boolean[]) => [...s].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join('');
    const ticket = fc.record({ subject: text(6), description: text(14), name: text(3), user: fc.constantFrom('ann', 'bob', 'process.refund', 'last-month') });
    const term = fc.oneof(
      // A piece of one of the texts, with its case changed.
      fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 3, max: 60 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 7 })).map(([which, start, length, flips]) => ({ pick: { which, start, length }, flips, own: '' })),
      // Made from the same words (the sentence given three times among them).
      fc.tuple(text(12), fc.array(fc.boolean(), { minLength: 1, maxLength: 7 })).map(([own, flips]) => ({ pick: null, flips, own })),
      fc.constant({ pick: null, flips: [false], own: 'please process a refund for last month. '.repeat(3) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(ticket, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), text(14)), { maxLength: 3 }),
        fc.array(term, { minLength: 1, maxLength: 8 }),
        async (tickets, patches, terms) => {
          const org = await t.newOrg(`Pairs fuzz ${run++}`);
          const sent: Sent[] = [];
          for (const [i, x] of tickets.entries()) {
            sent.push(await createTicket(org, { subject: x.subject, description: x.description, customer_name: x.name, customer_email: `${x.user}${i}@ex-${i}.test` }));
          }
          for (const [which, description] of patches) {
            const target = sent[which % sent.length]!;
            await patchTicket(org, target.id, { description });
            target.description = description;
          }
          const texts = sent.flatMap((s) => [s.subject, s.description, s.customer_name, s.customer_email]);
          for (const { pick, flips, own } of terms) {
            const source = pick ? texts[pick.which % texts.length]! : own;
            const start = pick ? pick.start % source.length : 0;
            const raw = recase(pick ? source.slice(start, start + pick.length) : own, flips);
            if ([...raw].length < 3 || ticketNumberOf(raw) !== null) continue;
            const folded = raw.toLowerCase();
            const expected = sent
              .filter((s) => [s.subject, s.description, s.customer_name, s.customer_email].some((v) => v.toLowerCase().includes(folded)))
              .map((s) => s.id)
              .sort();
            expect(await searchIds(org, raw), JSON.stringify(raw)).toEqual(expected);
          }
        },
      ),
      { numRuns: TEST_STORE === 'sqlite' ? 40 : 20 },
    );
    if (TEST_STORE === 'sqlite') expect(sorted(await storedPairs())).toEqual(sorted(await recountedPairs()));
  });
});
