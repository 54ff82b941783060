import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

// A policy's arithmetic never fails a ticket's write: a calendar with one minute a week against a
// year-long target cannot be counted within the business-time library's 100 years (found by the
// fuzzer as a 500 on every ticket change of such an organization).

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

it('a target the calendar cannot reach gives a deadline 100 years away, and the ticket is written', async () => {
  const hours = await t.request({ method: 'POST', url: '/v1/business-hours', body: { name: 'A minute a week', time_zone: 'UTC', weekly: [{ day: 'mon', start: '09:00', end: '09:01' }] } });
  expect(hours.statusCode, hours.body).toBe(201);
  const policy = await t.request({
    method: 'POST',
    url: '/v1/sla-policies',
    body: { name: 'Thin', conditions: {}, business_hours_id: hours.json<{ id: string }>().id, targets: [{ priority: 'low', resolution_minutes: 525_600 }, { priority: 'high', resolution_minutes: 60 }] },
  });
  expect(policy.statusCode, policy.body).toBe(201);
  const created = await t.request({ method: 'POST', url: '/v1/tickets', body: { customer_name: 'Ada', customer_email: 'ada@thin.example', subject: 'Far', description: 'Away', priority: 'low' } });
  expect(created.statusCode, created.body).toBe(201);
  const due = Date.parse(created.json<{ sla: { resolution_due_at: string } }>().sla.resolution_due_at);
  expect(due - Date.now()).toBeGreaterThan(99 * 365 * 86_400_000);
  // A change of priority recomputes the clock; back to the unreachable target, still written.
  const id = created.json<{ id: string }>().id;
  expect((await t.request({ method: 'PATCH', url: `/v1/tickets/${id}`, body: { priority: 'high' } })).statusCode).toBe(200);
  expect((await t.request({ method: 'PATCH', url: `/v1/tickets/${id}`, body: { priority: 'low' } })).statusCode).toBe(200);
});
