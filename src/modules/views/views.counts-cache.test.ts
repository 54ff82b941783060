import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';

/**
 * GET /v1/views/counts from each process's memory for at most VIEWS_COUNTS_MAX_AGE_MS: a ticket
 * write does not show until then, a view's create, change or delete does at once (its own
 * organization only); shared views' counts are the organization's, personal and "me" ones the
 * user's; 0 turns the cache off (docs/api-behaviour.md, Views and conditions).
 */

type Counts = { counted_at: string; age_seconds: number; views: Array<{ id: string; name: string; count: number | null }> };

const apps: TestApp[] = [];
let cached: TestApp;
let short: TestApp;
let off: TestApp;
beforeAll(async () => {
  cached = await buildTestApp();
  short = await buildTestApp({ VIEWS_COUNTS_MAX_AGE_MS: '2500' });
  off = await buildTestApp({ VIEWS_COUNTS_MAX_AGE_MS: '0' });
  apps.push(cached, short, off);
});
afterAll(async () => {
  for (const t of apps) await t.close();
});

let n = 0;
async function post<T>(t: TestApp, key: string, url: string, body: unknown): Promise<T> {
  const res = await t.request({ method: 'POST', url, key, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<T>();
}
const ticket = (t: TestApp, key: string, extra: Record<string, unknown> = {}) =>
  post(t, key, '/v1/tickets', { customer_name: 'Ada', customer_email: `ada${n++}@example.com`, subject: 'S', description: 'D', ...extra });
const view = (t: TestApp, key: string, conditions: unknown, shared = true) =>
  post<{ id: string }>(t, key, '/v1/views', { name: `V${n++}`, shared, conditions });

async function counts(t: TestApp, key: string): Promise<Counts & { headers: Record<string, unknown> }> {
  const res = await t.request({ method: 'GET', url: '/v1/views/counts', key });
  expect(res.statusCode, res.body).toBe(200);
  return { ...res.json<Counts>(), headers: res.headers };
}
const countOf = (c: Counts, id: string) => c.views.find((v) => v.id === id)?.count;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function userKey(t: TestApp, org: TestOrg): Promise<{ id: string; key: string }> {
  const user = await post<{ id: string }>(t, org.adminKey, '/v1/users', { email: `agent${n++}@example.com`, full_name: 'Agent' });
  return { id: user.id, key: await org.key({ role: 'admin', name: 'held', holderUserId: user.id }) };
}

describe('views: counts cache', () => {
  it('a ticket write shows only once the counts are older than the max age; the answer says how old they are', async () => {
    const org = await short.newOrg();
    const urgent = await view(short, org.adminKey, { all: [{ field: 'priority', operator: 'is', value: 'urgent' }] });
    const first = await counts(short, org.adminKey);
    expect(countOf(first, urgent.id)).toBe(0);
    expect(first.age_seconds).toBe(0);
    expect(first.headers.age).toBe('0');
    expect(first.headers['cache-control']).toMatch(/^private, max-age=[12]$/);
    await ticket(short, org.adminKey, { priority: 'urgent' });
    await sleep(1100);
    const hit = await counts(short, org.adminKey);
    expect(hit.counted_at).toBe(first.counted_at);
    expect(countOf(hit, urgent.id)).toBe(0);
    expect(hit.age_seconds).toBe(1);
    expect(hit.headers.age).toBe('1');
    expect(hit.headers['cache-control']).toMatch(/^private, max-age=[01]$/);
    await sleep(1500);
    const again = await counts(short, org.adminKey);
    expect(Date.parse(again.counted_at)).toBeGreaterThan(Date.parse(first.counted_at));
    expect(countOf(again, urgent.id)).toBe(1);
    expect(again.age_seconds).toBe(0);
  });

  it("a view's create, change and delete clear its own organization's counts, not another's", async () => {
    const org = await cached.newOrg();
    const other = await cached.newOrg();
    const mine = await view(cached, org.adminKey, { all: [{ field: 'priority', operator: 'is', value: 'high' }] });
    await view(cached, other.adminKey, { all: [] });
    const before = await counts(cached, org.adminKey);
    const otherBefore = await counts(cached, other.adminKey);
    await ticket(cached, org.adminKey, { priority: 'high' });
    await ticket(cached, other.adminKey);
    expect(countOf(await counts(cached, org.adminKey), mine.id)).toBe(0);

    const added = await view(cached, org.adminKey, { all: [] });
    const afterCreate = await counts(cached, org.adminKey);
    expect(countOf(afterCreate, mine.id)).toBe(1);
    expect(countOf(afterCreate, added.id)).toBe(1);
    expect(Date.parse(afterCreate.counted_at)).toBeGreaterThanOrEqual(Date.parse(before.counted_at));
    expect((await counts(cached, other.adminKey)).counted_at).toBe(otherBefore.counted_at);

    await ticket(cached, org.adminKey, { priority: 'low' });
    expect(countOf(await counts(cached, org.adminKey), added.id)).toBe(1);
    const patched = await cached.request({ method: 'PATCH', url: `/v1/views/${mine.id}`, key: org.adminKey, body: { conditions: { all: [{ field: 'priority', operator: 'in', value: ['high', 'low'] }] } } });
    expect(patched.statusCode, patched.body).toBe(200);
    const afterPatch = await counts(cached, org.adminKey);
    expect(countOf(afterPatch, mine.id)).toBe(2);
    expect(countOf(afterPatch, added.id)).toBe(2);

    await ticket(cached, org.adminKey);
    expect((await cached.request({ method: 'DELETE', url: `/v1/views/${mine.id}`, key: org.adminKey })).statusCode).toBe(204);
    const afterDelete = await counts(cached, org.adminKey);
    expect(afterDelete.views.map((v) => v.id)).toEqual([added.id]);
    expect(countOf(afterDelete, added.id)).toBe(3);
  });

  it('shared views are counted once for the organization; personal views and "me" per user', async () => {
    const org = await cached.newOrg();
    const ada = await userKey(cached, org);
    const bob = await userKey(cached, org);
    const shared = await view(cached, org.adminKey, { all: [] });
    const mine = await view(cached, ada.key, { all: [{ field: 'assigned_user_id', operator: 'is', value: 'me' }] });
    await ticket(cached, org.adminKey, { assigned_user_id: ada.id });
    const adaCounts = await counts(cached, ada.key);
    const personal = await view(cached, bob.key, { all: [] }, false);
    await ticket(cached, org.adminKey, { assigned_user_id: bob.id });
    await ticket(cached, org.adminKey, { assigned_user_id: bob.id });
    // The personal view's create cleared the organization: Bob's counts are taken now, and they are his.
    const bobCounts = await counts(cached, bob.key);
    expect(countOf(bobCounts, shared.id)).toBe(3);
    expect(countOf(bobCounts, mine.id)).toBe(2);
    expect(countOf(bobCounts, personal.id)).toBe(3);
    expect(countOf(adaCounts, mine.id)).toBe(1);
    // Ada now gets the organization's shared counts Bob's request took (without her new ticket), and
    // her own "me" count, taken now (the personal view's create cleared hers).
    await ticket(cached, org.adminKey, { assigned_user_id: ada.id });
    const adaAgain = await counts(cached, ada.key);
    expect(adaAgain.views.map((v) => v.id)).toEqual([shared.id, mine.id]);
    expect(countOf(adaAgain, shared.id)).toBe(3);
    expect(countOf(adaAgain, mine.id)).toBe(2);
    expect(adaAgain.counted_at).toBe(bobCounts.counted_at);
    // A key without a user: null for "me", the organization's shared counts.
    const keyOnly = await counts(cached, org.adminKey);
    expect(countOf(keyOnly, mine.id)).toBeNull();
    expect(countOf(keyOnly, shared.id)).toBe(3);
  });

  it('VIEWS_COUNTS_MAX_AGE_MS=0: counted on every request', async () => {
    const org = await off.newOrg();
    const all = await view(off, org.adminKey, { all: [] });
    const first = await counts(off, org.adminKey);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    await ticket(off, org.adminKey);
    const second = await counts(off, org.adminKey);
    expect(countOf(first, all.id)).toBe(0);
    expect(countOf(second, all.id)).toBe(1);
    expect(second.age_seconds).toBe(0);
    expect(second.headers.age).toBe('0');
  });
});
