import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_STORE, type TestApp } from '../../test/helpers/test-app.js';
import { mergeSearchIndexPending, startSearchIndexJob } from './search-index.job.js';
import { openStore } from '../db/store.js';

let t: TestApp;
const silent = { warn: () => undefined, error: () => undefined, level: 'silent' };

async function create(subject: string): Promise<string> {
  const body = { customer_name: 'Pending Person', customer_email: 'pending@example.com', subject, description: 'Queued words' };
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

async function found(term: string): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets?search=${encodeURIComponent(term)}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Array<{ id: string }>>().map((ticket) => ticket.id);
}

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the search index pending list (migration 0019)', () => {
  it('a create only queues its keys (PostgreSQL): found at once, before and after the merge', async () => {
    // Whatever earlier requests queued is merged first.
    await mergeSearchIndexPending(t.store);
    const id = await create('Marmalade dispenser overflows');
    expect(await found('marmalade disp')).toEqual([id]);
    // The create appended its keys to the pending list (one page at least) instead of inserting
    // them into the index one by one; SQLite has no such list.
    expect(await mergeSearchIndexPending(t.store)).toBe(TEST_STORE === 'postgres' ? 1 : 0);
    expect(await mergeSearchIndexPending(t.store)).toBe(0);
    expect(await found('marmalade disp')).toEqual([id]);
    expect(await found('alade dispenser over')).toEqual([id]);
  });

  it('the job merges what creates queue, on its own', async () => {
    await mergeSearchIndexPending(t.store);
    const job = startSearchIndexJob({ store: t.store, log: silent, intervalMs: 20 });
    try {
      const ids = [await create('Tangerine conveyor stalls'), await create('Tangerine conveyor squeaks')];
      await sleep(300);
      expect(await mergeSearchIndexPending(t.store)).toBe(0);
      expect((await found('tangerine conveyor')).sort()).toEqual([...ids].sort());
    } finally {
      await job.stop();
    }
  });

  // The counter's row is updated by every group of creates; its page must be pruned of the dead
  // versions after a few updates, not when full (fillfactor 10): the foreign-key checks of every
  // ticket and event read it. Checked as the tables' storage option, not as the row's place on its
  // page after some creates: pruning waits for every older transaction of the whole cluster (any
  // other test's, or a bench's), so that place said more about the neighbours than about 0019.
  it.runIf(TEST_STORE === 'postgres')('the counters\' tables leave room on their pages for the updates of every group of creates', async () => {
    const { rows } = await sql<{ relname: string; reloptions: string[] | null }>`
      select relname, reloptions from pg_class where relname in ('organizations', 'event_counters') and relkind = 'r' order by relname`.execute(t.store.db);
    expect(rows).toEqual([
      { relname: 'event_counters', reloptions: ['fillfactor=10'] },
      { relname: 'organizations', reloptions: ['fillfactor=10'] },
    ]);
  });

  // Only the index's owner may merge: a service running as another role warns once and stops
  // trying, instead of logging an error four times a second.
  it.runIf(TEST_STORE === 'postgres')('a role that does not own the index: one warning, then no more tries', async () => {
    const role = `ticketing_test_not_owner_${process.pid}`;
    await sql.raw(`create role ${role} login`).execute(t.store.db);
    const url = new URL(t.config.databaseUrl!);
    url.username = role;
    const other = openStore({ dataDir: t.dataDir, databaseUrl: url.toString(), poolSize: 1 });
    const said: string[] = [];
    const log = { warn: (message: string) => said.push(`warn ${message}`), error: (...args: unknown[]) => said.push(`error ${JSON.stringify(args)}`), level: 'info' };
    try {
      const job = startSearchIndexJob({ store: other, log, intervalMs: 10 });
      await sleep(300);
      await job.stop();
      expect(said).toEqual([expect.stringMatching(/^warn search index merge: this role does not own tickets_search_keys_idx/)]);
    } finally {
      await other.close();
      await sql.raw(`drop role ${role}`).execute(t.store.db);
    }
  });

  // The keys the index holds must stay those 0017 defined, or a search would miss what the index
  // holds from before: the PL/pgSQL functions against 0017's SQL bodies, on awkward texts.
  it.runIf(TEST_STORE === 'postgres')('the PL/pgSQL key functions return exactly the keys of 0017’s SQL functions', async () => {
    const texts = [
      '', ' ', 'a', 'ab', 'abc', 'Hello', 'Hello world', '  leading and trailing  ', '--x--y--', 'one,two;three.four',
      'Café Ünïcode straße', 'ΔΕΛΤΑ alpha', 'tab\tand\nnewline', 'x y', 'repeat repeat repeat', '1234 5678-90', '日本語 テキスト',
      'a  b   c', 'The quick brown fox jumps over the lazy dog', 'emoji 😀 here', '%_\\ specials',
    ];
    const { rows } = await sql<{ text: string | null; inner_only: boolean; same_pairs: boolean; same_trigrams: boolean }>`
      select v.text, b.inner_only,
        ticket_search_pair_keys('org-1', v.text, b.inner_only) is not distinct from array(
          select (hashtext('org-1')::bigint << 32) | (hashtext(p.w || ' ' || p.n)::bigint & 4294967295)
          from (select u.w, lead(u.w) over (order by u.i) n, u.i, count(*) over () k
            from unnest(regexp_split_to_array(lower(coalesce(v.text, '')), '[^[:alnum:]]+')) with ordinality u(w, i)) p
          where p.n <> '' and p.w <> '' and (not b.inner_only or (p.i > 1 and p.i + 1 < p.k))) as same_pairs,
        ticket_search_trigram_keys('org-1', show_trgm(coalesce(v.text, ''))) is not distinct from array(
          select (hashtext('org-1')::bigint << 32) | (hashtext(x)::bigint & 4294967295) from unnest(show_trgm(coalesce(v.text, ''))) x) as same_trigrams
      from unnest(cast(${[...texts, null]} as text[])) v(text), (values (true), (false)) b(inner_only)`.execute(t.store.db);
    expect(rows).toHaveLength((texts.length + 1) * 2);
    for (const row of rows) expect(row, JSON.stringify(row)).toMatchObject({ same_pairs: true, same_trigrams: true });
    const nulls = await sql<{ keys: string[] }>`select ticket_search_trigram_keys('org-1', null) as keys`.execute(t.store.db);
    expect(nulls.rows[0]!.keys).toEqual([]);
  });
});
