import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const newTicket = (overrides: Record<string, unknown> = {}) => ({
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  subject: 'Printer on fire',
  description: 'It is literally on fire',
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}) {
  const res = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket(overrides) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Record<string, unknown>>();
}

describe('tickets', () => {
  it('creates a ticket with status new, a number, a display id and a customer', async () => {
    const ticket = await create();
    expect(ticket).toMatchObject({
      status: 'new',
      priority: 'medium',
      category: null,
      subject: 'Printer on fire',
      ticket_display_id: `TKT-${String(ticket.ticket_number)}`,
      resolved_at: null,
      closed_at: null,
    });
    expect(ticket.customer_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ticket.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('gets, updates and deletes a ticket', async () => {
    const ticket = await create();
    const got = await t.request({ method: 'GET', url: `/v1/tickets/${String(ticket.id)}` });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(ticket);

    const patched = await t.request({ method: 'PATCH', url: `/v1/tickets/${String(ticket.id)}`, body: { status: 'resolved' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ status: 'resolved' });
    expect(patched.json<{ resolved_at: string }>().resolved_at).not.toBeNull();

    const deleted = await t.request({ method: 'DELETE', url: `/v1/tickets/${String(ticket.id)}` });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const gone = await t.request({ method: 'GET', url: `/v1/tickets/${String(ticket.id)}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ detail: 'Ticket not found' });
  });

  it('rejects an enum value outside its set with 422 naming the field', async () => {
    const res = await t.request({ method: 'POST', url: '/v1/tickets', body: newTicket({ priority: 'extreme' }) });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: 'body.priority' }] });
  });

  it('searches by substring and by ticket number', async () => {
    const a = await create({ subject: 'Unique zebra subject' });
    const res = await t.request({ method: 'GET', url: '/v1/tickets?search=ZEBRA' });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ id: string }[]>().map((x) => x.id)).toEqual([a.id]);
    const byNumber = await t.request({ method: 'GET', url: `/v1/tickets?search=tkt-${String(a.ticket_number)}` });
    expect(byNumber.json<{ id: string }[]>().map((x) => x.id)).toContain(a.id);
  });
});
