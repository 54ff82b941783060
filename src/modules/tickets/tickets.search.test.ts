import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';

type T = Record<string, unknown> & { id: string; ticket_number: number };

let t: TestApp;
let org: TestOrg;
const byName: Record<string, T> = {};

async function create(name: string, overrides: Record<string, unknown>, key = org.adminKey): Promise<T> {
  const body = { customer_name: 'Plain Person', customer_email: 'plain@example.com', subject: 'Plain', description: 'Plain', ...overrides };
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body, key });
  expect(res.statusCode, res.body).toBe(201);
  return (byName[name] = res.json<T>());
}

/** The names of the tickets a search finds, newest first. */
async function search(term: string, extra = '', key = org.adminKey): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets?search=${encodeURIComponent(term)}${extra}`, key });
  expect(res.statusCode, res.body).toBe(200);
  const ids = res.json<T[]>().map((x) => x.id);
  return ids.map((id) => Object.keys(byName).find((name) => byName[name]!.id === id) ?? `foreign:${id}`);
}

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrg('Search');
  await create('subject', { subject: 'Keyboard makes a clicking noise' });
  await create('description', { description: 'The Photocopier jams on every duplex page' });
  await create('name', { customer_name: 'Ximena Quattlebaum', customer_email: 'xq@example.com' });
  await create('email', { customer_name: 'Ordinary', customer_email: 'Zorblatt.Industries@example.org' });
  await create('quote', { subject: 'Error: "disk full" on save' });
  await create('percent', { subject: 'Discount of 50% not applied' });
  await create('underscore', { description: 'Variable my_var is undefined' });
  await create('short', { subject: 'Wi-Fi drops', priority: 'high' });
  await create('accent', { subject: 'Café machine Ünïcode' });
  // Pad to ticket 42 so a number can be searched for where it appears in no text.
  while (Object.keys(byName).length < 41) await create(`pad${Object.keys(byName).length}`, { priority: 'low' });
  await create('n42', { subject: 'Nothing numeric here', priority: 'urgent' });
  expect(byName.n42!.ticket_number).toBe(42);
  await create('mentions42', { subject: 'Order 1042 never arrived', priority: 'urgent' });
});
afterAll(async () => {
  await t.close();
});

describe('search', () => {
  it('matches a substring of each field: subject, description, customer name, customer email', async () => {
    expect(await search('Keyboard')).toEqual(['subject']);
    expect(await search('photocopier')).toEqual(['description']);
    expect(await search('Quattlebaum')).toEqual(['name']);
    expect(await search('zorblatt.industries@EXAMPLE.org')).toEqual(['email']);
  });

  it('matches mid-word and in any case', async () => {
    expect(await search('YBOA')).toEqual(['subject']);
    expect(await search('otocop')).toEqual(['description']);
    expect(await search('ttleb')).toEqual(['name']);
    expect(await search('rblatt.ind')).toEqual(['email']);
    expect(await search('DUPLEX PAGE')).toEqual(['description']);
    expect(await search('ünÏCODE')).toEqual(['accent']);
    expect(await search('café')).toEqual(['accent']);
  });

  it('treats quotes, % and _ as plain characters', async () => {
    expect(await search('"disk full"')).toEqual(['quote']);
    expect(await search('r: "d')).toEqual(['quote']);
    expect(await search('"')).toEqual(['quote']);
    expect(await search('50%')).toEqual(['percent']);
    expect(await search('%')).toEqual(['percent']);
    expect(await search('0% n')).toEqual(['percent']);
    expect(await search('my_var')).toEqual(['underscore']);
    expect(await search('_')).toEqual(['underscore']);
    expect(await search('y_v')).toEqual(['underscore']);
    expect(await search('my%var')).toEqual([]);
    expect(await search('m_var')).toEqual([]);
    expect(await search('\\')).toEqual([]);
    expect(await search('*')).toEqual([]);
    expect(await search('Keyboard OR photocopier')).toEqual([]);
    expect(await search('NEAR(a b)')).toEqual([]);
  });

  it('matches 1- and 2-character terms', async () => {
    expect(await search('Wi')).toEqual(['short']);
    expect(await search('-F')).toEqual(['short']);
    expect(await search('Ü')).toEqual(['accent']);
    expect(await search('Q')).toEqual(['name']);
    expect(await search('xQ')).toEqual(['name']);
  });

  it('finds a ticket by number or display id, in any case, even where the number is in no text', async () => {
    // '42' is also a substring of 'Order 1042'; 'TKT-42' is in no text, so it names ticket 42 alone.
    expect(await search('42')).toEqual(['mentions42', 'n42']);
    for (const term of ['TKT-42', 'tkt-42', 'Tkt-42', ' TKT-42 ']) expect(await search(term), term).toEqual(['n42']);
    expect(await search('TKT-9999')).toEqual([]);
    expect(await search('9999')).toEqual([]);
    expect(await search('1042')).toEqual(['mentions42']);
  });

  it('combines with filters', async () => {
    expect(await search('42', '&priority=urgent')).toEqual(['mentions42', 'n42']);
    expect(await search('tkt-42', '&status=open')).toEqual([]);
    expect(await search('Wi', '&priority=high')).toEqual(['short']);
    expect(await search('Wi', '&priority=low')).toEqual([]);
    expect(await search('Keyboard', '&priority=low')).toEqual([]);
    expect(await search('Plain', '&priority=urgent&limit=1')).toEqual(['mentions42']);
    expect(await search('Plain', '&priority=urgent&limit=1&offset=1')).toEqual(['n42']);
  });

  it('follows a subject change: the old word stops matching, the new one matches', async () => {
    const ticket = await create('renamed', { subject: 'Flamingo printer' });
    expect(await search('flamingo')).toEqual(['renamed']);
    const res = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { subject: 'Pelican scanner' }, key: org.adminKey });
    expect(res.statusCode).toBe(200);
    expect(await search('flamingo')).toEqual([]);
    expect(await search('pelican')).toEqual(['renamed']);
    expect(await search('printer')).toEqual([]);
    // Changing another field keeps the index entry.
    await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { status: 'open' }, key: org.adminKey });
    expect(await search('pelican')).toEqual(['renamed']);
  });

  it('follows a customer rename', async () => {
    await create('renamedCustomer', { customer_name: 'Bartholomew', customer_email: 'bart@example.com' });
    await t.store.db.updateTable('customers').set({ name: 'Montgomery' }).where('email_normalized', '=', 'bart@example.com').execute();
    expect(await search('Bartholomew')).toEqual([]);
    expect(await search('Montgomery')).toEqual(['renamedCustomer']);
  });

  it('no longer finds a deleted ticket', async () => {
    const ticket = await create('deleted', { subject: 'Walrus outage' });
    expect(await search('walrus')).toEqual(['deleted']);
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${ticket.id}`, key: org.adminKey })).statusCode).toBe(204);
    expect(await search('walrus')).toEqual([]);
    expect(await search('wa', '&limit=500')).not.toContain('deleted');
    expect(await search(`TKT-${ticket.ticket_number}`)).toEqual([]);
  });

  it('no longer finds the tickets of a deleted customer (cascade)', async () => {
    const ticket = await create('cascaded', { subject: 'Narwhal outage', customer_email: 'gone@example.com' });
    expect(await search('narwhal')).toEqual(['cascaded']);
    await t.store.db.deleteFrom('customers').where('id', '=', String(ticket.customer_id)).execute();
    expect(await search('narwhal')).toEqual([]);
    // SQLite's index is a table of its own: it holds one entry per ticket, no more, nothing stale is
    // left behind. (PostgreSQL's trigram indexes are on the tables' own columns.)
    if (t.store.dialect !== 'sqlite') return;
    const indexed = await t.store.db
      .selectFrom(sql<{ rowid: number }>`ticket_search`.as('s'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const tickets = await t.store.db.selectFrom('tickets').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(indexed.n).toBe(tickets.n);
  });

  it('finds only tickets of the caller\'s organization', async () => {
    const other = await t.newOrg('Other');
    await create('foreign', { subject: 'Keyboard makes a clicking noise too', customer_email: 'xq@example.com' }, other.adminKey);
    expect(await search('Keyboard')).toEqual(['subject']);
    expect(await search('xq@')).toEqual(['name']);
    expect(await search('1')).not.toContain('foreign');
    expect(await search('Keyboard', '', other.adminKey)).toEqual(['foreign']);
    expect(await search('TKT-1', '', other.adminKey)).toEqual(['foreign']);
    expect(await search('TKT-42', '', other.adminKey)).toEqual([]);
  });

  it('tells a sentence given three times from the same sentence given once or twice, in the caller\'s organization only', async () => {
    // The SQLite lookup first looks for the seam piece ("h. Ple") alone in the organization.
    const sentence = 'Please process a refund for last month. ';
    await create('once', { description: `${sentence}Thanks!` });
    await create('twice', { description: `${sentence}${sentence}Thanks!` });
    const other = await t.newOrg('Other 3x');
    await create('thrice-foreign', { description: sentence.repeat(3) }, other.adminKey);
    expect(await search(sentence.trim())).toEqual(['twice', 'once']);
    expect(await search(sentence.repeat(2).toUpperCase())).toEqual(['twice']);
    expect(await search(sentence.repeat(3))).toEqual([]);
    expect(await search(sentence.repeat(3), '', other.adminKey)).toEqual(['thrice-foreign']);
  });

  it('matches a term of several words wherever its first and last words are parts of longer ones, across any separator and case', async () => {
    // PostgreSQL looks up the pairs of the term's inner words (migration 0017): never its first
    // or last word, which may continue in the text; words are runs of letters and digits.
    await create('pairs', {
      subject: 'Re: Invoice #1042 — overcharged twice',
      description: 'Naïve café-au-lait order; 12 x delivery',
      customer_name: 'Jean-Luc Picard',
      customer_email: 'jean.luc.picard@enterprise.example',
    });
    expect(await search('e: INVOICE #1042 — overcharged tw')).toEqual(['pairs']);
    expect(await search('naïve café-au-lait ord')).toEqual(['pairs']);
    expect(await search('NAÏVE CAFÉ-AU-LAIT ORDER; 12 X DELIVERY')).toEqual(['pairs']);
    expect(await search('n.luc.picard@enterp')).toEqual(['pairs']);
    expect(await search('- Jean-Luc Pic')).toEqual([]);
    expect(await search('Jean-Luc Pic')).toEqual(['pairs']);
    // The same words with another separator, or across two fields, are not the substring.
    expect(await search('invoice 1042 — overcharged')).toEqual([]);
    expect(await search('overcharged twice Naïve café')).toEqual([]);
  });

  it('rejects an empty or over-long term with 422', async () => {
    for (const term of ['', 'x'.repeat(501)]) {
      const res = await t.request({ method: 'GET', url: `/v1/tickets?search=${term}`, key: org.adminKey });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ errors: [{ field: 'query.search' }] });
    }
  });
});
