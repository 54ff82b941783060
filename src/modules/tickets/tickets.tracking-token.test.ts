import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formReply, getTicket, portalReply, portalTicket, type TicketJson } from '../../../test/helpers/portal.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const rotate = (ticketId: string, key?: string | null) =>
  t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/tracking-token`, key });
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

describe('POST /v1/tickets/{ticket_id}/tracking-token', () => {
  it('issues a new token; the old one is 404 at once on every portal route', async () => {
    const ticket = await portalTicket(t);
    const old = ticket.tracking_token;
    expect((await t.request({ method: 'GET', url: `/v1/portal/tickets/${old}`, key: null })).statusCode).toBe(200);
    await tick();

    const res = await rotate(ticket.id);
    expect(res.statusCode, res.body).toBe(200);
    const rotated = res.json<TicketJson>();
    expect(rotated.id).toBe(ticket.id);
    expect(rotated.tracking_token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(rotated.tracking_token).not.toBe(old);
    expect(rotated.updated_at > ticket.updated_at).toBe(true);
    expect(await getTicket(t, ticket.id)).toEqual(rotated);

    const json = await t.request({ method: 'GET', url: `/v1/portal/tickets/${old}`, key: null });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ detail: 'Ticket not found' });
    expect((await t.request({ method: 'GET', url: `/v1/portal/tickets/${old}/comments`, key: null })).statusCode).toBe(404);
    expect((await portalReply(t, old, { body: 'hi' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/portal/${old}` })).statusCode).toBe(404);
    expect((await formReply(t, old, { body: 'hi' })).statusCode).toBe(404);

    const fresh = await t.request({ method: 'GET', url: `/v1/portal/tickets/${rotated.tracking_token}`, key: null });
    expect(fresh.statusCode).toBe(200);
  });

  it('needs tickets:write (403), a valid key (401), and a ticket of the organization (404)', async () => {
    const ticket = await portalTicket(t);
    const readOnly = await t.org.key({ role: 'readonly' });
    const denied = await rotate(ticket.id, readOnly);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: 'Insufficient permissions: requires tickets:write' });
    const commentsOnly = await t.org.key({ scopes: ['comments:write', 'tickets:read'] });
    expect((await rotate(ticket.id, commentsOnly)).statusCode).toBe(403);
    expect((await rotate(ticket.id, null)).statusCode).toBe(401);
    expect((await rotate(randomUUID())).statusCode).toBe(404);
    expect((await rotate('not-a-uuid')).statusCode).toBe(422);

    const other = await t.newOrg('Other');
    const theirs = await rotate(ticket.id, other.adminKey);
    expect(theirs.statusCode).toBe(404);
    expect((await getTicket(t, ticket.id)).tracking_token).toBe(ticket.tracking_token);
  });
});

describe('the tracking token is a credential: shown only to keys holding tickets:write', () => {
  it("a read-only key's GET and list answer null; an admin key's carry the token; each answer's ETag is its own", async () => {
    const ticket = await portalTicket(t);
    expect(ticket.tracking_token).toMatch(/^[0-9a-f-]{36}$/);
    const readOnly = await t.org.key({ role: 'readonly' });
    const readScoped = await t.org.key({ scopes: ['tickets:read'] });
    for (const key of [readOnly, readScoped]) {
      // Twice: the first read may take another path than the next (a key read afresh, then cached).
      for (let i = 0; i < 2; i++) {
        const one = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key });
        expect(one.statusCode).toBe(200);
        expect(one.json<TicketJson>()).toEqual({ ...ticket, tracking_token: null });
        expect(one.body).not.toContain(ticket.tracking_token);
        const again = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key, headers: { 'if-none-match': String(one.headers.etag) } });
        expect(again.statusCode).toBe(304);
        const all = await t.request({ method: 'GET', url: '/v1/tickets?limit=500', key });
        expect(all.statusCode).toBe(200);
        expect(all.body).not.toContain(ticket.tracking_token);
        expect(all.json<TicketJson[]>().find((x) => x.id === ticket.id)).toEqual({ ...ticket, tracking_token: null });
      }
    }
    const admin = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key: t.org.adminKey });
    expect(admin.json<TicketJson>()).toEqual(ticket);
    const ro = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}`, key: readOnly });
    expect(ro.headers.etag).not.toBe(admin.headers.etag);
    // The admin's ETag is the one If-Match checks (a change needs tickets:write, which sees the token).
    const patched = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, key: t.org.adminKey, body: { priority: 'low' }, headers: { 'if-match': String(admin.headers.etag) } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json<TicketJson>().tracking_token).toBe(ticket.tracking_token);
    const list = await t.request({ method: 'GET', url: '/v1/tickets?limit=500', key: t.org.adminKey });
    expect(list.json<TicketJson[]>().find((x) => x.id === ticket.id)?.tracking_token).toBe(ticket.tracking_token);
  });
});
