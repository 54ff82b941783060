import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from './helpers/attachments.js';
import { buildTestApp, type TestApp, type TestOrg } from './helpers/test-app.js';

/**
 * Keyset cursor paging on every list (docs/api-behaviour.md#cursor-paging-and-the-link-header): the
 * next page in `Link: <...>; rel="next"`, the body a plain array; stable under concurrent creates
 * and deletes; `updated_since` on tickets and customers; `email` on customers. Both stores.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Item = { id: string };

const nextOf = (link: string | string[] | undefined): string | undefined => {
  const value = Array.isArray(link) ? link.join(', ') : link;
  return value ? /<([^>]+)>;\s*rel="next"/.exec(value)?.[1] : undefined;
};

/** Follows the Link headers from `url` to the end; `between` runs after each page. */
async function walk(org: TestOrg, url: string, between?: (page: number) => Promise<void>): Promise<Item[]> {
  const items: Item[] = [];
  let next: string | undefined = url;
  for (let page = 0; next !== undefined; page++) {
    expect(page, 'too many pages').toBeLessThan(100);
    const res = await t.request({ method: 'GET', url: next, key: org.adminKey });
    expect(res.statusCode, res.body).toBe(200);
    items.push(...res.json<Item[]>());
    next = nextOf(res.headers.link);
    if (next !== undefined) expect(next).toMatch(/[?&]cursor=[A-Za-z0-9_-]+/);
    await between?.(page);
  }
  return items;
}

const createTicket = (org: TestOrg, i: number) =>
  t.request({
    method: 'POST', url: '/v1/tickets', key: org.adminKey,
    body: { customer_name: `C ${i}`, customer_email: `c${i % 3}@example.com`, subject: `Ticket ${i}`, description: 'Paging' },
  });

async function tickets(org: TestOrg, n: number, from = 0): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = from; i < from + n; i++) out.push((await createTicket(org, i)).json<Item>());
  return out;
}

const ids = (items: Item[]) => items.map((i) => i.id);

describe('cursor paging of tickets', () => {
  it('walks every ticket newest first, a full page naming the next in Link, the last page none', async () => {
    const org = await t.newOrg('Walk');
    const made = await tickets(org, 7);
    const first = await t.request({ method: 'GET', url: '/v1/tickets?limit=3&status=new', key: org.adminKey });
    expect(first.json<Item[]>()).toHaveLength(3);
    // The other parameters are kept; the body stays a plain array.
    expect(nextOf(first.headers.link)).toMatch(/^\/v1\/tickets\?limit=3&status=new&cursor=/);
    const walked = await walk(org, '/v1/tickets?limit=3');
    expect(ids(walked)).toEqual(ids(made).reverse());
    const last = await t.request({ method: 'GET', url: '/v1/tickets?limit=7', key: org.adminKey });
    // A full last page still names a next one, which is empty and names none.
    const after = await t.request({ method: 'GET', url: nextOf(last.headers.link) ?? '', key: org.adminKey });
    expect(after.json()).toEqual([]);
    expect(after.headers.link).toBeUndefined();
  });

  it('walks a search by its cursor, for an indexed term, a short term and a ticket number', async () => {
    const org = await t.newOrg('Search walk');
    const made = await tickets(org, 7);
    for (const search of ['Ticket', 'Pa', '3']) {
      const whole = await t.request({ method: 'GET', url: `/v1/tickets?limit=100&search=${search}`, key: org.adminKey });
      expect(whole.statusCode, whole.body).toBe(200);
      expect(whole.json<Item[]>().length, search).toBeGreaterThan(0);
      const walked = await walk(org, `/v1/tickets?limit=2&search=${search}`);
      expect(ids(walked), search).toEqual(ids(whole.json<Item[]>()));
    }
    expect(ids(await walk(org, '/v1/tickets?limit=2&search=Ticket'))).toEqual(ids(made).reverse());
  });

  it('neither skips nor repeats while tickets are created and deleted between pages (offset paging repeats)', async () => {
    const org = await t.newOrg('Concurrent');
    const made = await tickets(org, 20);
    const deleted: string[] = [];
    let created = 100;
    const churn = async (page: number) => {
      // Newer tickets arrive at the head, and tickets go on both sides of the cursor.
      await tickets(org, 3, created);
      created += 3;
      const gone = [made[19 - page]!.id, made[page]!.id];
      for (const id of gone) {
        if (deleted.includes(id)) continue;
        deleted.push(id);
        expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${id}`, key: org.adminKey })).statusCode).toBe(204);
      }
    };
    const walked = ids(await walk(org, '/v1/tickets?limit=4', churn));
    expect(new Set(walked).size).toBe(walked.length);
    // Every ticket that existed throughout is there once, in order; new ones (at the head) are not.
    const survivors = ids(made).reverse().filter((id) => !deleted.includes(id));
    expect(walked.filter((id) => survivors.includes(id))).toEqual(survivors);
    expect(walked.every((id) => ids(made).includes(id))).toBe(true);

    // The same churn under offset paging repeats tickets: what the cursor is for.
    const org2 = await t.newOrg('Offset');
    await tickets(org2, 10);
    const page1 = (await t.request({ method: 'GET', url: '/v1/tickets?limit=4&offset=0', key: org2.adminKey })).json<Item[]>();
    await tickets(org2, 2, 200);
    const page2 = (await t.request({ method: 'GET', url: '/v1/tickets?limit=4&offset=4', key: org2.adminKey })).json<Item[]>();
    expect(ids(page2).filter((id) => ids(page1).includes(id))).toHaveLength(2);
  });

  it('neither skips nor repeats with creates running in parallel to the walk', async () => {
    const org = await t.newOrg('Parallel');
    const made = await tickets(org, 30);
    const [walked] = await Promise.all([
      walk(org, '/v1/tickets?limit=5'),
      Promise.all(Array.from({ length: 15 }, (_, i) => createTicket(org, 500 + i))),
    ]);
    const seen = ids(walked);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => ids(made).includes(id))).toEqual(ids(made).reverse());
  });

  it('a cursor with offset or skip, or a cursor of no list, is 422', async () => {
    const org = await t.newOrg('Bad cursor');
    await tickets(org, 2);
    const res = await t.request({ method: 'GET', url: '/v1/tickets?limit=1', key: org.adminKey });
    const next = nextOf(res.headers.link)!;
    for (const extra of ['&offset=0', '&skip=1']) {
      const both = await t.request({ method: 'GET', url: next + extra, key: org.adminKey });
      expect(both.statusCode).toBe(422);
      expect(both.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('query.cursor');
    }
    const customersCursor = Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', 'x'])).toString('base64url');
    for (const cursor of ['bm90IGpzb24', customersCursor, 'W10', '!!']) {
      const bad = await t.request({ method: 'GET', url: `/v1/tickets?cursor=${cursor}`, key: org.adminKey });
      expect(bad.statusCode, cursor).toBe(422);
      expect(bad.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('query.cursor');
    }
  });
});

describe('cursor paging on every list', () => {
  it('each list walked by its Link headers equals the list read whole', async () => {
    const org = await t.newOrg('Every list');
    const key = org.adminKey;
    const post = async (url: string, body: unknown) => {
      const res = await t.request({ method: 'POST', url, key, body });
      expect(res.statusCode, `${url} ${res.body}`).toBeLessThan(300);
      return res.json<Item & Record<string, unknown>>();
    };
    const ticket = (await createTicket(org, 1)).json<Item & { tracking_token: string }>();
    for (let i = 0; i < 3; i++) {
      await post('/v1/customers', { name: `Customer ${i}`, email: `cust${i}@example.com` });
      await post('/v1/teams', { name: `Team ${i}` });
      await post('/v1/users', { email: `agent${i}@example.com`, full_name: `Agent ${i}` });
      await post(`/v1/tickets/${ticket.id}/comments`, { body: `Comment ${i}` });
      await post('/v1/api-keys', { name: `Key ${i}`, role: 'admin' });
      await post('/v1/webhooks', { url: `https://hooks${i}.example.com/x`, events: ['ticket.created'] });
      expect((await upload(t, ticket.id, `f${i}.txt`, 'text/plain', `file ${i}`, key)).statusCode).toBe(201);
    }
    const lists = [
      '/v1/customers', '/v1/teams', '/v1/users', '/v1/api-keys', '/v1/webhooks',
      `/v1/tickets/${ticket.id}/comments`, `/v1/tickets/${ticket.id}/attachments`, `/v1/tickets/${ticket.id}/events`,
      `/v1/portal/tickets/${ticket.tracking_token}/comments`,
    ];
    for (const url of lists) {
      const whole = await t.request({ method: 'GET', url: `${url}?limit=100`, key });
      expect(whole.statusCode, url).toBe(200);
      const all = whole.json<Item[]>();
      expect(all.length, url).toBeGreaterThanOrEqual(3);
      expect(whole.headers.link, url).toBeUndefined();
      const walked = await walk(org, `${url}?limit=2`);
      expect(walked, url).toEqual(all);
    }
  });
});

describe('updated_since and email filters', () => {
  it('updated_since returns the tickets and customers changed at or after the moment', async () => {
    const org = await t.newOrg('Since');
    const [a, b] = await tickets(org, 2);
    const customers = (await t.request({ method: 'GET', url: '/v1/customers', key: org.adminKey })).json<{ id: string; updated_at: string }[]>();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const patched = await t.request({ method: 'PATCH', url: `/v1/tickets/${b!.id}`, key: org.adminKey, body: { status: 'open' } });
    const patchedCustomer = await t.request({ method: 'PATCH', url: `/v1/customers/${customers[0]!.id}`, key: org.adminKey, body: { notes: 'changed' } });
    expect(patchedCustomer.statusCode).toBe(200);
    const list = (url: string) => t.request({ method: 'GET', url, key: org.adminKey });
    expect(ids((await list(`/v1/tickets?updated_since=${since}`)).json<Item[]>())).toEqual([b!.id]);
    // Any offset names the same moment; at the exact updated_at it is included.
    const offset = new Date(Date.parse(since) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(ids((await list(`/v1/tickets?updated_since=${encodeURIComponent(offset)}`)).json<Item[]>())).toEqual([b!.id]);
    const at = patched.json<{ updated_at: string }>().updated_at;
    expect(ids((await list(`/v1/tickets?updated_since=${at}`)).json<Item[]>())).toEqual([b!.id]);
    expect(ids((await list('/v1/tickets?updated_since=2000-01-01T00:00:00Z')).json<Item[]>())).toEqual([b!.id, a!.id]);
    expect(ids((await list(`/v1/customers?updated_since=${since}`)).json<Item[]>())).toEqual([customers[0]!.id]);
    expect((await list('/v1/customers?updated_since=yesterday')).statusCode).toBe(422);
    expect((await list('/v1/tickets?updated_since=2026-13-01T00:00:00Z')).statusCode).toBe(422);
  });

  it('email finds the customer case-insensitively, and only in the organization', async () => {
    const org = await t.newOrg('Email');
    const other = await t.newOrg('Other');
    const made = await t.request({ method: 'POST', url: '/v1/customers', key: org.adminKey, body: { name: 'Ada', email: 'Ada.Lovelace@Example.com' } });
    await t.request({ method: 'POST', url: '/v1/customers', key: org.adminKey, body: { name: 'Bob', email: 'bob@example.com' } });
    await t.request({ method: 'POST', url: '/v1/customers', key: other.adminKey, body: { name: 'Ada', email: 'ada.lovelace@example.com' } });
    const found = await t.request({ method: 'GET', url: '/v1/customers?email=ADA.LOVELACE@example.COM', key: org.adminKey });
    expect(ids(found.json<Item[]>())).toEqual([made.json<Item>().id]);
    expect((await t.request({ method: 'GET', url: '/v1/customers?email=nobody@example.com', key: org.adminKey })).json()).toEqual([]);
    expect((await t.request({ method: 'GET', url: '/v1/customers?email=not-an-email', key: org.adminKey })).statusCode).toBe(422);
  });
});
