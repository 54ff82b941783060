import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../../../test/helpers/attachments.js';
import {
  agent,
  agentComment,
  agentComments,
  attachmentNamed,
  getTicket,
  portalReply,
  portalTicket,
  setStatus,
} from '../../../test/helpers/portal.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

interface PortalCommentJson {
  id: string;
  body: string;
  author_type: 'customer' | 'agent';
  author_name: string | null;
  created_at: string;
}
interface PortalTicketJson {
  ticket_number: number;
  ticket_display_id: string;
  subject: string;
  status: string;
  accepts_replies: boolean;
  comment_count: number;
  comments: PortalCommentJson[];
  attachments: { id: string; filename: string; content_type: string; size_bytes: number; download_url: string }[];
  resolved_at: string | null;
  updated_at: string;
}

const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, key: null, headers });
const ticketUrl = (token: string) => `/v1/portal/tickets/${token}`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

describe('GET /v1/portal/tickets/{tracking_token}', () => {
  it('shows the ticket, its public thread and its files, and nothing internal', async () => {
    const ticket = await portalTicket(t, { subject: 'Printer on fire', description: 'Smoke everywhere' });
    const grace = await agent(t, 'Grace Hopper');
    await agentComment(t, ticket.id, { body: 'Looking into it', author_user_id: grace.id });
    await agentComment(t, ticket.id, { body: 'SECRET internal note', is_internal: true, author_user_id: grace.id });
    await agentComment(t, ticket.id, { body: 'From a key without a holder', author_user_id: null });
    const reply = await portalReply(t, ticket.tracking_token, { body: 'Thanks!' });
    expect(reply.statusCode, reply.body).toBe(201);
    const file = await upload(t, ticket.id, 'photo.txt', 'text/plain', 'hello, world');
    expect(file.statusCode, file.body).toBe(201);

    const res = await get(ticketUrl(ticket.tracking_token));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<PortalTicketJson>();
    expect(Object.keys(body).sort()).toEqual(
      [
        'accepts_replies', 'attachments', 'closed_at', 'comment_count', 'comments', 'created_at', 'description', 'priority',
        'resolved_at', 'status', 'subject', 'ticket_display_id', 'ticket_number', 'updated_at',
      ].sort(),
    );
    expect(body).toMatchObject({
      ticket_number: ticket.ticket_number,
      ticket_display_id: `TKT-${ticket.ticket_number}`,
      subject: 'Printer on fire',
      description: 'Smoke everywhere',
      status: 'new',
      priority: 'medium',
      accepts_replies: true,
      comment_count: 3,
    });
    expect(body.comments.map((c) => [c.body, c.author_type, c.author_name])).toEqual([
      ['Looking into it', 'agent', 'Grace Hopper'],
      ['From a key without a holder', 'agent', null],
      ['Thanks!', 'customer', null],
    ]);
    expect(Object.keys(body.comments[0]!).sort()).toEqual(['attachment_ids', 'author_name', 'author_type', 'body', 'created_at', 'id']);
    // Never internal notes, agent emails, assignees, the customer's id or the ticket's own id.
    expect(res.body).not.toContain('SECRET');
    expect(res.body).not.toContain(grace.email);
    expect(res.body).not.toContain(grace.id);
    expect(res.body).not.toContain(ticket.id);
    expect(res.body).not.toContain(ticket.customer_id);
    const fileId = file.json<{ id: string; created_at: string }>().id;
    expect(body.attachments).toEqual([
      {
        id: fileId,
        filename: 'photo.txt',
        content_type: 'text/plain',
        size_bytes: 12,
        created_at: file.json<{ created_at: string }>().created_at,
        download_url: `http://localhost:8080/portal/${ticket.tracking_token}/attachments/${fileId}`,
      },
    ]);
  });

  it('needs no API key, ignores one, and is never cached', async () => {
    const ticket = await portalTicket(t);
    const plain = await get(ticketUrl(ticket.tracking_token));
    expect(plain.statusCode).toBe(200);
    const withKey = await t.request({ method: 'GET', url: ticketUrl(ticket.tracking_token), key: 'key_admin_nonsense' });
    expect(withKey.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-store');
    expect(plain.headers['referrer-policy']).toBe('no-referrer');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
  });

  it('opens the ticket whatever the case of the token', async () => {
    const ticket = await portalTicket(t);
    const res = await get(ticketUrl(ticket.tracking_token.toUpperCase()));
    expect(res.statusCode).toBe(200);
    expect(res.json<PortalTicketJson>().ticket_number).toBe(ticket.ticket_number);
  });

  it('answers an unknown and a malformed token with the same 404', async () => {
    const ticket = await portalTicket(t);
    const unknown = await get(ticketUrl(randomUUID()));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Ticket not found' });
    const bad = [
      'not-a-token',
      ticket.tracking_token.slice(0, 35),
      `${ticket.tracking_token}0`,
      `${ticket.tracking_token}%20`,
      encodeURIComponent(`${ticket.tracking_token}' or '1'='1`),
      'x'.repeat(90),
      ticket.id, // the ticket's id is not its token
      // Text no store can hold is a malformed token like any other, not a 422.
      `${ticket.tracking_token}%00`,
    ];
    for (const token of bad) {
      const res = await get(ticketUrl(token));
      expect(res.statusCode, token).toBe(404);
      expect(res.body, token).toBe(unknown.body);
      expect(res.headers['content-type']).toBe(unknown.headers['content-type']);
    }
    for (const url of [`${ticketUrl('nope')}/comments`, `${ticketUrl(randomUUID())}/comments`]) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    for (const token of ['nope', randomUUID()]) {
      const res = await portalReply(t, token, { body: 'hello' });
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
  });

  it('keeps organizations apart: a token opens its own ticket and nothing of another', async () => {
    const other = await t.newOrg('Other');
    const mine = await portalTicket(t, { subject: 'Mine' });
    const theirs = await portalTicket(t, { subject: 'Theirs', org: other });
    await agentComment(t, theirs.id, { body: 'Their comment' }, other);
    const theirFile = await attachmentNamed(t, theirs.id, 'their-file.txt', other);

    const res = await get(ticketUrl(theirs.tracking_token));
    expect(res.json<PortalTicketJson>().subject).toBe('Theirs');
    const minePage = await get(ticketUrl(mine.tracking_token));
    expect(minePage.json<PortalTicketJson>()).toMatchObject({ subject: 'Mine', comment_count: 0, comments: [], attachments: [] });
    // Another organization's file through my token: as missing as a file that never existed.
    const cross = await get(`${ticketUrl(mine.tracking_token)}/attachments/${theirFile}/download`);
    expect(cross.statusCode).toBe(404);
    expect(cross.json()).toEqual({ detail: 'Attachment not found' });
  });
});

describe('GET /v1/portal/tickets/{tracking_token}/comments', () => {
  it('pages through the public comments, oldest first, without internal notes', async () => {
    const ticket = await portalTicket(t);
    for (let i = 1; i <= 5; i += 1) {
      await agentComment(t, ticket.id, { body: `public ${i}` });
      await agentComment(t, ticket.id, { body: `internal ${i}`, is_internal: true });
    }
    const all = await get(`${ticketUrl(ticket.tracking_token)}/comments`);
    expect(all.statusCode).toBe(200);
    expect(all.json<PortalCommentJson[]>().map((c) => c.body)).toEqual(['public 1', 'public 2', 'public 3', 'public 4', 'public 5']);
    const page = await get(`${ticketUrl(ticket.tracking_token)}/comments?limit=2&offset=2`);
    expect(page.json<PortalCommentJson[]>().map((c) => c.body)).toEqual(['public 3', 'public 4']);
    const skip = await get(`${ticketUrl(ticket.tracking_token)}/comments?limit=2&skip=4`);
    expect(skip.json<PortalCommentJson[]>().map((c) => c.body)).toEqual(['public 5']);
  });

  it('rejects a limit out of range and unknown parameters with 422', async () => {
    const ticket = await portalTicket(t);
    for (const query of ['limit=0', 'limit=501', 'offset=-1', 'is_internal=true']) {
      const res = await get(`${ticketUrl(ticket.tracking_token)}/comments?${query}`);
      expect(res.statusCode, query).toBe(422);
    }
  });

  it('shows the latest 500 in the ticket view and counts them all', async () => {
    const ticket = await portalTicket(t);
    const now = Date.now();
    const rows = Array.from({ length: 502 }, (_, i) => ({
      id: randomUUID(),
      organization_id: t.org.id,
      ticket_id: ticket.id,
      body: `bulk ${i}`,
      is_internal: 0,
      author_user_id: null,
      author_customer_id: null,
      created_at: new Date(now + i).toISOString(),
      updated_at: new Date(now + i).toISOString(),
    }));
    await t.store.db.insertInto('comments').values(rows).execute();
    const body = (await get(ticketUrl(ticket.tracking_token))).json<PortalTicketJson>();
    expect(body.comment_count).toBe(502);
    expect(body.comments).toHaveLength(500);
    expect(body.comments[0]!.body).toBe('bulk 2');
    expect(body.comments[499]!.body).toBe('bulk 501');
  });
});

describe('POST /v1/portal/tickets/{tracking_token}/comments', () => {
  it("stores the reply as the ticket's customer; agents see it", async () => {
    const ticket = await portalTicket(t);
    const res = await portalReply(t, ticket.tracking_token, { body: 'It still happens\non every invoice' });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<PortalCommentJson>();
    expect(created).toMatchObject({ body: 'It still happens\non every invoice', author_type: 'customer', author_name: null });
    const seen = await agentComments(t, ticket.id);
    expect(seen).toEqual([
      expect.objectContaining({
        id: created.id,
        body: 'It still happens\non every invoice',
        is_internal: false,
        author_user_id: null,
        author_customer_id: ticket.customer_id,
      }),
    ]);
  });

  it.each([
    ['pending', 'open'],
    ['resolved', 'open'],
    ['new', 'new'],
    ['open', 'open'],
  ])('a reply on a %s ticket leaves it %s', async (from, to) => {
    const ticket = await portalTicket(t);
    const before = from === 'new' ? await getTicket(t, ticket.id) : await setStatus(t, ticket.id, from);
    await tick();
    const res = await portalReply(t, ticket.tracking_token, { body: 'Any news?' });
    expect(res.statusCode, res.body).toBe(201);
    const after = await getTicket(t, ticket.id);
    expect(after.status).toBe(to);
    expect(after.resolved_at).toBeNull();
    expect(after.closed_at).toBeNull();
    // updated_at moves with the status, and only then.
    if (from === to) expect(after.updated_at).toBe(before.updated_at);
    else expect(after.updated_at > before.updated_at).toBe(true);
  });

  it('refuses a reply on a closed ticket with 409 and keeps nothing', async () => {
    const ticket = await portalTicket(t);
    await setStatus(t, ticket.id, 'resolved');
    const closed = await setStatus(t, ticket.id, 'closed');
    const res = await portalReply(t, ticket.tracking_token, { body: 'Hello?' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: 'This ticket is closed and no longer accepts replies; please open a new ticket' });
    expect(await agentComments(t, ticket.id)).toEqual([]);
    expect(await getTicket(t, ticket.id)).toEqual(closed);
    const view = (await get(ticketUrl(ticket.tracking_token))).json<PortalTicketJson>();
    expect(view).toMatchObject({ status: 'closed', accepts_replies: false });
  });

  it('takes 1 to 10,000 characters with some text in them', async () => {
    const ticket = await portalTicket(t);
    const longest = await portalReply(t, ticket.tracking_token, { body: 'é'.repeat(10_000) });
    expect(longest.statusCode).toBe(201);
    const cases: [unknown, string][] = [
      [{ body: '' }, 'body.body'],
      [{ body: ' \n\t ' }, 'body.body'],
      [{ body: 'x'.repeat(10_001) }, 'body.body'],
      [{ body: 42 }, 'body.body'],
      [{}, 'body.body'],
      [{ body: 'hi', is_internal: true }, 'body.is_internal'],
      [{ body: 'hi', author_customer_id: randomUUID() }, 'body.author_customer_id'],
    ];
    for (const [body, field] of cases) {
      const res = await portalReply(t, ticket.tracking_token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json<{ errors: { field: string }[] }>().errors[0]!.field).toBe(field);
    }
    expect(await agentComments(t, ticket.id)).toHaveLength(1);
  });

  it('wants JSON: 415 for other types, 400 for broken JSON', async () => {
    const ticket = await portalTicket(t);
    const form = await t.app.inject({
      method: 'POST',
      url: `${ticketUrl(ticket.tracking_token)}/comments`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'body=hello',
    });
    expect(form.statusCode).toBe(415);
    const broken = await portalReply(t, ticket.tracking_token, '{"body": ');
    expect(broken.statusCode).toBe(400);
    expect(await agentComments(t, ticket.id)).toEqual([]);
  });

  it('checks the token before it reads the body: an unknown token is 404 whatever was sent', async () => {
    const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    for (const token of [randomUUID(), 'not-a-token']) {
      for (const payload of ['{"body": ', deep, `{"body":"${'x'.repeat(1_100_000)}"}`]) {
        const res = await portalReply(t, token, payload);
        expect(res.statusCode, `${token} ${payload.slice(0, 12)}`).toBe(404);
        expect(res.json()).toEqual({ detail: 'Ticket not found' });
      }
    }
  });
});

describe('GET /v1/portal/tickets/{tracking_token}/attachments/{attachment_id}/download', () => {
  it('signs an address that serves the file without a key', async () => {
    const ticket = await portalTicket(t);
    const file = await upload(t, ticket.id, 'notes.txt', 'text/plain', 'hello, world');
    const id = file.json<{ id: string }>().id;
    const res = await get(`${ticketUrl(ticket.tracking_token)}/attachments/${id}/download`);
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json<{ signed_url: string; expires_at: string }>();
    expect(link.signed_url).toMatch(new RegExp(`^http://localhost:8080/storage/${id}\\?expires=\\d+&signature=`));
    const fetched = await t.app.inject({ method: 'GET', url: link.signed_url.replace('http://localhost:8080', '') });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.body).toBe('hello, world');
  });

  it("is 404 for a file of another ticket, a malformed id, or a ticket's old token", async () => {
    const ticket = await portalTicket(t);
    const sibling = await portalTicket(t);
    const siblingFile = await attachmentNamed(t, sibling.id, 'sibling.txt');
    for (const id of [siblingFile, randomUUID(), 'nope']) {
      const res = await get(`${ticketUrl(ticket.tracking_token)}/attachments/${id}/download`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ detail: 'Attachment not found' });
    }
    const res = await get(`${ticketUrl(randomUUID())}/attachments/${siblingFile}/download`);
    expect(res.json()).toEqual({ detail: 'Ticket not found' });
  });
});

describe('rate limit per client address', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ RATE_LIMIT_PORTAL_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('counts JSON and page requests together per address, apart from API keys', async () => {
    const ticket = await portalTicket(limited);
    const from = (remoteAddress: string, url: string) => limited.app.inject({ method: 'GET', url, remoteAddress });
    const first = await from('10.0.0.1', ticketUrl(ticket.tracking_token));
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('3');
    expect(first.headers['ratelimit-remaining']).toBe('2');
    expect((await from('10.0.0.1', `/portal/${ticket.tracking_token}`)).statusCode).toBe(200);
    // Unknown tokens count too: guessing costs the same budget.
    expect((await from('10.0.0.1', ticketUrl(randomUUID()))).statusCode).toBe(404);

    const over = await from('10.0.0.1', ticketUrl(ticket.tracking_token));
    expect(over.statusCode).toBe(429);
    expect(over.json<{ detail: string }>().detail).toMatch(/^Rate limit exceeded\. Retry after \d+ seconds\.$/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const overPage = await from('10.0.0.1', `/portal/${ticket.tracking_token}`);
    expect(overPage.statusCode).toBe(429);
    expect(String(overPage.headers['content-type'])).toMatch(/^text\/html/);
    expect(overPage.headers['retry-after']).toBeDefined();

    // Another address has its own budget; agents' keys are not touched by the portal's.
    expect((await from('10.0.0.2', ticketUrl(ticket.tracking_token))).statusCode).toBe(200);
    const api = await limited.app.inject({
      method: 'GET',
      url: '/v1/test',
      remoteAddress: '10.0.0.1',
      headers: { authorization: `Bearer ${limited.org.adminKey}` },
    });
    expect(api.statusCode).toBe(200);
  });

  it('defaults to 60 per minute', async () => {
    const res = await t.request({ method: 'GET', url: ticketUrl(randomUUID()), key: null });
    expect(res.headers['ratelimit-limit']).toBe('60');
  });
});
