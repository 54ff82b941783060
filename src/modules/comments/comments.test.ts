import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

interface CommentJson {
  id: string;
  ticket_id: string;
  body: string;
  is_internal: boolean;
  author_user_id: string | null;
  author_customer_id: string | null;
  created_at: string;
  updated_at: string;
}

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
// Timestamps have millisecond precision: a pause makes a wrongly moved updated_at observable.
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

async function newTicket(key?: string): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/v1/tickets',
    key,
    body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Help', description: 'It broke' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

async function addComment(ticketId: string, body: Record<string, unknown> = { body: 'Hello' }, key?: string) {
  const res = await t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, key, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CommentJson>();
}

/** A user of the organization: through POST /v1/users when that route exists, else straight into the store. */
async function newUser(org: TestOrg): Promise<string> {
  const email = `agent-${randomUUID()}@example.com`;
  const res = await t.request({ method: 'POST', url: '/v1/users', key: org.adminKey, body: { email, full_name: 'Agent' } });
  if (res.statusCode === 201) return res.json<{ id: string }>().id;
  expect(res.statusCode, `POST /v1/users exists but failed: ${res.body}`).toBe(404);
  const id = randomUUID();
  const now = new Date().toISOString();
  const user = { id, organization_id: org.id, email, email_normalized: email, full_name: 'Agent', role: 'agent' as const };
  await t.store.db.insertInto('users').values({ ...user, is_active: 1, created_at: now, updated_at: now }).execute();
  return id;
}

const url = (ticketId: string, commentId?: string) =>
  `/v1/tickets/${ticketId}/comments${commentId === undefined ? '' : `/${commentId}`}`;

describe('comments: happy paths', () => {
  it('creates, gets, updates and deletes a comment', async () => {
    const ticketId = await newTicket();
    const created = await addComment(ticketId, { body: 'First reply' });
    expect(created).toMatchObject({
      ticket_id: ticketId,
      body: 'First reply',
      is_internal: false,
      author_user_id: null,
      author_customer_id: null,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.created_at).toMatch(ISO_MS);
    expect(created.updated_at).toBe(created.created_at);

    const got = await t.request({ method: 'GET', url: url(ticketId, created.id) });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);

    await tick();
    const patched = await t.request({ method: 'PATCH', url: url(ticketId, created.id), body: { body: 'Edited', is_internal: true } });
    expect(patched.statusCode, patched.body).toBe(200);
    const updated = patched.json<CommentJson>();
    expect(updated).toMatchObject({ id: created.id, body: 'Edited', is_internal: true, created_at: created.created_at });
    expect(updated.updated_at > created.updated_at).toBe(true);
    expect((await t.request({ method: 'GET', url: url(ticketId, created.id) })).json()).toEqual(updated);

    const deleted = await t.request({ method: 'DELETE', url: url(ticketId, created.id) });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const gone = await t.request({ method: 'GET', url: url(ticketId, created.id) });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'Comment not found' });
  });

  it('stores is_internal as given and as 0/1', async () => {
    const ticketId = await newTicket();
    const internal = await addComment(ticketId, { body: 'Note to self', is_internal: true });
    expect(internal.is_internal).toBe(true);
    const row = await t.store.db.selectFrom('comments').select('is_internal').where('id', '=', internal.id).executeTakeFirstOrThrow();
    expect(row.is_internal).toBe(1);
    const patched = await t.request({ method: 'PATCH', url: url(ticketId, internal.id), body: { is_internal: false } });
    expect(patched.json<CommentJson>().is_internal).toBe(false);
  });

  it('leaves updated_at alone when a PATCH changes nothing', async () => {
    const ticketId = await newTicket();
    const created = await addComment(ticketId, { body: 'Same', is_internal: true });
    await tick();
    for (const body of [{}, { body: 'Same' }, { is_internal: true }, { body: 'Same', is_internal: true }]) {
      const res = await t.request({ method: 'PATCH', url: url(ticketId, created.id), body });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(created);
    }
  });

  it('accepts a body of exactly 100,000 characters on create and update', async () => {
    const ticketId = await newTicket();
    const created = await addComment(ticketId, { body: 'a'.repeat(100_000) });
    expect(created.body).toHaveLength(100_000);
    const res = await t.request({ method: 'PATCH', url: url(ticketId, created.id), body: { body: 'b'.repeat(100_000) } });
    expect(res.statusCode).toBe(200);
  });
});

describe('comments: authors', () => {
  it("defaults the author to the key's holder, and to null for a key without one", async () => {
    const userId = await newUser(t.org);
    const key = await t.org.key({ holderUserId: userId });
    const ticketId = await newTicket();
    expect((await addComment(ticketId, { body: 'Mine' }, key)).author_user_id).toBe(userId);
    expect((await addComment(ticketId, { body: 'Nobody' })).author_user_id).toBeNull();
    // An explicit null means "no author", even for a key with a holder.
    expect((await addComment(ticketId, { body: 'Anonymous', author_user_id: null }, key)).author_user_id).toBeNull();
    const other = await newUser(t.org);
    expect((await addComment(ticketId, { body: 'On behalf', author_user_id: other }, key)).author_user_id).toBe(other);
  });

  it('rejects an author_user_id naming no user of the organization with 422', async () => {
    const ticketId = await newTicket();
    const otherOrgUser = await newUser(await t.newOrg('Other org'));
    for (const author of [randomUUID(), otherOrgUser]) {
      const res = await t.request({ method: 'POST', url: url(ticketId), body: { body: 'x', author_user_id: author } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ errors: [{ field: 'body.author_user_id' }] });
    }
  });
});

describe('comments: listing', () => {
  it('lists oldest first and pages with limit, offset and skip', async () => {
    const ticketId = await newTicket();
    const ids: string[] = [];
    for (const body of ['one', 'two', 'three', 'four']) {
      // No pause between them: comments made within one millisecond must still keep their order.
      ids.push((await addComment(ticketId, { body })).id);
    }
    const otherTicket = await newTicket();
    await addComment(otherTicket, { body: 'elsewhere' });

    const list = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `${url(ticketId)}${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<CommentJson[]>().map((c) => c.id);
    };
    expect(await list('')).toEqual(ids);
    expect(await list('?limit=2')).toEqual(ids.slice(0, 2));
    expect(await list('?limit=2&offset=2')).toEqual(ids.slice(2, 4));
    expect(await list('?limit=1&skip=1')).toEqual(ids.slice(1, 2));
    expect(await list('?offset=4')).toEqual([]);
    expect(await list('?limit=500')).toEqual(ids);
  });

  it('returns at most 100 comments by default, and [] for a ticket without any', async () => {
    const ticketId = await newTicket();
    const now = new Date().toISOString();
    const row = { organization_id: t.org.id, ticket_id: ticketId, is_internal: 0, created_at: now, updated_at: now };
    const rows = Array.from({ length: 101 }, (_, i) => ({ ...row, id: randomUUID(), body: `c${i}` }));
    await t.store.db.insertInto('comments').values(rows).execute();
    expect((await t.request({ method: 'GET', url: url(ticketId) })).json<unknown[]>()).toHaveLength(100);
    const empty = await t.request({ method: 'GET', url: url(await newTicket()) });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
  });
});

describe('comments: authentication and scopes', () => {
  it('answers 401 without a valid key', async () => {
    const ticketId = await newTicket();
    for (const key of [null, 'key_admin_nope']) {
      const res = await t.request({ method: 'GET', url: url(ticketId), key });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });

  it('answers 403 naming the scope the key lacks', async () => {
    const ticketId = await newTicket();
    const comment = await addComment(ticketId);
    const ticketsOnly = await t.org.key({ scopes: ['tickets:read'] });
    const readOnly = await t.org.key({ role: 'readonly' });
    const noDelete = await t.org.key({ scopes: ['comments:read', 'comments:write'] });
    const cases = [
      { key: ticketsOnly, method: 'GET', url: url(ticketId), scope: 'comments:read' },
      { key: ticketsOnly, method: 'GET', url: url(ticketId, comment.id), scope: 'comments:read' },
      { key: readOnly, method: 'POST', url: url(ticketId), body: { body: 'x' }, scope: 'comments:write' },
      { key: readOnly, method: 'PATCH', url: url(ticketId, comment.id), body: { body: 'x' }, scope: 'comments:write' },
      { key: noDelete, method: 'DELETE', url: url(ticketId, comment.id), scope: 'comments:delete' },
    ] as const;
    for (const c of cases) {
      const res = await t.request(c);
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(403);
      expect(res.json()).toEqual({ detail: `Insufficient permissions: requires ${c.scope}` });
    }
    // The read-only key may still read.
    expect((await t.request({ method: 'GET', url: url(ticketId), key: readOnly })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: url(ticketId, comment.id) })).json()).toEqual(comment);
  });
});

describe('comments: not found', () => {
  it("answers 404 'Ticket not found' for an unknown ticket on every endpoint", async () => {
    const ticketId = randomUUID();
    const commentId = randomUUID();
    const cases = [
      { method: 'GET', url: url(ticketId) },
      { method: 'POST', url: url(ticketId), body: { body: 'x' } },
      { method: 'GET', url: url(ticketId, commentId) },
      { method: 'PATCH', url: url(ticketId, commentId), body: { body: 'x' } },
      { method: 'DELETE', url: url(ticketId, commentId) },
    ] as const;
    for (const c of cases) {
      const res = await t.request(c);
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
      expect(res.json()).toEqual({ detail: 'Ticket not found' });
    }
  });

  it("answers 404 'Comment not found' for an unknown comment and for another ticket's comment", async () => {
    const ticketId = await newTicket();
    const otherTicket = await newTicket();
    const foreign = await addComment(otherTicket, { body: 'Not yours' });
    for (const commentId of [randomUUID(), foreign.id]) {
      for (const c of [
        { method: 'GET', url: url(ticketId, commentId) },
        { method: 'PATCH', url: url(ticketId, commentId), body: { body: 'hijack' } },
        { method: 'DELETE', url: url(ticketId, commentId) },
      ] as const) {
        const res = await t.request(c);
        expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
        expect(res.json()).toEqual({ detail: 'Comment not found' });
      }
    }
    // The other ticket's comment is untouched.
    expect((await t.request({ method: 'GET', url: url(otherTicket, foreign.id) })).json()).toEqual(foreign);
  });

  it("hides another organization's ticket and comments behind 404", async () => {
    const other = await t.newOrg('Elsewhere');
    const ticketId = await newTicket(other.adminKey);
    const comment = await addComment(ticketId, { body: 'Private' }, other.adminKey);
    for (const c of [
      { method: 'GET', url: url(ticketId) },
      { method: 'POST', url: url(ticketId), body: { body: 'x' } },
      { method: 'GET', url: url(ticketId, comment.id) },
      { method: 'PATCH', url: url(ticketId, comment.id), body: { body: 'x' } },
      { method: 'DELETE', url: url(ticketId, comment.id) },
    ] as const) {
      const res = await t.request(c);
      expect(res.statusCode, `${c.method} ${c.url}`).toBe(404);
      expect(res.json()).toEqual({ detail: 'Ticket not found' });
    }
    const own = await t.request({ method: 'GET', url: url(ticketId, comment.id), key: other.adminKey });
    expect(own.json()).toEqual(comment);
  });

  it('deletes the comments with their ticket', async () => {
    const ticketId = await newTicket();
    const comment = await addComment(ticketId);
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${ticketId}` })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: url(ticketId, comment.id) })).statusCode).toBe(404);
    const left = await t.store.db.selectFrom('comments').select('id').where('ticket_id', '=', ticketId).execute();
    expect(left).toEqual([]);
  });
});

describe('comments: validation', () => {
  const invalid = async (method: 'POST' | 'PATCH' | 'GET', path: string, body: unknown, field: string) => {
    const res = await t.request({ method, url: path, body });
    expect(res.statusCode, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBe(422);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toContain(field);
  };

  it('rejects bad create bodies with 422 naming the field', async () => {
    const path = url(await newTicket());
    await invalid('POST', path, {}, 'body.body');
    await invalid('POST', path, { body: '' }, 'body.body');
    await invalid('POST', path, { body: 'a'.repeat(100_001) }, 'body.body');
    await invalid('POST', path, { body: 'x', is_internal: 'true' }, 'body.is_internal');
    await invalid('POST', path, { body: 'x', author_user_id: 'not-a-uuid' }, 'body.author_user_id');
    await invalid('POST', path, { body: 'x', author_customer_id: randomUUID() }, 'body.author_customer_id');
  });

  it('rejects bad update bodies with 422 naming the field, and changes nothing', async () => {
    const ticketId = await newTicket();
    const comment = await addComment(ticketId);
    const path = url(ticketId, comment.id);
    await invalid('PATCH', path, { body: '' }, 'body.body');
    await invalid('PATCH', path, { body: 'a'.repeat(100_001) }, 'body.body');
    await invalid('PATCH', path, { is_internal: 1 }, 'body.is_internal');
    await invalid('PATCH', path, { author_user_id: randomUUID() }, 'body.author_user_id');
    await invalid('PATCH', path, { ticket_id: randomUUID() }, 'body.ticket_id');
    expect((await t.request({ method: 'GET', url: path })).json()).toEqual(comment);
  });

  it('rejects malformed UUIDs in the path and a limit out of range with 422', async () => {
    const ticketId = await newTicket();
    await invalid('GET', url('nope'), undefined, 'path.ticket_id');
    await invalid('GET', url(ticketId, 'nope'), undefined, 'path.comment_id');
    await invalid('PATCH', url(ticketId, 'nope'), { body: 'x' }, 'path.comment_id');
    await invalid('GET', `${url(ticketId)}?limit=501`, undefined, 'query.limit');
    await invalid('GET', `${url(ticketId)}?limit=0`, undefined, 'query.limit');
    await invalid('GET', `${url(ticketId)}?offset=-1`, undefined, 'query.offset');
    const del = await t.request({ method: 'DELETE', url: url(ticketId, 'nope') });
    expect(del.statusCode).toBe(422);
  });
});
