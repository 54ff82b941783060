import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';

/** Tags on tickets, the tag filters and GET /v1/tags (docs/api-behaviour.md, Tags). */

type Ticket = { id: string; ticket_number: number; tags: string[]; status: string };
type FieldError = { field: string; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

let emails = 0;
const body = (overrides: Record<string, unknown> = {}) => ({
  customer_name: 'Ada',
  customer_email: `ada${emails++}@example.com`,
  subject: 'Printer',
  description: 'On fire',
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}, org?: TestOrg): Promise<Ticket> {
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body: body(overrides), key: org?.adminKey });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Ticket>();
}

async function patch(id: string, change: Record<string, unknown>): Promise<Ticket> {
  const res = await t.request({ method: 'PATCH', url: `/v1/tickets/${id}`, body: change });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Ticket>();
}

async function get<T>(url: string, org?: TestOrg): Promise<T> {
  const res = await t.request({ method: 'GET', url, key: org?.adminKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
}

const errorsOf = (res: { statusCode: number; json: <T>() => T }) => {
  expect(res.statusCode).toBe(422);
  return res.json<{ errors: FieldError[] }>().errors;
};

const numbers = (list: Ticket[]) => list.map((ticket) => ticket.ticket_number);

describe('tags on a ticket', () => {
  it('are lower-cased, sorted and without duplicates, on create, GET, the list and the event', async () => {
    const ticket = await create({ tags: ['VIP', 'billing', 'vip', 'a:b.c_d-e'] });
    expect(ticket.tags).toEqual(['a:b.c_d-e', 'billing', 'vip']);
    expect((await get<Ticket>(`/v1/tickets/${ticket.id}`)).tags).toEqual(ticket.tags);
    const listed = await get<Ticket[]>('/v1/tickets?limit=500');
    expect(listed.find((x) => x.id === ticket.id)!.tags).toEqual(ticket.tags);
    const events = await get<Array<{ type: string; object: Ticket }>>(`/v1/tickets/${ticket.id}/events`);
    expect(events.find((e) => e.type === 'ticket.created')!.object.tags).toEqual(ticket.tags);
  });

  it('are an empty list on a ticket created without them', async () => {
    const ticket = await create();
    expect(ticket.tags).toEqual([]);
    expect((await get<Ticket>(`/v1/tickets/${ticket.id}`)).tags).toEqual([]);
  });

  it('refuses a bad tag with 422 naming the tag and its place', async () => {
    const cases: Array<[unknown, string, string]> = [
      [['ok', 'fine', 'a b'], 'body.tags[2]', "Tag 'a b' may only contain a-z 0-9 _ - : ."],
      [['x'.repeat(51)], 'body.tags[0]', `Tag '${'x'.repeat(51)}' must be 1 to 50 characters long`],
      [['ok', ''], 'body.tags[1]', "Tag '' must be 1 to 50 characters long"],
      [['café'], 'body.tags[0]', "Tag 'café' may only contain a-z 0-9 _ - : ."],
      [['a,b'], 'body.tags[0]', "Tag 'a,b' may only contain a-z 0-9 _ - : ."],
    ];
    for (const [tags, field, message] of cases) {
      const res = await t.request({ method: 'POST', url: '/v1/tickets', body: body({ tags }) });
      expect(errorsOf(res), JSON.stringify(tags)).toEqual([{ field, message }]);
    }
    expect((await create({ tags: ['x'.repeat(50)] })).tags).toEqual(['x'.repeat(50)]);
  });

  it('refuses more than 20 tags, and a tag that is not a string', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: body({ tags: many }) });
    expect(errorsOf(res)[0]!.field).toBe('body.tags');
    expect((await create({ tags: many.slice(0, 20) })).tags).toHaveLength(20);
    const wrong = await t.request({ method: 'POST', url: '/v1/tickets', body: body({ tags: [1] }) });
    expect(errorsOf(wrong)[0]!.field).toBe('body.tags.0');
    const notList = await t.request({ method: 'POST', url: '/v1/tickets', body: body({ tags: 'a,b' }) });
    expect(errorsOf(notList)[0]!.field).toBe('body.tags');
  });

  it('PATCH tags replaces the set; add_tags and remove_tags change it; not both ways at once', async () => {
    const ticket = await create({ tags: ['a', 'b'] });
    expect((await patch(ticket.id, { tags: ['C', 'b'] })).tags).toEqual(['b', 'c']);
    expect((await patch(ticket.id, { add_tags: ['a', 'b'], remove_tags: ['c', 'never'] })).tags).toEqual(['a', 'b']);
    expect((await patch(ticket.id, { remove_tags: ['A'] })).tags).toEqual(['b']);
    expect((await patch(ticket.id, { tags: [] })).tags).toEqual([]);
    const both = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { tags: ['a'], add_tags: ['b'] } });
    expect(errorsOf(both)[0]!.field).toBe('body.tags');
    const bad = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { add_tags: ['ok', 'no way'] } });
    expect(errorsOf(bad)).toEqual([{ field: 'body.add_tags[1]', message: "Tag 'no way' may only contain a-z 0-9 _ - : ." }]);
    const badRemove = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { remove_tags: ['no way'] } });
    expect(errorsOf(badRemove)[0]!.field).toBe('body.remove_tags[0]');
    expect((await get<Ticket>(`/v1/tickets/${ticket.id}`)).tags).toEqual([]);
  });

  it('refuses add_tags that would make more than 20', async () => {
    const ticket = await create({ tags: Array.from({ length: 15 }, (_, i) => `t${i}`) });
    const res = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { add_tags: ['x1', 'x2', 'x3', 'x4', 'x5', 'x6'] } });
    expect(errorsOf(res)[0]).toEqual({ field: 'body.add_tags', message: 'A ticket has at most 20 tags; this would give it 21' });
    // Removing as many as are added keeps it within the limit.
    expect((await patch(ticket.id, { add_tags: ['x1', 'x2', 'x3', 'x4', 'x5', 'x6'], remove_tags: ['t0'] })).tags).toHaveLength(20);
  });

  it('a change of tags is in the ticket.updated event, old and new sorted; the same set is no change', async () => {
    const ticket = await create({ tags: ['b'] });
    const updated = await patch(ticket.id, { add_tags: ['a'] });
    const same = await patch(ticket.id, { tags: ['B', 'a'] });
    expect(same.tags).toEqual(['a', 'b']);
    const events = await get<Array<{ type: string; object: Ticket; changes: Record<string, unknown> }>>(`/v1/tickets/${ticket.id}/events`);
    const updates = events.filter((e) => e.type === 'ticket.updated');
    expect(updates).toHaveLength(1);
    expect(updates[0]!.changes).toEqual({ tags: { old: ['b'], new: ['a', 'b'] } });
    expect(updates[0]!.object.tags).toEqual(updated.tags);
  });
});

describe('tag filters', () => {
  let org: TestOrg;
  const made: Record<string, Ticket> = {};
  beforeAll(async () => {
    org = await t.newOrg('Tag filters');
    // Oldest first: x has a, y has a b, z has b (pending), w none, v has a b c.
    made.x = await create({ tags: ['a'] }, org);
    made.y = await create({ tags: ['a', 'b'] }, org);
    made.z = await create({ tags: ['b'] }, org);
    made.w = await create({}, org);
    made.v = await create({ tags: ['a', 'b', 'c'] }, org);
    const res = await t.request({ method: 'PATCH', url: `/v1/tickets/${made.z.id}`, key: org.adminKey, body: { status: 'pending' } });
    expect(res.statusCode).toBe(200);
  });
  const list = (query: string) => get<Ticket[]>(`/v1/tickets?${query}`, org).then(numbers);

  it('tag= gives the tickets having all the tags, any_tag= those having any, newest first', async () => {
    const n = (name: string) => made[name]!.ticket_number;
    expect(await list('tag=a')).toEqual([n('v'), n('y'), n('x')]);
    expect(await list('tag=a,b')).toEqual([n('v'), n('y')]);
    expect(await list('tag=A,B,c')).toEqual([n('v')]);
    expect(await list('any_tag=b,c')).toEqual([n('v'), n('z'), n('y')]);
    expect(await list('any_tag=c,a')).toEqual([n('v'), n('y'), n('x')]);
    expect(await list('tag=a&any_tag=c')).toEqual([n('v')]);
    expect(await list('tag=nothing')).toEqual([]);
  });

  it('combine with the other filters and with offset and cursor paging', async () => {
    const n = (name: string) => made[name]!.ticket_number;
    expect(await list('any_tag=b&status=pending')).toEqual([n('z')]);
    expect(await list('tag=b&status=new')).toEqual([n('v'), n('y')]);
    expect(await list('tag=a&limit=2&offset=1')).toEqual([n('y'), n('x')]);
    const first = await t.request({ method: 'GET', url: '/v1/tickets?tag=a&limit=2', key: org.adminKey });
    expect(numbers(first.json<Ticket[]>())).toEqual([n('v'), n('y')]);
    const next = /<([^>]+)>; rel="next"/.exec(String(first.headers.link))![1]!;
    expect(next).toContain('tag=a');
    expect(numbers(await get<Ticket[]>(next, org))).toEqual([n('x')]);
  });

  it('refuse a bad tag naming the parameter', async () => {
    const res = await t.request({ method: 'GET', url: '/v1/tickets?tag=a,no%20way', key: org.adminKey });
    expect(errorsOf(res)).toEqual([{ field: 'query.tag[1]', message: "Tag 'no way' must be 1 to 50 characters of a-z 0-9 _ - : ." }]);
    const empty = await t.request({ method: 'GET', url: '/v1/tickets?any_tag=a,,b', key: org.adminKey });
    expect(errorsOf(empty)[0]!.field).toBe('query.any_tag[1]');
  });

  it("another organization's tags neither match nor are listed", async () => {
    expect(await get<Ticket[]>('/v1/tickets?tag=a')).not.toEqual(expect.arrayContaining([expect.objectContaining({ id: made.x!.id })]));
    const other = await t.newOrg('No tags');
    expect(await get<Ticket[]>('/v1/tickets?any_tag=a,b,c', other)).toEqual([]);
    expect(await get<unknown[]>('/v1/tags', other)).toEqual([]);
  });
});

describe('GET /v1/tags', () => {
  it('lists the tags with counts, most used first then by name, paged; deletes take them off', async () => {
    const org = await t.newOrg('Tag counts');
    const key = org.adminKey;
    const one = await create({ tags: ['x', 'y', 'z'], customer_email: 'one@example.com' }, org);
    await create({ tags: ['y', 'z'], customer_email: 'one@example.com' }, org);
    const three = await create({ tags: ['z'], customer_email: 'three@example.com' }, org);
    expect(await get('/v1/tags', org)).toEqual([
      { tag: 'z', ticket_count: 3 },
      { tag: 'y', ticket_count: 2 },
      { tag: 'x', ticket_count: 1 },
    ]);
    expect(await get('/v1/tags?limit=1&offset=1', org)).toEqual([{ tag: 'y', ticket_count: 2 }]);
    const page = await t.request({ method: 'GET', url: '/v1/tags?limit=2', key });
    const next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link))![1]!;
    expect(await get(next, org)).toEqual([{ tag: 'x', ticket_count: 1 }]);

    // Ties by name.
    await t.request({ method: 'PATCH', url: `/v1/tickets/${three.id}`, key, body: { add_tags: ['a', 'y'] } });
    expect(await get('/v1/tags', org)).toEqual([
      { tag: 'y', ticket_count: 3 },
      { tag: 'z', ticket_count: 3 },
      { tag: 'a', ticket_count: 1 },
      { tag: 'x', ticket_count: 1 },
    ]);
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${three.id}`, key })).statusCode).toBe(204);
    expect(await get('/v1/tags', org)).toEqual([
      { tag: 'y', ticket_count: 2 },
      { tag: 'z', ticket_count: 2 },
      { tag: 'x', ticket_count: 1 },
    ]);
    expect(await get<Ticket[]>('/v1/tickets?tag=a', org)).toEqual([]);
    // The customer of the other two goes with its tickets and their tags.
    const customer = (await get<Ticket & { customer_id: string }>(`/v1/tickets/${one.id}`, org)).customer_id;
    expect((await t.request({ method: 'DELETE', url: `/v1/customers/${customer}`, key })).statusCode).toBe(204);
    expect(await get('/v1/tags', org)).toEqual([]);
    expect(await get<Ticket[]>('/v1/tickets?any_tag=x,y,z', org)).toEqual([]);
  });

  it('needs tickets:read', async () => {
    const key = await t.org.key({ role: 'admin', scopes: ['customers:read'] });
    expect((await t.request({ method: 'GET', url: '/v1/tags', key })).statusCode).toBe(403);
  });

  it('counts stay exact under concurrent changes of the same tags', async () => {
    const org = await t.newOrg('Concurrent tags');
    const key = org.adminKey;
    const tickets = await Promise.all(Array.from({ length: 6 }, () => create({ tags: ['shared'] }, org)));
    const changes = tickets.flatMap((ticket, i) => [
      { id: ticket.id, body: { add_tags: ['hot', `own${i % 2}`] } },
      { id: ticket.id, body: { remove_tags: ['shared'] } },
      { id: ticket.id, body: i % 2 === 0 ? { remove_tags: ['hot'] } : { add_tags: ['cold'] } },
    ]);
    const results = await Promise.all(changes.map((c) => t.request({ method: 'PATCH', url: `/v1/tickets/${c.id}`, key, body: c.body })));
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    const all = await get<Ticket[]>('/v1/tickets?limit=500', org);
    const expected = new Map<string, number>();
    for (const ticket of all) for (const tag of ticket.tags) expected.set(tag, (expected.get(tag) ?? 0) + 1);
    const counted = await get<Array<{ tag: string; ticket_count: number }>>('/v1/tags', org);
    expect(new Map(counted.map((c) => [c.tag, c.ticket_count]))).toEqual(expected);
    expect(expected.get('shared')).toBeUndefined();
    expect(expected.get('cold')).toBe(3);
    for (const [tag, count] of expected) expect(await get<Ticket[]>(`/v1/tickets?tag=${tag}`, org), tag).toHaveLength(count);
  });

  it('creates with and without tags in one turn each get theirs (the create fast path and the plain one)', async () => {
    const org = await t.newOrg('Mixed creates');
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => create(i % 2 === 0 ? { tags: [`n${i}`, 'even'] } : {}, org)));
    made.forEach((ticket, i) => expect(ticket.tags).toEqual(i % 2 === 0 ? ['even', `n${i}`] : []));
    for (const ticket of made) expect((await get<Ticket>(`/v1/tickets/${ticket.id}`, org)).tags).toEqual(ticket.tags);
    expect(await get<Ticket[]>('/v1/tickets?tag=even', org)).toHaveLength(5);
    expect((await get<Array<{ tag: string; ticket_count: number }>>('/v1/tags', org))[0]).toEqual({ tag: 'even', ticket_count: 5 });
  });
});
