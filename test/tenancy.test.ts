import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from './helpers/test-app.js';

// A key sees only its organization's records. Another organization's record answers
// 404 exactly as a missing one does (never 403), and lists never show it.

type Json = Record<string, unknown>;

let t: TestApp;
let a: TestOrg; // the owner of the records
let b: TestOrg; // the intruder

const A = {} as {
  ticket: Json;
  customer: Json;
  user: Json;
  team: Json;
  comment: Json;
  attachment: Json | null;
};

function multipartFile(filename: string, contentType: string, content: string) {
  const boundary = `----tenancy${randomUUID()}`;
  const payload =
    `--${boundary}\r\n` +
    `Content-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
    `Content-Type: ${contentType}\r\n\r\n` +
    `${content}\r\n` +
    `--${boundary}--\r\n`;
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(org: TestOrg, ticketId: string, content = 'hello tenancy'): Promise<LightMyRequestResponse> {
  const file = multipartFile('note.txt', 'text/plain', content);
  return t.request({
    method: 'POST',
    url: `/v1/tickets/${ticketId}/attachments`,
    key: org.adminKey,
    body: file.payload,
    headers: { 'content-type': file.contentType },
  });
}

async function create(org: TestOrg, url: string, body: Json): Promise<Json> {
  const res = await t.request({ method: 'POST', url, key: org.adminKey, body });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
  return res.json<Json>();
}

/** The same 404 a missing record gets: JSON with a string detail, and never a 403. */
function expectNotFound(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(404);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  expect(typeof res.json<{ detail: unknown }>().detail).toBe('string');
}

/**
 * Organization B gets 404 on GET, PATCH and DELETE of A's record, and the record is unchanged
 * for A afterwards.
 */
async function expectHiddenFromB(url: string, patch: Json | null): Promise<void> {
  const before = await t.request({ method: 'GET', url, key: a.adminKey });
  expect(before.statusCode, `${url}: ${before.body}`).toBe(200);

  expectNotFound(await t.request({ method: 'GET', url, key: b.adminKey }), `GET ${url}`);
  if (patch) expectNotFound(await t.request({ method: 'PATCH', url, key: b.adminKey, body: patch }), `PATCH ${url}`);
  expectNotFound(await t.request({ method: 'DELETE', url, key: b.adminKey }), `DELETE ${url}`);

  // And the 404 is the same as for records that do not exist at all (for a nested address, B's
  // answer is the parent's 404, as if the whole chain were missing).
  const missingUrl = url.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, () => randomUUID());
  const missing = await t.request({ method: 'GET', url: missingUrl, key: a.adminKey });
  expect(missing.statusCode).toBe(404);
  const hidden = await t.request({ method: 'GET', url, key: b.adminKey });
  expect(hidden.json()).toEqual(missing.json());

  const after = await t.request({ method: 'GET', url, key: a.adminKey });
  expect(after.statusCode).toBe(200);
  expect(after.json()).toEqual(before.json());
}

const ids = (res: LightMyRequestResponse): string[] => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: string }[]>().map((x) => x.id);
};

beforeAll(async () => {
  t = await buildTestApp();
  a = t.org;
  b = await t.newOrg('Intruder organization');
});
afterAll(async () => {
  await t.close();
});

describe('ticket numbers', () => {
  it('start at 1 in each organization', async () => {
    const a1 = await create(a, '/v1/tickets', { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'A1', description: 'd' });
    const a2 = await create(a, '/v1/tickets', { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'A2', description: 'd' });
    const b1 = await create(b, '/v1/tickets', { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'B1', description: 'd' });
    const a3 = await create(a, '/v1/tickets', { customer_name: 'Bob', customer_email: 'bob@example.com', subject: 'A3', description: 'd' });
    const b2 = await create(b, '/v1/tickets', { customer_name: 'Bob', customer_email: 'bob@example.com', subject: 'B2', description: 'd' });
    expect([a1, a2, a3].map((x) => x.ticket_number)).toEqual([1, 2, 3]);
    expect([b1, b2].map((x) => x.ticket_number)).toEqual([1, 2]);
    expect(b1.ticket_display_id).toBe('TKT-1');
    // The same customer email makes a separate customer in each organization.
    expect(b1.customer_id).not.toBe(a1.customer_id);
    expect(a2.customer_id).toBe(a1.customer_id);
    A.ticket = a1;
  });
});

describe('records of another organization are 404 and never listed', () => {
  beforeAll(async () => {
    A.ticket ??= await create(a, '/v1/tickets', { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'A', description: 'd' });
    A.customer = await create(a, '/v1/customers', { name: 'Grace Hopper', email: 'grace@example.com' });
    A.user = await create(a, '/v1/users', { email: 'agent@example.com', full_name: 'Alan Agent' });
    A.team = await create(a, '/v1/teams', { name: 'Tier 1', description: 'First line' });
    const added = await t.request({
      method: 'POST',
      url: `/v1/teams/${String(A.team.id)}/members`,
      key: a.adminKey,
      body: { user_id: A.user.id },
    });
    // Which status a first add answers is teams.test.ts's to prove; here either will do.
    expect([200, 201], added.body).toContain(added.statusCode);
    A.comment = await create(a, `/v1/tickets/${String(A.ticket.id)}/comments`, { body: 'An internal note', is_internal: true });
    const uploaded = await upload(a, String(A.ticket.id));
    A.attachment = uploaded.statusCode === 201 ? uploaded.json<Json>() : null;
  });

  it('ticket', async () => {
    const url = `/v1/tickets/${String(A.ticket.id)}`;
    await expectHiddenFromB(url, { subject: 'taken over', status: 'closed' });
    const listed = ids(await t.request({ method: 'GET', url: '/v1/tickets?limit=500', key: b.adminKey }));
    expect(listed.length).toBeGreaterThan(0); // B's own tickets are listed...
    expect(listed).not.toContain(A.ticket.id); // ...A's never
    // Filters naming A's records find nothing for B; searching A's subject neither.
    for (const query of [
      `customer_id=${String(A.ticket.customer_id)}`,
      `assigned_user_id=${String(A.user.id)}`,
      `assigned_team_id=${String(A.team.id)}`,
      `search=${encodeURIComponent(String(A.ticket.subject))}`,
      `search=${String(A.ticket.tracking_token)}`,
    ]) {
      const res = await t.request({ method: 'GET', url: `/v1/tickets?${query}`, key: b.adminKey });
      expect(res.statusCode, query).toBe(200);
      expect(ids(res)).not.toContain(A.ticket.id);
    }
  });

  it('customer', async () => {
    await expectHiddenFromB(`/v1/customers/${String(A.customer.id)}`, { name: 'taken over' });
    const listed = ids(await t.request({ method: 'GET', url: '/v1/customers?limit=100', key: b.adminKey }));
    expect(listed.length).toBeGreaterThan(0);
    expect(listed).not.toContain(A.customer.id);
    expect(listed).not.toContain(A.ticket.customer_id);
    // Email uniqueness is per organization: B may use A's customer email.
    const same = await t.request({ method: 'POST', url: '/v1/customers', key: b.adminKey, body: { name: 'Other Grace', email: 'grace@example.com' } });
    expect(same.statusCode, same.body).toBe(201);
  });

  it('user', async () => {
    await expectHiddenFromB(`/v1/users/${String(A.user.id)}`, { full_name: 'taken over' });
    const bUser = await create(b, '/v1/users', { email: 'agent@example.com', full_name: 'Same email, other org' });
    const listed = ids(await t.request({ method: 'GET', url: '/v1/users?limit=100', key: b.adminKey }));
    expect(listed).toContain(bUser.id);
    expect(listed).not.toContain(A.user.id);
  });

  it('team', async () => {
    await expectHiddenFromB(`/v1/teams/${String(A.team.id)}`, { name: 'taken over' });
    const bTeam = await create(b, '/v1/teams', { name: 'Tier 1' });
    const listed = ids(await t.request({ method: 'GET', url: '/v1/teams?limit=100', key: b.adminKey }));
    expect(listed).toContain(bTeam.id);
    expect(listed).not.toContain(A.team.id);
  });

  it('team member', async () => {
    const teamUrl = `/v1/teams/${String(A.team.id)}`;
    const memberUrl = `${teamUrl}/members/${String(A.user.id)}`;
    // Reading the members (GET of the team), adding and removing are all 404 for B.
    expectNotFound(await t.request({ method: 'GET', url: teamUrl, key: b.adminKey }), 'GET team members');
    expectNotFound(await t.request({ method: 'DELETE', url: memberUrl, key: b.adminKey }), 'DELETE member');
    const bUser = await create(b, '/v1/users', { email: 'member@example.com', full_name: 'B member' });
    expectNotFound(
      await t.request({ method: 'POST', url: `${teamUrl}/members`, key: b.adminKey, body: { user_id: bUser.id } }),
      'POST member to A team',
    );
    // B cannot put A's user into B's own team either.
    const bTeam = await create(b, '/v1/teams', { name: 'B team' });
    expectNotFound(
      await t.request({ method: 'POST', url: `/v1/teams/${String(bTeam.id)}/members`, key: b.adminKey, body: { user_id: A.user.id } }),
      'POST A user to B team',
    );
    expectNotFound(
      await t.request({ method: 'DELETE', url: `/v1/teams/${String(bTeam.id)}/members/${String(A.user.id)}`, key: b.adminKey }),
      'DELETE A user from B team',
    );
    const team = await t.request({ method: 'GET', url: teamUrl, key: a.adminKey });
    expect(team.statusCode).toBe(200);
    expect(team.json<{ members: { id: string }[] }>().members.map((m) => m.id)).toEqual([A.user.id]);
    const bTeamNow = await t.request({ method: 'GET', url: `/v1/teams/${String(bTeam.id)}`, key: b.adminKey });
    expect(bTeamNow.json<{ members: unknown[] }>().members).toEqual([]);
  });

  it('comment', async () => {
    const ticketUrl = `/v1/tickets/${String(A.ticket.id)}`;
    await expectHiddenFromB(`${ticketUrl}/comments/${String(A.comment.id)}`, { body: 'taken over' });
    expectNotFound(await t.request({ method: 'GET', url: `${ticketUrl}/comments`, key: b.adminKey }), 'list comments');
    expectNotFound(
      await t.request({ method: 'POST', url: `${ticketUrl}/comments`, key: b.adminKey, body: { body: 'sneaky' } }),
      'POST comment',
    );
    // A's comment id under B's own ticket is not found either.
    const bTicket = await create(b, '/v1/tickets', { customer_name: 'C', customer_email: 'c@example.com', subject: 's', description: 'd' });
    const crossUrl = `/v1/tickets/${String(bTicket.id)}/comments/${String(A.comment.id)}`;
    expectNotFound(await t.request({ method: 'GET', url: crossUrl, key: b.adminKey }), 'GET cross comment');
    expectNotFound(await t.request({ method: 'PATCH', url: crossUrl, key: b.adminKey, body: { body: 'x' } }), 'PATCH cross comment');
    expectNotFound(await t.request({ method: 'DELETE', url: crossUrl, key: b.adminKey }), 'DELETE cross comment');
    expect(ids(await t.request({ method: 'GET', url: `/v1/tickets/${String(bTicket.id)}/comments`, key: b.adminKey }))).toEqual([]);
    expect(ids(await t.request({ method: 'GET', url: `${ticketUrl}/comments`, key: a.adminKey }))).toEqual([A.comment.id]);
  });

  it('attachment', async () => {
    expect(A.attachment, 'the attachments module must accept a text/plain upload').not.toBeNull();
    const ticketUrl = `/v1/tickets/${String(A.ticket.id)}`;
    const url = `${ticketUrl}/attachments/${String(A.attachment!.id)}`;
    await expectHiddenFromB(url, null);
    expectNotFound(await t.request({ method: 'GET', url: `${url}/download`, key: b.adminKey }), 'download');
    expectNotFound(await t.request({ method: 'GET', url: `${ticketUrl}/attachments`, key: b.adminKey }), 'list attachments');
    expectNotFound(await upload(b, String(A.ticket.id)), 'upload to A ticket');
    const bTicket = await create(b, '/v1/tickets', { customer_name: 'D', customer_email: 'd@example.com', subject: 's', description: 'd' });
    const crossUrl = `/v1/tickets/${String(bTicket.id)}/attachments/${String(A.attachment!.id)}`;
    expectNotFound(await t.request({ method: 'GET', url: crossUrl, key: b.adminKey }), 'GET cross attachment');
    expectNotFound(await t.request({ method: 'GET', url: `${crossUrl}/download`, key: b.adminKey }), 'download cross attachment');
    expectNotFound(await t.request({ method: 'DELETE', url: crossUrl, key: b.adminKey }), 'DELETE cross attachment');
    expect(ids(await t.request({ method: 'GET', url: `${ticketUrl}/attachments`, key: a.adminKey }))).toEqual([A.attachment!.id]);
  });

  it('ids of another organization in a body are refused like unknown ids', async () => {
    const body = { customer_name: 'E', customer_email: 'e@example.com', subject: 's', description: 'd' };
    const withUser = await t.request({ method: 'POST', url: '/v1/tickets', key: b.adminKey, body: { ...body, assigned_user_id: A.user.id } });
    expect(withUser.statusCode, withUser.body).toBe(422);
    expect(withUser.json()).toMatchObject({ errors: [{ field: 'body.assigned_user_id' }] });
    const withTeam = await t.request({ method: 'POST', url: '/v1/tickets', key: b.adminKey, body: { ...body, assigned_team_id: A.team.id } });
    expect(withTeam.statusCode, withTeam.body).toBe(422);
    expect(withTeam.json()).toMatchObject({ errors: [{ field: 'body.assigned_team_id' }] });

    const bTicket = await create(b, '/v1/tickets', body);
    const patched = await t.request({
      method: 'PATCH',
      url: `/v1/tickets/${String(bTicket.id)}`,
      key: b.adminKey,
      body: { assigned_user_id: A.user.id },
    });
    expect(patched.statusCode, patched.body).toBe(422);
    expect(patched.json()).toMatchObject({ errors: [{ field: 'body.assigned_user_id' }] });
  });

  it('B deleting its own records never touches A', async () => {
    const bList = ids(await t.request({ method: 'GET', url: '/v1/customers?limit=100', key: b.adminKey }));
    for (const id of bList) {
      expect((await t.request({ method: 'DELETE', url: `/v1/customers/${id}`, key: b.adminKey })).statusCode).toBe(204);
    }
    expect((await t.request({ method: 'GET', url: `/v1/customers/${String(A.customer.id)}`, key: a.adminKey })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/tickets/${String(A.ticket.id)}`, key: a.adminKey })).statusCode).toBe(200);
    expect(ids(await t.request({ method: 'GET', url: '/v1/tickets', key: b.adminKey }))).toEqual([]);
  });
});
