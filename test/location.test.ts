import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from './helpers/attachments.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/** `Location` on 201 Created: the new record's own address, on both stores (http/location.ts). */
let t: TestApp;
let ticketId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const ticket = await t.request({
    method: 'POST',
    url: '/v1/tickets',
    body: { customer_name: 'Ada', customer_email: 'ada-location@example.com', subject: 'Where', description: 'Is it' },
  });
  ticketId = ticket.json<{ id: string }>().id;
});
afterAll(async () => {
  await t.close();
});

/** The answer's Location names the record it returned, and a GET of it returns that record. */
async function expectLocation(res: LightMyRequestResponse, collection: string): Promise<void> {
  expect(res.statusCode, res.body).toBe(201);
  const { id } = res.json<{ id: string }>();
  expect(res.headers.location).toBe(`${collection}/${id}`);
  const read = await t.request({ method: 'GET', url: res.headers.location as string });
  expect(read.statusCode, read.body).toBe(200);
  expect(read.json<{ id: string }>().id).toBe(id);
}

describe('Location on 201', () => {
  it('every create of a record with its own address answers with that address', async () => {
    const post = (url: string, body: unknown) => t.request({ method: 'POST', url, body });
    await expectLocation(
      await post('/v1/tickets', { customer_name: 'Bo', customer_email: 'bo-location@example.com', subject: 'S', description: 'D' }),
      '/v1/tickets',
    );
    await expectLocation(await post('/v1/customers', { name: 'Cy', email: 'cy-location@example.com' }), '/v1/customers');
    await expectLocation(await post('/v1/users', { email: 'location-user@example.com', full_name: 'L U' }), '/v1/users');
    await expectLocation(await post('/v1/teams', { name: 'Location team' }), '/v1/teams');
    await expectLocation(await post('/v1/api-keys', { name: 'location key', role: 'readonly' }), '/v1/api-keys');
    await expectLocation(await post('/v1/webhooks', { url: 'https://hooks.example.com/location', events: ['*'] }), '/v1/webhooks');
    await expectLocation(await post('/v1/ticket-fields', { key: 'location', label: 'Location', type: 'text' }), '/v1/ticket-fields');
    await expectLocation(await post('/v1/views', { name: 'Location', shared: true, conditions: {} }), '/v1/views');
    await expectLocation(await post('/v1/macros', { name: 'Location', actions: [{ field: 'priority', value: 'low' }] }), '/v1/macros');
    await expectLocation(await post('/v1/triggers', { name: 'Location', on: ['ticket.created'], conditions: {}, actions: [{ field: 'priority', value: 'low' }] }), '/v1/triggers');
    await expectLocation(await post('/v1/automations', { name: 'Location', conditions: {}, actions: [{ field: 'priority', value: 'low' }] }), '/v1/automations');

    await expectLocation(await post('/v1/business-hours', { name: 'Location', time_zone: 'UTC', weekly: [{ day: 'mon', start: '09:00', end: '17:00' }] }), '/v1/business-hours');
    await expectLocation(await post('/v1/sla-policies', { name: 'Location', conditions: {}, targets: [{ priority: 'low', resolution_minutes: 60 }] }), '/v1/sla-policies');
    await expectLocation(await post('/v1/mailboxes', { address: 'location@example.com', name: 'Location' }), '/v1/mailboxes');
    await expectLocation(await post(`/v1/tickets/${ticketId}/comments`, { body: 'Here' }), `/v1/tickets/${ticketId}/comments`);
    await expectLocation(await upload(t, ticketId, 'where.txt', 'text/plain', 'here'), `/v1/tickets/${ticketId}/attachments`);
  });

  it('is the path without the query or a trailing slash, and a replay repeats it', async () => {
    const first = await t.request({
      method: 'POST',
      url: '/v1/teams/',
      headers: { 'idempotency-key': 'location-replay' },
      body: { name: 'Replayed team' },
    });
    await expectLocation(first, '/v1/teams');
    const again = await t.request({ method: 'POST', url: '/v1/teams/', headers: { 'idempotency-key': 'location-replay' }, body: { name: 'Replayed team' } });
    expect(again.statusCode).toBe(201);
    expect(again.headers.location).toBe(first.headers.location);
  });

  it('a create whose record has no address of its own, and any other status, sends none', async () => {
    const team = await t.request({ method: 'POST', url: '/v1/teams', body: { name: 'Members' } });
    const user = await t.request({ method: 'POST', url: '/v1/users', body: { email: 'location-member@example.com', full_name: 'M' } });
    const member = await t.request({ method: 'POST', url: `/v1/teams/${team.json<{ id: string }>().id}/members`, body: { user_id: user.json<{ id: string }>().id } });
    expect(member.statusCode).toBe(201);
    expect(member.headers.location).toBeUndefined();
    const invalid = await t.request({ method: 'POST', url: '/v1/teams', body: {} });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers.location).toBeUndefined();
  });

  it('the document declares Location on exactly the creates that send it', async () => {
    const document = (await t.request({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>>;
    }>();
    const declared = Object.entries(document.paths)
      .filter(([, item]) => item.post?.responses?.['201']?.headers?.Location)
      .map(([path]) => path)
      .sort();
    expect(declared).toEqual([
      '/v1/api-keys',
      '/v1/automations',

      '/v1/business-hours',
      '/v1/customers',
      '/v1/macros',
      '/v1/mailboxes',
      '/v1/sla-policies',
      '/v1/teams',
      '/v1/ticket-fields',
      '/v1/tickets',
      '/v1/tickets/{ticket_id}/attachments',
      '/v1/tickets/{ticket_id}/comments',
      '/v1/triggers',
      '/v1/users',
      '/v1/views',
      '/v1/webhooks',
    ]);
  });
});
