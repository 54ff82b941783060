import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestOrg } from '../../../test/helpers/test-app.js';
import { createsWrittenAlone } from './tickets.create-batch.js';

/**
 * A create's customer is found by email or created, whatever the process remembers of earlier
 * creates (on PostgreSQL a group does not send a customer it saw committed: tickets.create-batch.ts,
 * knownCustomers): a customer gone since, or whose email changed, is created again, with its
 * `customer.created` event, and the numbers stay gapless.
 */
let t: TestApp;
let org: TestOrg;

interface Event {
  type: string;
  resource_id: string;
  object: Record<string, unknown>;
}

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrg('Known customers');
});
afterAll(async () => {
  await t.close();
});

async function create(email: string, subject: string): Promise<{ customer_id: string; ticket_number: number }> {
  const res = await t.request({ method: 'POST', url: '/v1/tickets', key: org.adminKey, body: { customer_name: 'Known Person', customer_email: email, subject, description: 'd' } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function customerCreatedEvents(): Promise<Event[]> {
  const res = await t.request({ method: 'GET', url: '/v1/events?limit=1000', key: org.adminKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ events: Event[] }>().events.filter((e) => e.type === 'customer.created');
}

describe('a create after the customer it would have found changed', () => {
  it('a customer seen before is found in the group itself, not by writing the create again alone', async () => {
    const first = await create('seen@example.com', 'First');
    const before = createsWrittenAlone(t.store);
    for (let i = 0; i < 3; i++) expect((await create('Seen@example.com', `Again ${i}`)).customer_id).toBe(first.customer_id);
    expect(createsWrittenAlone(t.store)).toBe(before);
  });

  it('a deleted customer is created again, with its event', async () => {
    const first = await create('gone@example.com', 'First');
    const again = await create('Gone@Example.com', 'Same customer');
    expect(again.customer_id).toBe(first.customer_id);
    expect((await t.request({ method: 'DELETE', url: `/v1/customers/${first.customer_id}`, key: org.adminKey })).statusCode).toBe(204);
    const after = await create('gone@example.com', 'After the delete');
    expect(after.customer_id).not.toBe(first.customer_id);
    expect(after.ticket_number).toBe(again.ticket_number + 1);
    const customer = await t.request({ method: 'GET', url: `/v1/customers/${after.customer_id}`, key: org.adminKey });
    expect(customer.statusCode).toBe(200);
    expect(customer.json<{ email: string }>().email).toBe('gone@example.com');
    expect((await customerCreatedEvents()).filter((e) => e.resource_id === after.customer_id)).toHaveLength(1);
  });

  it('a customer whose email changed is not found by the old one: a new customer has it', async () => {
    const first = await create('moved@example.com', 'Before the move');
    const patched = await t.request({ method: 'PATCH', url: `/v1/customers/${first.customer_id}`, key: org.adminKey, body: { email: 'elsewhere@example.com' } });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = await create('moved@example.com', 'After the move');
    expect(after.customer_id).not.toBe(first.customer_id);
    expect(after.ticket_number).toBe(first.ticket_number + 1);
    const events = await customerCreatedEvents();
    expect(events.filter((e) => e.resource_id === after.customer_id).map((e) => e.object.email)).toEqual(['moved@example.com']);
    // And the moved customer is found by its new email.
    expect((await create('elsewhere@example.com', 'At the new address')).customer_id).toBe(first.customer_id);
  });
});
