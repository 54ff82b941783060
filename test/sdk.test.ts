import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, multipart, type TicketingClient } from '../sdk/index.js';
import { startWebhookWorker, type WebhookWorker } from '../src/modules/webhooks/webhooks.worker.js';
import { committedDocument } from './helpers/openapi-document.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { eventually, Receiver } from './helpers/webhooks.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The SDK (sdk/: openapi-typescript types + openapi-fetch) against a live server, once per store:
 * every operation of the document is called through it, typed end to end, with no cast. The
 * operations called are recorded by a middleware and compared with the document's list.
 */
let t: TestApp;
let api: TicketingClient;
let base: string;
let receiver: Receiver;
let worker: WebhookWorker;
const called = new Set<string>();

beforeAll(async () => {
  // A receiver on 127.0.0.1 and a delivery worker, so there are deliveries to list and retry.
  t = await buildTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_POLL_INTERVAL_MS: '50' });
  receiver = await Receiver.start();
  worker = startWebhookWorker({ store: t.store, config: t.config, log: t.app.log });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  api = tracked(createClient({ baseUrl: base, apiKey: t.org.adminKey }));
});

/** The client, recording each operation it calls. */
function tracked(client: TicketingClient): TicketingClient {
  client.use({
    onRequest({ schemaPath, request }) {
      called.add(`${request.method} ${schemaPath}`);
      return undefined;
    },
  });
  return client;
}
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await t.close();
});

/** The data of a successful call, failing the test with the error body otherwise. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  expect(result.error, `${result.response.status} ${JSON.stringify(result.error)}`).toBeUndefined();
  if (result.data === undefined) throw new Error(`no data: ${result.response.status} ${result.response.url}`);
  return result.data;
}

describe('the typed SDK drives every operation of a live server', () => {
  it('tickets, customers, users, teams, comments, attachments, keys, events, webhooks, portal and health', async () => {
    // Health and the key in use.
    expect(ok(await api.GET('/healthz')).status).toBe('ok');
    expect(ok(await api.GET('/readyz')).status).toBe('ready');
    expect(ok(await api.GET('/v1/test')).key_prefix).toMatch(/^key_admin_/);

    // Users and teams.
    const grace = ok(await api.POST('/v1/users', { body: { email: 'grace@example.com', full_name: 'Grace Hopper' } }));
    expect(ok(await api.GET('/v1/users', { params: { query: { limit: 50 } } })).map((u) => u.id)).toContain(grace.id);
    expect(ok(await api.GET('/v1/users/{user_id}', { params: { path: { user_id: grace.id } } })).email).toBe('grace@example.com');
    expect(ok(await api.PATCH('/v1/users/{user_id}', { params: { path: { user_id: grace.id } }, body: { full_name: 'Grace B. Hopper' } })).full_name).toBe('Grace B. Hopper');
    const team = ok(await api.POST('/v1/teams', { body: { name: 'Billing' } }));
    expect(ok(await api.GET('/v1/teams')).map((tm) => tm.id)).toContain(team.id);
    ok(await api.PATCH('/v1/teams/{team_id}', { params: { path: { team_id: team.id } }, body: { description: 'Invoices' } }));
    ok(await api.POST('/v1/teams/{team_id}/members', { params: { path: { team_id: team.id } }, body: { user_id: grace.id } }));
    expect(ok(await api.GET('/v1/teams/{team_id}', { params: { path: { team_id: team.id } } })).members.map((m) => m.id)).toEqual([grace.id]);
    const removed = await api.DELETE('/v1/teams/{team_id}/members/{user_id}', { params: { path: { team_id: team.id, user_id: grace.id } } });
    expect(removed.response.status).toBe(204);

    // Customers.
    const customer = ok(await api.POST('/v1/customers', { body: { name: 'Charles Babbage', email: 'charles@example.com', is_vip: true } }));
    expect(ok(await api.GET('/v1/customers', { params: { query: { limit: 10 } } })).map((c) => c.id)).toContain(customer.id);
    expect(ok(await api.GET('/v1/customers/{customer_id}', { params: { path: { customer_id: customer.id } } })).is_vip).toBe(true);
    ok(await api.PATCH('/v1/customers/{customer_id}', { params: { path: { customer_id: customer.id } }, body: { company: 'Engines Ltd' } }));

    // A webhook first, so the changes below queue deliveries.
    const webhook = ok(await api.POST('/v1/webhooks', { body: { url: receiver.url(), events: ['ticket.created'] } }));
    expect(webhook.secret).toMatch(/^whsec_/);

    // Tickets: limit is optional, so a bare call type-checks.
    const ticket = ok(
      await api.POST('/v1/tickets', {
        body: { customer_name: 'Ada Lovelace', customer_email: 'ada@example.com', subject: 'Invoice', description: 'Cannot download it', priority: 'high' },
      }),
    );
    expect(ok(await api.GET('/v1/tickets')).map((tk) => tk.id)).toContain(ticket.id);
    const path = { ticket_id: ticket.id };
    expect(ok(await api.GET('/v1/tickets/{ticket_id}', { params: { path } })).ticket_display_id).toBe(ticket.ticket_display_id);
    expect(ok(await api.PATCH('/v1/tickets/{ticket_id}', { params: { path }, body: { status: 'open', assigned_team_id: team.id } })).status).toBe('open');
    // Tags: typed on the ticket, in the PATCH body, the list's filter and GET /v1/tags.
    const tagged: string[] = ok(await api.PATCH('/v1/tickets/{ticket_id}', { params: { path }, body: { add_tags: ['vip', 'billing'] } })).tags;
    expect(tagged).toEqual(['billing', 'vip']);
    expect(ok(await api.GET('/v1/tickets', { params: { query: { tag: 'vip,billing' } } })).map((tk) => tk.id)).toEqual([ticket.id]);
    expect(ok(await api.GET('/v1/tags')).map((tg) => [tg.tag, tg.ticket_count])).toEqual([['billing', 1], ['vip', 1]]);
    // Custom fields: definitions, and values on the ticket typed as their union.
    const field = ok(await api.POST('/v1/ticket-fields', { body: { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'] } }));
    const fieldPath = { field_id: field.id };
    expect(ok(await api.GET('/v1/ticket-fields')).map((f) => f.key)).toEqual(['plan']);
    expect(ok(await api.GET('/v1/ticket-fields/{field_id}', { params: { path: fieldPath } })).options).toEqual(['free', 'pro']);
    expect(ok(await api.PATCH('/v1/ticket-fields/{field_id}', { params: { path: fieldPath }, body: { label: 'Customer plan' } })).label).toBe('Customer plan');
    const plan: string | number | boolean | string[] | undefined = ok(
      await api.PATCH('/v1/tickets/{ticket_id}', { params: { path }, body: { custom_fields: { plan: 'pro' } } }),
    ).custom_fields.plan;
    expect(plan).toBe('pro');
    expect((await api.DELETE('/v1/ticket-fields/{field_id}', { params: { path: fieldPath } })).response.status).toBe(204);
    // Views: conditions typed in the body; the view's tickets and every view's count.
    const view = ok(await api.POST('/v1/views', { body: { name: 'VIP', shared: true, conditions: { all: [{ field: 'tags', operator: 'includes_all', value: ['vip'] }] } } }));
    const viewPath = { view_id: view.id };
    expect(ok(await api.GET('/v1/views/{view_id}/tickets', { params: { path: viewPath } })).map((tk) => tk.id)).toEqual([ticket.id]);
    const counted: number | null | undefined = ok(await api.GET('/v1/views/counts')).views.find((v) => v.id === view.id)?.count;
    expect(counted).toBe(1);
    expect(ok(await api.PATCH('/v1/views/{view_id}', { params: { path: viewPath }, body: { name: 'VIPs' } })).name).toBe('VIPs');
    expect(ok(await api.GET('/v1/views/{view_id}', { params: { path: viewPath } })).sort).toEqual({ by: 'created_at', order: 'desc' });
    expect(ok(await api.GET('/v1/views')).map((v) => v.id)).toEqual([view.id]);
    expect((await api.DELETE('/v1/views/{view_id}', { params: { path: viewPath } })).response.status).toBe(204);
    // Macros: actions typed in the body; applying one answers the ticket.
    const macro = ok(await api.POST('/v1/macros', { body: { name: 'Urgent', actions: [{ field: 'priority', value: 'urgent' }, { field: 'add_tags', value: ['escalated'] }] } }));
    const macroPath = { macro_id: macro.id };
    expect(ok(await api.PATCH('/v1/macros/{macro_id}', { params: { path: macroPath }, body: { description: 'Escalate' } })).description).toBe('Escalate');
    expect(ok(await api.GET('/v1/macros/{macro_id}', { params: { path: macroPath } })).actions).toHaveLength(2);
    expect(ok(await api.GET('/v1/macros')).map((m) => m.id)).toEqual([macro.id]);
    const escalated = ok(await api.POST('/v1/tickets/{ticket_id}/macros/{macro_id}', { params: { path: { ...path, ...macroPath } } }));
    expect([escalated.priority, escalated.tags.includes('escalated')]).toEqual(['urgent', true]);
    expect((await api.DELETE('/v1/macros/{macro_id}', { params: { path: macroPath } })).response.status).toBe(204);
    // Bulk: a job (no worker runs here, so it stays queued) and its per-ticket results.
    const { job_id } = ok(await api.POST('/v1/tickets/bulk', { body: { ids: [ticket.id], actions: [{ field: 'category', value: 'bulk' }] } }));
    const job = ok(await api.GET('/v1/jobs/{job_id}', { params: { path: { job_id } } }));
    expect([job.status, job.total, job.results]).toEqual(['queued', 1, [{ ticket_id: ticket.id, status: 'pending' }]]);
    // The organization's jobs, newest first, without their per-ticket results.
    expect(ok(await api.GET('/v1/jobs', { params: { query: { limit: 10 } } })).map((j) => [j.id, j.status, j.done])).toEqual([[job_id, 'queued', 0]]);

    // Triggers and automations: the action list with notify, typed; the hours_since_* conditions.
    const trigger = ok(await api.POST('/v1/triggers', { body: { name: 'Urgent', on: ['ticket.created'], conditions: { all: [{ field: 'priority', operator: 'is', value: 'urgent' }] }, actions: [{ field: 'add_tags', value: ['hot'] }] } }));
    const triggerPath = { trigger_id: trigger.id };
    expect(ok(await api.PATCH('/v1/triggers/{trigger_id}', { params: { path: triggerPath }, body: { active: false } })).active).toBe(false);
    expect(ok(await api.GET('/v1/triggers')).map((r) => r.id)).toEqual([trigger.id]);
    expect(ok(await api.GET('/v1/triggers/{trigger_id}', { params: { path: triggerPath } })).on).toEqual(['ticket.created']);
    expect((await api.DELETE('/v1/triggers/{trigger_id}', { params: { path: triggerPath } })).response.status).toBe(204);
    const automation = ok(await api.POST('/v1/automations', { body: { name: 'Stale', conditions: { all: [{ field: 'hours_since_updated', operator: 'at_least', value: 48 }] }, actions: [{ field: 'add_tags', value: ['stale'] }] } }));
    const automationPath = { automation_id: automation.id };
    expect(ok(await api.GET('/v1/automations/{automation_id}', { params: { path: automationPath } })).conditions.all[0]?.value).toBe(48);
    expect(ok(await api.PATCH('/v1/automations/{automation_id}', { params: { path: automationPath }, body: { name: 'Stale for 2 days' } })).name).toBe('Stale for 2 days');
    expect(ok(await api.GET('/v1/automations')).map((r) => r.id)).toEqual([automation.id]);
    expect((await api.DELETE('/v1/automations/{automation_id}', { params: { path: { automation_id: automation.id } } })).response.status).toBe(204);

    // Business hours: weekly intervals and holidays typed in the body.
    const hours = ok(await api.POST('/v1/business-hours', { body: { name: 'Office', time_zone: 'Europe/Berlin', weekly: [{ day: 'mon', start: '09:00', end: '17:00' }] } }));
    const hoursPath = { business_hours_id: hours.id };
    const holidays: Array<{ date: string; name?: string }> = ok(
      await api.PATCH('/v1/business-hours/{business_hours_id}', { params: { path: hoursPath }, body: { holidays: [{ date: '2026-12-25', name: 'Christmas' }] } }),
    ).holidays;
    expect(holidays).toEqual([{ date: '2026-12-25', name: 'Christmas' }]);
    expect(ok(await api.GET('/v1/business-hours/{business_hours_id}', { params: { path: hoursPath } })).weekly).toEqual([{ day: 'mon', start: '09:00', end: '17:00' }]);
    expect(ok(await api.GET('/v1/business-hours')).map((h) => h.id)).toEqual([hours.id]);
    expect((await api.DELETE('/v1/business-hours/{business_hours_id}', { params: { path: hoursPath } })).response.status).toBe(204);
    // SLA policies: targets per priority; tickets then carry their sla block.
    const slaPolicy = ok(
      await api.POST('/v1/sla-policies', { body: { name: 'Urgent', conditions: { all: [{ field: 'priority', operator: 'is', value: 'urgent' }] }, targets: [{ priority: 'urgent', resolution_minutes: 60 }] } }),
    );
    const slaPath = { sla_policy_id: slaPolicy.id };
    expect(ok(await api.PATCH('/v1/sla-policies/{sla_policy_id}', { params: { path: slaPath }, body: { position: 3 } })).position).toBe(3);
    expect(ok(await api.GET('/v1/sla-policies/{sla_policy_id}', { params: { path: slaPath } })).targets[0]?.warning_minutes).toBe(0);
    expect(ok(await api.GET('/v1/sla-policies')).map((p) => p.id)).toEqual([slaPolicy.id]);
    // The ticket made before the policy has no clocks (a typed, nullable block).
    const slaBlock: { policy_id: string; resolution_due_at: string | null } | null = ticket.sla;
    expect(slaBlock).toBeNull();
    expect((await api.DELETE('/v1/sla-policies/{sla_policy_id}', { params: { path: slaPath } })).response.status).toBe(204);
    const token = ok(await api.POST('/v1/tickets/{ticket_id}/tracking-token', { params: { path } })).tracking_token;
    // Null only for keys without tickets:write, and in replays: this key holds it, and it is no replay.
    if (token === null) throw new Error('the rotation answered without the token');
    expect(ok(await api.GET('/v1/tickets/{ticket_id}/events', { params: { path } })).length).toBeGreaterThan(0);
    expect((await api.PUT('/v1/tickets/{ticket_id}/presence', { params: { path }, body: { state: 'viewing' } })).response.status).toBe(204);
    // The live stream never ends by itself: read its first bytes, then let go.
    const live = await api.GET('/v1/stream', { parseAs: 'stream' });
    expect(live.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = (live.response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain(': connected');
    await reader.cancel();

    // Comments.
    const comment = ok(await api.POST('/v1/tickets/{ticket_id}/comments', { params: { path }, body: { body: 'Looking into it' } }));
    const commentPath = { ticket_id: ticket.id, comment_id: comment.id };
    expect(ok(await api.GET('/v1/tickets/{ticket_id}/comments', { params: { path } })).map((c) => c.id)).toEqual([comment.id]);
    expect(ok(await api.GET('/v1/tickets/{ticket_id}/comments/{comment_id}', { params: { path: commentPath } })).body).toBe('Looking into it');
    ok(await api.PATCH('/v1/tickets/{ticket_id}/comments/{comment_id}', { params: { path: commentPath }, body: { body: 'A fix is coming' } }));

    // Attachments: a multipart upload of a File, its signed download, and the bytes back.
    const bytes = new TextEncoder().encode('Invoice 42: 100.00 EUR\n');
    const attachment = ok(
      await api.POST('/v1/tickets/{ticket_id}/attachments', {
        params: { path },
        body: { file: new File([bytes], 'invoice.txt', { type: 'text/plain' }) },
        bodySerializer: multipart,
      }),
    );
    expect(attachment).toMatchObject({ filename: 'invoice.txt', content_type: 'text/plain', size_bytes: bytes.length });
    const attachmentPath = { ticket_id: ticket.id, attachment_id: attachment.id };
    expect(ok(await api.GET('/v1/tickets/{ticket_id}/attachments', { params: { path } })).map((a) => a.id)).toEqual([attachment.id]);
    expect(ok(await api.GET('/v1/tickets/{ticket_id}/attachments/{attachment_id}', { params: { path: attachmentPath } })).filename).toBe('invoice.txt');
    const link = ok(await api.GET('/v1/tickets/{ticket_id}/attachments/{attachment_id}/download', { params: { path: attachmentPath } }));
    const signed = new URL(link.signed_url);
    const download = await api.GET('/storage/{attachment_id}', {
      params: {
        path: { attachment_id: attachment.id },
        query: { expires: signed.searchParams.get('expires') ?? '', signature: signed.searchParams.get('signature') ?? '' },
      },
      parseAs: 'text',
    });
    expect(download.response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(ok(download)).toBe('Invoice 42: 100.00 EUR\n');

    // The customer portal: JSON and pages, with the tracking token and no key.
    const portal = tracked(createClient({ baseUrl: base }));
    const tokenPath = { tracking_token: token };
    expect(ok(await portal.GET('/v1/portal/tickets/{tracking_token}', { params: { path: tokenPath } })).subject).toBe('Invoice');
    ok(await portal.POST('/v1/portal/tickets/{tracking_token}/comments', { params: { path: tokenPath }, body: { body: 'Thanks!' } }));
    expect(ok(await portal.GET('/v1/portal/tickets/{tracking_token}/comments', { params: { path: tokenPath } })).map((c) => c.body)).toEqual([
      'A fix is coming',
      'Thanks!',
    ]);
    const portalLink = ok(
      await portal.GET('/v1/portal/tickets/{tracking_token}/attachments/{attachment_id}/download', {
        params: { path: { tracking_token: token, attachment_id: attachment.id } },
      }),
    );
    expect(portalLink.signed_url).toContain('/storage/');
    const page = await portal.GET('/portal/{tracking_token}', { params: { path: tokenPath }, parseAs: 'text' });
    expect(ok(page)).toContain('Invoice');
    const reply = await portal.POST('/portal/{tracking_token}/reply', {
      params: { path: tokenPath },
      body: { body: 'Any news?' },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(reply.response.status).toBe(303);
    const redirect = await portal.GET('/portal/{tracking_token}/attachments/{attachment_id}', {
      params: { path: { tracking_token: token, attachment_id: attachment.id } },
      redirect: 'manual',
    });
    expect(redirect.response.status).toBe(303);
    expect(redirect.response.headers.get('location')).toContain('/storage/');

    // Events, the webhook and its deliveries.
    const feed = ok(await api.GET('/v1/events', { params: { query: { types: 'ticket.created' } } }));
    expect(feed.events.map((e) => e.resource_id)).toContain(ticket.id);
    const webhookPath = { webhook_id: webhook.id };
    expect(ok(await api.GET('/v1/webhooks')).map((w) => w.id)).toEqual([webhook.id]);
    expect(ok(await api.GET('/v1/webhooks/{webhook_id}', { params: { path: webhookPath } })).status).toBe('active');
    const deliveries = await eventually(async () => {
      const list = ok(await api.GET('/v1/webhooks/{webhook_id}/deliveries', { params: { path: webhookPath } }));
      return list[0]?.status === 'succeeded' && list;
    }, 15_000, 'the delivery of ticket.created');
    expect(receiver.received.length).toBe(1);
    expect(ok(await api.PATCH('/v1/webhooks/{webhook_id}', { params: { path: webhookPath }, body: { status: 'paused' } })).status).toBe('paused');
    const retried = ok(
      await api.POST('/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', { params: { path: { webhook_id: webhook.id, delivery_id: deliveries[0]!.id } } }),
    );
    expect(retried.status).toBe('pending');
    const tested = ok(await api.POST('/v1/webhooks/{webhook_id}/test', { params: { path: webhookPath } }));
    expect(tested).toMatchObject({ event_type: 'webhook.test', status: 'succeeded', response_status: 200 });

    // Dashboard and API keys.
    expect(ok(await api.GET('/v1/dashboard')).tickets.total).toBe(1);
    const key = ok(await api.POST('/v1/api-keys', { body: { name: 'Reporting', role: 'readonly' } }));
    const keyPath = { key_id: key.id };
    expect(ok(await api.GET('/v1/api-keys')).map((k) => k.id)).toContain(key.id);
    expect(ok(await api.GET('/v1/api-keys/{key_id}', { params: { path: keyPath } })).name).toBe('Reporting');
    ok(await api.PATCH('/v1/api-keys/{key_id}', { params: { path: keyPath }, body: { name: 'Reporting (finance)' } }));
    // Null only in an Idempotency-Key replay.
    if (key.key === null) throw new Error('the create answered without the plain key');
    const readonly = tracked(createClient({ baseUrl: base, apiKey: key.key }));
    expect(ok(await readonly.GET('/v1/test')).key_prefix).toBe(key.key_prefix);
    expect((await api.DELETE('/v1/api-keys/{key_id}', { params: { path: keyPath } })).response.status).toBe(204);
    const refused = await readonly.GET('/v1/test');
    expect(refused.response.status).toBe(401);
    // The error body is typed too.
    expect(refused.error?.detail).toMatch(/^Invalid API key/);

    // Mailboxes.
    const mailbox = ok(
      await api.POST('/v1/mailboxes', {
        body: { address: 'help@acme.test', name: 'Acme Help', outbound: { host: 'smtp.acme.test', port: 465, security: 'tls', username: 'help', password: 'secret' } },
      }),
    );
    const mailboxPath = { mailbox_id: mailbox.id };
    expect(mailbox.is_default).toBe(true);
    expect(ok(await api.GET('/v1/mailboxes')).map((m) => m.address)).toEqual(['help@acme.test']);
    expect(ok(await api.GET('/v1/mailboxes/{mailbox_id}', { params: { path: mailboxPath } })).outbound?.host).toBe('smtp.acme.test');
    expect(ok(await api.PATCH('/v1/mailboxes/{mailbox_id}', { params: { path: mailboxPath }, body: { state: 'paused' } })).state).toBe('paused');
    const mail = 'From: Ada <ada@customer.example>\r\nTo: help@acme.test\r\nSubject: By mail\r\nMessage-ID: <sdk-1@customer.example>\r\n\r\nHello.\r\n';
    const intake = ok(
      await api.POST('/v1/mailboxes/{mailbox_id}/messages', {
        params: { path: mailboxPath },
        body: mail as never,
        bodySerializer: (body: unknown) => body as string,
        headers: { 'Content-Type': 'message/rfc822' },
      }),
    );
    expect(intake.outcome).toBe('created');
    const mailed = { ticket_id: intake.ticket_id! };
    const original = await api.GET('/v1/tickets/{ticket_id}/raw', { params: { path: mailed }, parseAs: 'text' });
    expect(original.data).toBe(mail);
    const mailReply = ok(
      await api.POST('/v1/mailboxes/{mailbox_id}/messages', {
        params: { path: mailboxPath },
        body: mail.replace('<sdk-1@', '<sdk-2@').replace('Subject: By mail', 'In-Reply-To: <sdk-1@customer.example>\r\nSubject: Re: By mail') as never,
        bodySerializer: (body: unknown) => body as string,
        headers: { 'Content-Type': 'message/rfc822' },
      }),
    );
    expect(mailReply.outcome).toBe('appended');
    const replyRaw = await api.GET('/v1/tickets/{ticket_id}/comments/{comment_id}/raw', { params: { path: { ...mailed, comment_id: mailReply.comment_id! } }, parseAs: 'text' });
    expect(replyRaw.data).toContain('sdk-2@customer.example');


    // Everything deleted in the end.
    for (const done of [
      await api.DELETE('/v1/webhooks/{webhook_id}', { params: { path: webhookPath } }),
      await api.DELETE('/v1/mailboxes/{mailbox_id}', { params: { path: mailboxPath } }),
      await api.DELETE('/v1/tickets/{ticket_id}/attachments/{attachment_id}', { params: { path: attachmentPath } }),
      await api.DELETE('/v1/tickets/{ticket_id}/comments/{comment_id}', { params: { path: commentPath } }),
      await api.DELETE('/v1/tickets/{ticket_id}', { params: { path } }),
      await api.DELETE('/v1/teams/{team_id}', { params: { path: { team_id: team.id } } }),
      await api.DELETE('/v1/users/{user_id}', { params: { path: { user_id: grace.id } } }),
      await api.DELETE('/v1/customers/{customer_id}', { params: { path: { customer_id: customer.id } } }),
    ]) {
      expect(done.response.status, done.response.url).toBe(204);
    }
  });

  it('signs an agent in, reads the session and signs out', async () => {
    const email = `signin-${Date.now()}@example.com`;
    const password = 'correct horse battery staple';
    ok(await api.POST('/v1/users', { body: { email, full_name: 'Ada', password } }));
    // A browser keeps the cookie itself; here the client is given it, as a browser would send it.
    const anonymous = tracked(createClient({ baseUrl: base }));
    const signedIn = await anonymous.POST('/v1/sessions', { body: { email, password } });
    const session = ok(signedIn);
    const cookie = (signedIn.response.headers.get('set-cookie') ?? '').split(';')[0]!;
    const headers = { cookie, 'x-csrf-token': session.csrf_token };
    expect(ok(await anonymous.GET('/v1/sessions/current', { headers })).user.email).toBe(email);
    expect((await anonymous.DELETE('/v1/sessions/current', { headers })).response.status).toBe(204);
    expect((await anonymous.GET('/v1/sessions/current', { headers })).response.status).toBe(401);
  });

  it('called every operation of openapi.json', () => {
    const document = committedDocument<{ paths: Record<string, Record<string, unknown>> }>();
    const all = Object.entries(document.paths).flatMap(([p, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`));
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((operation) => !called.has(operation))).toEqual([]);
  });
});

describe('sdk/schema.d.ts', () => {
  it('is what `npm run sdk` generates from the committed openapi.json', async () => {
    const run = promisify(execFile);
    const { stderr } = await run(process.execPath, ['scripts/generate-sdk.js', '--check'], { cwd: root });
    expect(stderr).toContain('up to date');
  }, 60_000);
});
