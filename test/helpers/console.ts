import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export const PASSWORD = 'correct horse battery staple';

async function created<T = { id: string }>(t: TestApp, url: string, body: unknown): Promise<T> {
  const res = await t.request({ method: 'POST', url, body });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
  return res.json<T>();
}

export interface ConsoleOrg {
  dana: { id: string; email: string };
  ada: { id: string; email: string };
  tickets: { id: string; subject: string }[];
  customerId: string;
  viewId: string;
}

/** An organization worth looking at: two agents with passwords, a team, customers, tickets with a conversation, a view. */
export async function seedConsole(t: TestApp): Promise<ConsoleOrg> {
  const dana = await created<{ id: string; email: string }>(t, '/v1/users', { email: 'dana@example.com', full_name: 'Dana Scully', password: PASSWORD, role: 'agent' });
  const ada = await created<{ id: string; email: string }>(t, '/v1/users', { email: 'ada@example.com', full_name: 'Ada Lovelace', password: PASSWORD, role: 'agent' });
  const team = await created(t, '/v1/teams', { name: 'Billing' });
  const customer = await created<{ id: string; name: string; email: string }>(t, '/v1/customers', {
    name: 'Charles Babbage', email: 'charles@example.com', company: 'Analytical Engines Ltd', customer_tier: 'tier_1', is_vip: true, has_premium_support: true,
  });
  const other = await created<{ id: string; name: string; email: string }>(t, '/v1/customers', { name: 'Mary Somerville', email: 'mary@example.com', customer_tier: 'tier_3' });
  const subjects: [string, string, string, string | null][] = [
    ['Invoice shows the wrong total', 'urgent', 'open', dana.id],
    ['Cannot reset my password', 'high', 'new', null],
    ['Export to CSV times out', 'medium', 'open', ada.id],
    ['Feature request: dark mode', 'low', 'pending', dana.id],
    ['Refund for a duplicate charge', 'high', 'open', null],
    ['Webhook deliveries delayed', 'medium', 'new', null],
  ];
  const tickets: { id: string; subject: string }[] = [];
  for (const [i, [subject, priority, status, assignee]] of subjects.entries()) {
    const ticket = await created<{ id: string; subject: string }>(t, '/v1/tickets', {
      subject,
      description: `Hello,\n\n${subject}. This started yesterday afternoon; could you take a look?\n\nThanks`,
      customer_name: (i % 3 === 2 ? other : customer).name,
      customer_email: (i % 3 === 2 ? other : customer).email,
      priority,
      assigned_user_id: assignee,
      assigned_team_id: i % 2 === 0 ? team.id : null,
      tags: i === 0 ? ['billing', 'invoice'] : [],
    });
    if (status !== 'new') expect((await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { status } })).statusCode).toBe(200);
    tickets.push(ticket);
  }
  const first = tickets[0]!.id;
  await created(t, `/v1/tickets/${first}/comments`, { body: 'Thanks for reporting this. Could you send the invoice number?', is_internal: false, author_user_id: dana.id });
  await created(t, `/v1/tickets/${first}/comments`, { body: 'Customer is on the legacy plan: totals use the old tax table.', is_internal: true, author_user_id: ada.id });
  const view = await created(t, '/v1/views', {
    name: 'Urgent and high',
    shared: true,
    conditions: { all: [{ field: 'priority', operator: 'in', value: ['urgent', 'high'] }], any: [] },
    sort: { by: 'priority', order: 'desc' },
  });
  return { dana, ada, tickets, customerId: customer.id, viewId: view.id };
}

/** The ticket as the API has it now (the fields the console changes). */
export async function ticketNow(t: TestApp, id: string) {
  const res = await t.request({ method: 'GET', url: `/v1/tickets/${id}` });
  expect(res.statusCode).toBe(200);
  return res.json<{ status: string; priority: string; assigned_user_id: string | null; tags: string[]; category: string | null }>();
}

/** Signs in through the console's form and waits for the queue. */
export async function signIn(page: Page, base: string, email: string, path = '/app/'): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The serious and critical accessibility violations axe-core finds on the page as it is. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's CSP does not apply to the scanner itself.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(axeSource);
  return page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
}
