import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { upload } from './attachments.js';
import type { TestApp } from './test-app.js';

/** One record of every kind in the test app's first organization, for suites that visit every route. */
export interface Seeded {
  ticketId: string;
  trackingToken: string;
  customerId: string;
  commentId: string;
  attachmentId: string;
  teamId: string;
  userId: string;
  /** A user who is a member of the team. */
  memberId: string;
  keyId: string;
  webhookId: string;
  /** A custom ticket field (text, not required). */
  fieldId: string;
  mailboxId: string;
  viewId: string;
  macroId: string;
  /** A bulk job (of the ticket). */
  jobId: string;
  triggerId: string;
  automationId: string;
  businessHoursId: string;
  slaPolicyId: string;
  /** A path of a signed download of the attachment (`/storage/...?expires=...&signature=...`). */
  signedPath: string;
}

async function created(t: TestApp, url: string, body: unknown): Promise<string> {
  const res = await t.request({ method: 'POST', url, body });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Makes one of each record through the API. */
export async function seedRecords(t: TestApp): Promise<Seeded> {
  // Custom fields made by an earlier visit (a required one would refuse the ticket below, and an
  // organization holds at most 100) are removed first; one plain field is seeded.
  const fields = await t.request({ method: 'GET', url: '/v1/ticket-fields?limit=500' });
  expect(fields.statusCode, fields.body).toBe(200);
  for (const { id } of fields.json<{ id: string }[]>()) {
    const res = await t.request({ method: 'DELETE', url: `/v1/ticket-fields/${id}` });
    expect(res.statusCode, res.body).toBe(204);
  }
  const fieldId = await created(t, '/v1/ticket-fields', { key: 'seeded', label: 'Seeded', type: 'text' });
  // An organization holds at most MAIL_MAX_MAILBOXES mailboxes: suites that seed again reuse the first. The ticket and its comment come by mail, so
  // that the routes of their original messages have something to serve.
  const mailboxes = await t.request({ method: 'GET', url: '/v1/mailboxes?limit=1' });
  expect(mailboxes.statusCode, mailboxes.body).toBe(200);
  const mailboxId = mailboxes.json<{ id: string }[]>()[0]?.id ?? (await created(t, '/v1/mailboxes', { address: 'seeded@example.com', name: 'Seeded' }));
  const seededId = randomUUID();
  const mail = (extra: string, body: string) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/mailboxes/${mailboxId}/messages`,
      headers: { authorization: `Bearer ${t.org.adminKey}`, 'content-type': 'message/rfc822' },
      payload: `From: Ada Lovelace <ada@example.com>\r\nTo: seeded@example.com\r\nSubject: Seeded\r\n${extra}\r\n\r\n${body}\r\n`,
    });
  const opened = await mail(`Message-ID: <${seededId}@example.com>`, 'A seeded ticket');
  expect(opened.statusCode, opened.body).toBe(202);
  const ticketId = opened.json<{ ticket_id: string }>().ticket_id;
  const ticket = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}` });
  expect(ticket.statusCode, ticket.body).toBe(200);
  const { tracking_token: trackingToken, customer_id: customerId } = ticket.json<{ tracking_token: string; customer_id: string }>();
  const replied = await mail(`Message-ID: <${seededId}.reply@example.com>\r\nIn-Reply-To: <${seededId}@example.com>`, 'A seeded comment');
  expect(replied.statusCode, replied.body).toBe(202);
  const commentId = replied.json<{ comment_id: string }>().comment_id;
  const file = await upload(t, ticketId, 'seeded.txt', 'text/plain', 'seeded bytes');
  expect(file.statusCode, file.body).toBe(201);
  const attachmentId = file.json<{ id: string }>().id;
  const teamId = await created(t, '/v1/teams', { name: 'Seeded team' });
  const unique = randomUUID().slice(0, 8);
  const userId = await created(t, '/v1/users', { email: `seeded-user-${unique}@example.com`, full_name: 'Seeded User' });
  const memberId = await created(t, '/v1/users', { email: `seeded-member-${unique}@example.com`, full_name: 'Seeded Member' });
  const member = await t.request({ method: 'POST', url: `/v1/teams/${teamId}/members`, body: { user_id: memberId } });
  expect(member.statusCode, member.body).toBe(201);
  const keyId = await created(t, '/v1/api-keys', { name: 'seeded key', role: 'readonly' });
  // An organization holds at most 100 webhook endpoints (MAX_WEBHOOKS_PER_ORG): suites that seed again reuse the first.
  const hooks = await t.request({ method: 'GET', url: '/v1/webhooks?limit=1' });
  expect(hooks.statusCode, hooks.body).toBe(200);
  const webhookId = hooks.json<{ id: string }[]>()[0]?.id ?? (await created(t, '/v1/webhooks', { url: 'https://hooks.example.com/seeded', events: ['*'] }));
  // An organization holds at most MAX_VIEWS_PER_ORG views: suites that seed again reuse the first.
  const views = await t.request({ method: 'GET', url: '/v1/views?limit=1' });
  expect(views.statusCode, views.body).toBe(200);
  const viewId = views.json<{ id: string }[]>()[0]?.id ?? (await created(t, '/v1/views', { name: 'Seeded', shared: true, conditions: {} }));
  // An organization holds at most MAX_MACROS_PER_ORG macros: suites that seed again reuse the first.
  const macros = await t.request({ method: 'GET', url: '/v1/macros?limit=1' });
  expect(macros.statusCode, macros.body).toBe(200);
  const macroId = macros.json<{ id: string }[]>()[0]?.id ?? (await created(t, '/v1/macros', { name: 'Seeded', actions: [{ field: 'priority', value: 'high' }] }));
  // Triggers and automations are capped per organization too (MAX_TRIGGERS_PER_ORG, MAX_AUTOMATIONS_PER_ORG): reuse the first.
  const lowPriority = { conditions: {}, actions: [{ field: 'priority', value: 'low' }] };
  const triggers = await t.request({ method: 'GET', url: '/v1/triggers?limit=1' });
  expect(triggers.statusCode, triggers.body).toBe(200);
  const triggerId = triggers.json<{ id: string }[]>()[0]?.id ?? (await created(t, '/v1/triggers', { name: 'Seeded', on: ['ticket.created'], active: false, ...lowPriority }));
  const automations = await t.request({ method: 'GET', url: '/v1/automations?limit=1' });
  expect(automations.statusCode, automations.body).toBe(200);
  const automationId = automations.json<{ id: string }[]>()[0]?.id ?? (await created(t, '/v1/automations', { name: 'Seeded', active: false, ...lowPriority }));
  // An organization holds at most MAX_BUSINESS_HOURS_PER_ORG calendars: suites that seed again reuse the first.
  const hours = await t.request({ method: 'GET', url: '/v1/business-hours?limit=1' });
  expect(hours.statusCode, hours.body).toBe(200);
  const businessHoursId =
    hours.json<{ id: string }[]>()[0]?.id ?? (await created(t, '/v1/business-hours', { name: 'Seeded', time_zone: 'UTC', weekly: [{ day: 'mon', start: '09:00', end: '17:00' }] }));
  // At most MAX_SLA_POLICIES_PER_ORG: suites that seed again reuse the first.
  const policies = await t.request({ method: 'GET', url: '/v1/sla-policies?limit=1' });
  expect(policies.statusCode, policies.body).toBe(200);
  const slaPolicyId =
    policies.json<{ id: string }[]>()[0]?.id ?? (await created(t, '/v1/sla-policies', { name: 'Seeded', conditions: {}, targets: [{ priority: 'urgent', resolution_minutes: 60 }] }));
  const download = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments/${attachmentId}/download` });
  const signed = new URL(download.json<{ signed_url: string }>().signed_url);
  const job = await t.request({ method: 'POST', url: '/v1/tickets/bulk', body: { ids: [ticketId], actions: [{ field: 'priority', value: 'high' }] } });
  expect(job.statusCode, job.body).toBe(202);
  const jobId = job.json<{ job_id: string }>().job_id;
  return { ticketId, trackingToken, customerId, commentId, attachmentId, teamId, userId, memberId, keyId, webhookId, fieldId, mailboxId, viewId, macroId, jobId, triggerId, automationId, businessHoursId, slaPolicyId, signedPath: `${signed.pathname}${signed.search}` };
}

/** The values path parameters take for the seeded records, by parameter name. */
export function pathValues(seeded: Seeded): Record<string, string> {
  return {
    ticket_id: seeded.ticketId,
    tracking_token: seeded.trackingToken,
    customer_id: seeded.customerId,
    comment_id: seeded.commentId,
    attachment_id: seeded.attachmentId,
    team_id: seeded.teamId,
    user_id: seeded.memberId,
    key_id: seeded.keyId,
    webhook_id: seeded.webhookId,
    field_id: seeded.fieldId,
    mailbox_id: seeded.mailboxId,
    view_id: seeded.viewId,
    macro_id: seeded.macroId,
    job_id: seeded.jobId,
    trigger_id: seeded.triggerId,
    automation_id: seeded.automationId,
    business_hours_id: seeded.businessHoursId,
    sla_policy_id: seeded.slaPolicyId,
    // No delivery is made without a worker and a receiver; routes that take one check their query
    // and the webhook before the delivery, so an id that names none serves them.
    delivery_id: '00000000-0000-4000-8000-000000000000',
  };
}

/** The value a path parameter takes for the seeded records. */
export function pathValue(seeded: Seeded, name: string): string {
  const value = pathValues(seeded)[name];
  if (value === undefined) throw new Error(`No seeded value for the path parameter ${name}`);
  return value;
}

/** An OpenAPI path (`/v1/tickets/{ticket_id}`) with each parameter replaced. */
export function fillPath(path: string, value: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(value(name)));
}
