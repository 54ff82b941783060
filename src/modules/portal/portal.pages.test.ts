import { createHash, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload } from '../../../test/helpers/attachments.js';
import {
  agent,
  agentComment,
  agentComments,
  attachmentNamed,
  formReply,
  getTicket,
  portalTicket,
  setStatus,
} from '../../../test/helpers/portal.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { escapeHtml } from './portal.html.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const page = (token: string, remoteAddress?: string) =>
  t.app.inject({ method: 'GET', url: `/portal/${token}`, ...(remoteAddress ? { remoteAddress } : {}) });

const XSS = `"><script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">'&`;

/** The headers every portal page carries, whatever its status. */
function expectPageHeaders(res: LightMyRequestResponse): void {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  const csp = String(res.headers['content-security-policy']);
  const directives = csp.split(';').map((d) => d.trim());
  expect(directives).toContain("default-src 'none'");
  expect(directives).toContain("form-action 'self'");
  expect(directives).toContain("frame-ancestors 'none'");
  expect(directives).toContain("base-uri 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('script-src');
  // The one inline style sheet is allowed by its exact hash.
  const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1];
  expect(style).toBeDefined();
  const hash = createHash('sha256').update(style!, 'utf8').digest('base64');
  expect(directives).toContain(`style-src 'sha256-${hash}'`);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['cache-control']).toBe('no-store');
}

describe('GET /portal/{tracking_token}', () => {
  it('renders the ticket, its public thread and files as an accessible page', async () => {
    const ticket = await portalTicket(t, { subject: 'Printer on fire', description: 'Smoke\neverywhere' });
    const grace = await agent(t, 'Grace Hopper');
    await agentComment(t, ticket.id, { body: 'We are on it', author_user_id: grace.id });
    await agentComment(t, ticket.id, { body: 'SECRET internal note', is_internal: true, author_user_id: grace.id });
    const file = await upload(t, ticket.id, 'report.txt', 'text/plain', 'hello, world');
    const fileId = file.json<{ id: string }>().id;

    const res = await page(ticket.tracking_token);
    expect(res.statusCode).toBe(200);
    expectPageHeaders(res);
    const html = res.body;
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain(`<title>TKT-${ticket.ticket_number}: Printer on fire – Support ticket</title>`);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain('<main>');
    expect(html).toContain('<div class="text">Smoke\neverywhere</div>');
    expect(html).toContain('<strong>Grace Hopper</strong> (support)');
    expect(html).toContain('We are on it');
    expect(html).not.toContain('SECRET');
    expect(html).not.toContain(grace.email);
    expect(html).toContain(`<a href="/portal/${ticket.tracking_token}/attachments/${fileId}">report.txt</a>`);
    expect(html).toContain('(text/plain, 12 bytes)');
    // A form that works without JavaScript, its field labelled and described.
    expect(html).toContain(`<form method="post" action="/portal/${ticket.tracking_token}/reply" enctype="multipart/form-data">`);
    expect(html).toContain('<label for="reply-body">Your message</label>');
    expect(html).toMatch(/<textarea id="reply-body" name="body"[^>]* required aria-describedby="reply-hint">/);
    expect(html).not.toContain('<script');
  });

  it('escapes every customer-supplied string: subject, description, comments, file and agent names', async () => {
    const ticket = await portalTicket(t, { subject: `Subject ${XSS}`, description: `Description ${XSS}` });
    const mallory = await agent(t, `Agent ${XSS}`);
    await agentComment(t, ticket.id, { body: `Agent comment ${XSS}`, author_user_id: mallory.id });
    const reply = await formReply(t, ticket.tracking_token, { body: `Customer reply ${XSS}` });
    expect(reply.statusCode).toBe(303);
    await attachmentNamed(t, ticket.id, `${XSS}.txt`);
    await attachmentNamed(t, ticket.id, '<script>window.__pwned=2</script>');

    const html = (await page(ticket.tracking_token)).body;
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror="');
    const escaped = escapeHtml(XSS);
    expect(escaped).toBe('&quot;&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;&#39;&amp;');
    for (const text of ['Subject', 'Description', 'Agent comment', 'Customer reply', 'Agent']) {
      expect(html).toContain(`${text} ${escaped}`);
    }
    expect(html).toContain(`>${escaped}.txt</a>`);
    expect(html).toContain('>&lt;script&gt;window.__pwned=2&lt;/script&gt;</a>');
    expect(html).toContain(`<title>TKT-${ticket.ticket_number}: Subject ${escaped} – Support ticket</title>`);
  });

  it('shows one 404 page for unknown and malformed tokens, revealing nothing', async () => {
    const unknown = await page(randomUUID());
    expect(unknown.statusCode).toBe(404);
    expectPageHeaders(unknown);
    expect(unknown.body).toContain('<h1>Ticket not found</h1>');
    for (const token of ['nope', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', randomUUID().slice(0, 30), randomUUID(), 'a%00b']) {
      const res = await page(token);
      expect(res.statusCode, token).toBe(404);
      expect(res.body, token).toBe(unknown.body);
    }
    const reply = await formReply(t, randomUUID(), { body: 'hello' });
    expect(reply.statusCode).toBe(404);
    expect(reply.body).toBe(unknown.body);
    const file = await t.app.inject({ method: 'GET', url: `/portal/nope/attachments/${randomUUID()}` });
    expect(file.statusCode).toBe(404);
    expect(file.body).toBe(unknown.body);
  });

  it('answers an address the router cannot read with a page too: bad percent-encoding (400), a token over 100 characters (414)', async () => {
    for (const [url, status] of [
      ['/portal/%E0%A4%A', 400],
      [`/portal/${'t'.repeat(101)}`, 414],
      [`/portal/${'t'.repeat(101)}/attachments/${randomUUID()}`, 414],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(status);
      expectPageHeaders(res);
      expect(res.body).not.toContain('tttt');
    }
  });

  it('builds links under the path of PUBLIC_URL', async () => {
    const prefixed = await buildTestApp({ PUBLIC_URL: 'https://help.example.com/support' });
    try {
      const ticket = await portalTicket(prefixed);
      const html = (await prefixed.app.inject({ method: 'GET', url: `/portal/${ticket.tracking_token}` })).body;
      expect(html).toContain(`action="/support/portal/${ticket.tracking_token}/reply"`);
      const redirect = await prefixed.app.inject({
        method: 'POST',
        url: `/portal/${ticket.tracking_token}/reply`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'body=hi',
      });
      expect(redirect.headers.location).toMatch(new RegExp(`^/support/portal/${ticket.tracking_token}\\?sent=1#comment-`));
    } finally {
      await prefixed.close();
    }
  });
});

describe('POST /portal/{tracking_token}/reply', () => {
  it('stores the reply and redirects back to the page (POST-redirect-GET)', async () => {
    const ticket = await portalTicket(t);
    await setStatus(t, ticket.id, 'pending');
    const res = await formReply(t, ticket.tracking_token, { body: 'Still broken & <b>bold</b>\r\nsecond line' });
    expect(res.statusCode).toBe(303);
    const comments = await agentComments(t, ticket.id);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ body: 'Still broken & <b>bold</b>\r\nsecond line', author_customer_id: ticket.customer_id });
    expect(res.headers.location).toBe(`/portal/${ticket.tracking_token}?sent=1#comment-${comments[0]!.id}`);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect((await getTicket(t, ticket.id)).status).toBe('open');
    const html = (await page(ticket.tracking_token)).body;
    expect(html).toContain(`<li id="comment-${comments[0]!.id}" class="customer">`);
    expect(html).toContain('<strong>You</strong>');
    expect(html).toContain('Still broken &amp; &lt;b&gt;bold&lt;/b&gt;');
    // Only the address the reply redirects to confirms it.
    expect(html).not.toContain('id="reply-sent"');
    const confirmed = (await t.app.inject({ method: 'GET', url: `/portal/${ticket.tracking_token}?sent=1` })).body;
    expect(confirmed).toContain('<p class="notice" id="reply-sent" role="status">Your reply was sent.');
  });

  it('moves "Last updated" with the conversation: a new comment moves it, though the ticket itself is unchanged', async () => {
    const ticket = await portalTicket(t);
    const lastUpdated = async () => /<dt>Last updated<\/dt><dd><time datetime="([^"]+)"/.exec((await page(ticket.tracking_token)).body)![1]!;
    const before = await lastUpdated();
    expect(before).toBe((await getTicket(t, ticket.id)).updated_at);
    await new Promise((r) => setTimeout(r, 5));
    const res = await t.request({ method: 'POST', url: `/v1/tickets/${ticket.id}/comments`, body: { body: 'We are on it' } });
    expect(res.statusCode).toBe(201);
    expect((await getTicket(t, ticket.id)).updated_at).toBe(before);
    expect(await lastUpdated()).toBe(res.json<{ created_at: string }>().created_at);
    // An internal note is not part of the customer's conversation.
    await new Promise((r) => setTimeout(r, 5));
    await t.request({ method: 'POST', url: `/v1/tickets/${ticket.id}/comments`, body: { body: 'note', is_internal: true } });
    expect(await lastUpdated()).toBe(res.json<{ created_at: string }>().created_at);
  });

  it('shows the page again with the reason for an empty or too long reply, keeping the text', async () => {
    const ticket = await portalTicket(t);
    for (const [body, reason] of [
      ['', 'Please write a message before sending.'],
      ['   \r\n ', 'Please write a message before sending.'],
      [`<i>x</i>${'y'.repeat(10_000)}`, 'Your message is too long: please keep it under 10,000 characters.'],
    ] as const) {
      const res = await formReply(t, ticket.tracking_token, { body });
      expect(res.statusCode).toBe(422);
      expectPageHeaders(res);
      expect(res.body).toContain(`<p class="error" id="reply-error" role="alert">${reason}</p>`);
      expect(res.body).toContain('aria-describedby="reply-hint reply-error" aria-invalid="true">');
      expect(res.body).toContain(`${escapeHtml(body)}</textarea>`);
    }
    const none = await t.app.inject({ method: 'POST', url: `/portal/${ticket.tracking_token}/reply` });
    expect(none.statusCode).toBe(422);
    expectPageHeaders(none);
    expect(await agentComments(t, ticket.id)).toEqual([]);
  });

  it('refuses a reply to a closed ticket with 409, and the page offers no form', async () => {
    const ticket = await portalTicket(t);
    await setStatus(t, ticket.id, 'closed');
    const res = await formReply(t, ticket.tracking_token, { body: 'Hello?' });
    expect(res.statusCode).toBe(409);
    expectPageHeaders(res);
    expect(res.body).toContain('This ticket is closed, so your reply was not sent.');
    expect(res.body).not.toContain('<form');
    expect((await page(ticket.tracking_token)).body).toContain('This ticket is closed and no longer takes replies');
    expect(await agentComments(t, ticket.id)).toEqual([]);
  });

  it('takes only multipart and urlencoded forms (415 as a page otherwise)', async () => {
    const ticket = await portalTicket(t);
    for (const [type, payload] of [
      ['application/json', '{"body":"hi"}'],
      ['text/plain', 'body=hi'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/portal/${ticket.tracking_token}/reply`,
        headers: { 'content-type': type! },
        payload,
      });
      expect(res.statusCode, type).toBe(415);
      expectPageHeaders(res);
    }
    expect(await agentComments(t, ticket.id)).toEqual([]);
  });

  it('checks the token before it reads the form: an unknown token is the 404 page whatever was sent', async () => {
    for (const payload of [`body=${'x'.repeat(1_100_000)}`, 'body=%ZZ%']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/portal/${randomUUID()}/reply`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
      expect(res.statusCode).toBe(404);
      expectPageHeaders(res);
    }
  });

  it('answers a form over 1 MiB with 413 and a body shorter than announced with 400, as pages', async () => {
    const ticket = await portalTicket(t);
    const huge = await formReply(t, ticket.tracking_token, { body: 'x'.repeat(1_100_000) });
    expect(huge.statusCode).toBe(413);
    expectPageHeaders(huge);
    expect(huge.body).toContain('<h1>Message too large</h1>');
    const short = await t.app.inject({
      method: 'POST',
      url: `/portal/${ticket.tracking_token}/reply`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '50' },
      payload: 'body=hi',
    });
    expect(short.statusCode).toBe(400);
    expectPageHeaders(short);
    expect(await agentComments(t, ticket.id)).toEqual([]);
  });
});

describe('GET /portal/{tracking_token}/attachments/{attachment_id}', () => {
  it("redirects to a signed address of the ticket's file, and no other", async () => {
    const ticket = await portalTicket(t);
    const file = await upload(t, ticket.id, 'notes.txt', 'text/plain', 'hello, world');
    const id = file.json<{ id: string }>().id;
    const res = await t.app.inject({ method: 'GET', url: `/portal/${ticket.tracking_token}/attachments/${id}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const location = String(res.headers.location);
    expect(location).toMatch(new RegExp(`^http://localhost:8080/storage/${id}\\?expires=\\d+&signature=`));
    const fetched = await t.app.inject({ method: 'GET', url: location.replace('http://localhost:8080', '') });
    expect(fetched.body).toBe('hello, world');
    expect(fetched.headers['content-disposition']).toMatch(/^attachment/);

    const other = await portalTicket(t);
    const otherFile = await attachmentNamed(t, other.id, 'other.txt');
    const cross = await t.app.inject({ method: 'GET', url: `/portal/${ticket.tracking_token}/attachments/${otherFile}` });
    expect(cross.statusCode).toBe(404);
    expectPageHeaders(cross);
  });
});
