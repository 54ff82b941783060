import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp, TestOrg } from './test-app.js';

export interface TicketJson {
  id: string;
  ticket_number: number;
  tracking_token: string;
  customer_id: string;
  status: string;
  updated_at: string;
  resolved_at: string | null;
  closed_at: string | null;
}

/** A ticket made through the API; the customer is found or created by email. */
export async function portalTicket(
  t: TestApp,
  overrides: { subject?: string; description?: string; email?: string; org?: TestOrg } = {},
): Promise<TicketJson> {
  const res = await t.request({
    method: 'POST',
    url: '/v1/tickets',
    key: (overrides.org ?? t.org).adminKey,
    body: {
      customer_name: 'Ada Lovelace',
      customer_email: overrides.email ?? `ada-${randomUUID()}@example.com`,
      subject: overrides.subject ?? 'Invoice shows the wrong total',
      description: overrides.description ?? 'The March invoice adds VAT twice.',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TicketJson>();
}

/** An agent of the organization, with a name and an email (the email must never reach the portal). */
export async function agent(t: TestApp, fullName = 'Grace Hopper', org: TestOrg = t.org): Promise<{ id: string; email: string }> {
  const email = `agent-${randomUUID()}@support.example.com`;
  const res = await t.request({ method: 'POST', url: '/v1/users', key: org.adminKey, body: { email, full_name: fullName } });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json<{ id: string }>().id, email };
}

/** A comment through the agent API. */
export async function agentComment(
  t: TestApp,
  ticketId: string,
  body: { body: string; is_internal?: boolean; author_user_id?: string | null },
  org: TestOrg = t.org,
): Promise<{ id: string }> {
  const res = await t.request({ method: 'POST', url: `/v1/tickets/${ticketId}/comments`, key: org.adminKey, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>();
}

export async function setStatus(t: TestApp, ticketId: string, status: string, org: TestOrg = t.org): Promise<TicketJson> {
  const res = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticketId}`, key: org.adminKey, body: { status } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketJson>();
}

export async function getTicket(t: TestApp, ticketId: string, org: TestOrg = t.org): Promise<TicketJson> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}`, key: org.adminKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketJson>();
}

export interface AgentCommentJson {
  id: string;
  body: string;
  is_internal: boolean;
  author_user_id: string | null;
  author_customer_id: string | null;
}

/** The ticket's comments as agents see them (GET /v1/tickets/{id}/comments). */
export async function agentComments(t: TestApp, ticketId: string, org: TestOrg = t.org): Promise<AgentCommentJson[]> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/comments`, key: org.adminKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AgentCommentJson[]>();
}

/**
 * An attachment row with any name at all, straight into the store: uploads cannot carry every
 * name (a `/` is cut as a path), but escaping must hold for whatever a name holds.
 */
export async function attachmentNamed(t: TestApp, ticketId: string, filename: string, org: TestOrg = t.org): Promise<string> {
  const id = randomUUID();
  await t.store.db
    .insertInto('attachments')
    .values({
      id,
      organization_id: org.id,
      ticket_id: ticketId,
      filename,
      content_type: 'text/plain',
      size_bytes: 12,
      uploaded_by_user_id: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

/** Replies through the portal's JSON route. */
export function portalReply(t: TestApp, token: string, body: unknown, headers: Record<string, string> = {}) {
  return t.request({ method: 'POST', url: `/v1/portal/tickets/${token}/comments`, key: null, body, headers });
}

/** Posts the page's reply form as a browser would (urlencoded). */
export function formReply(t: TestApp, token: string, fields: Record<string, string>, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/portal/${token}/reply`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}
