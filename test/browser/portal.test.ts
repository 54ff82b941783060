import { describe, expect, it } from 'vitest';
import { upload } from '../helpers/attachments.js';
import { browserAvailable, CHROMIUM_PATH, useBrowserSuite, watchPage } from '../helpers/browser.js';
import { buildTestApp } from '../helpers/test-app.js';
import { agent, agentComment, agentComments, attachmentNamed, getTicket, portalTicket, setStatus } from '../helpers/portal.js';

const available = browserAvailable();
if (!available) console.warn(`Skipping the portal browser tests: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);

describe.skipIf(!available)('the customer portal in a real browser', () => {
  const suite = useBrowserSuite(buildTestApp);

  it("shows the ticket's public thread, without internal notes, and no CSP violation", async () => {
    const { t, browser, base } = suite;
    const ticket = await portalTicket(t, { subject: 'Invoice shows the wrong total' });
    const grace = await agent(t, 'Grace Hopper');
    await agentComment(t, ticket.id, { body: 'Could you send the invoice number?', author_user_id: grace.id });
    await agentComment(t, ticket.id, { body: 'Internal: customer is on the old plan', is_internal: true, author_user_id: grace.id });

    const page = await browser.newPage();
    const { problems } = watchPage(page);
    try {
      const response = await page.goto(`${base}/portal/${ticket.tracking_token}`);
      expect(response?.status()).toBe(200);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('Invoice shows the wrong total');
      const thread = page.locator('ol.thread > li');
      expect(await thread.count()).toBe(1);
      expect(await thread.first().innerText()).toContain('Could you send the invoice number?');
      expect(await thread.first().innerText()).toContain('Grace Hopper');
      expect(await page.locator('body').innerText()).not.toContain('old plan');
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.getByLabel('Your message').count()).toBe(1);
      // The hashed style sheet applied: the comment text keeps its line breaks.
      expect(await page.evaluate("getComputedStyle(document.querySelector('ol.thread .text')).whiteSpace")).toBe('pre-wrap');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('sends a reply typed into the form, with JavaScript off; the agent API shows it', async () => {
    const { t, browser, base } = suite;
    const ticket = await portalTicket(t);
    await setStatus(t, ticket.id, 'pending');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/portal/${ticket.tracking_token}`);
      await page.getByLabel('Your message').fill('The invoice number is INV-2026-0042.');
      await Promise.all([page.waitForURL(/#comment-[0-9a-f-]{36}$/), page.getByRole('button', { name: 'Send reply' }).click()]);
      expect(page.url().startsWith(`${base}/portal/${ticket.tracking_token}?sent=1#comment-`)).toBe(true);
      expect(await page.locator('ol.thread > li.customer').innerText()).toContain('The invoice number is INV-2026-0042.');
      // A confirmation, and "Last updated" is the reply's time.
      expect(await page.getByRole('status').innerText()).toContain('Your reply was sent.');
      const reply = page.locator('ol.thread > li.customer time');
      expect(await page.locator('dd time').nth(1).getAttribute('datetime')).toBe(await reply.getAttribute('datetime'));

      const comments = await agentComments(t, ticket.id);
      expect(comments).toEqual([
        expect.objectContaining({
          body: 'The invoice number is INV-2026-0042.',
          is_internal: false,
          author_customer_id: ticket.customer_id,
          author_user_id: null,
        }),
      ]);
      expect((await getTicket(t, ticket.id)).status).toBe('open');
    } finally {
      await context.close();
    }
  });

  it('attaches a file through the form, with JavaScript off; the reply lists it with a link that opens it', async () => {
    const { t, browser, base } = suite;
    const ticket = await portalTicket(t);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${base}/portal/${ticket.tracking_token}`);
      await page.getByLabel('Your message').fill('The invoice is attached.');
      await page.getByLabel('Files (optional)').setInputFiles({ name: 'invoice-0042.txt', mimeType: 'text/plain', buffer: Buffer.from('INV-2026-0042: 120 EUR') });
      await Promise.all([page.waitForURL(/#comment-[0-9a-f-]{36}$/), page.getByRole('button', { name: 'Send reply' }).click()]);
      expect(await page.getByRole('status').innerText()).toContain('Your reply was sent.');
      const link = page.locator('ol.thread > li.customer').getByRole('link', { name: 'invoice-0042.txt', exact: true });
      expect(await link.count()).toBe(1);
      // The link redirects to a signed address under PUBLIC_URL; here the same server, at `base`.
      const redirect = await context.request.get(new URL((await link.getAttribute('href'))!, base).href, { maxRedirects: 0 });
      expect(redirect.status()).toBe(303);
      const signed = new URL(redirect.headers().location!);
      const opened = await context.request.get(`${base}${signed.pathname}${signed.search}`);
      expect(opened.status()).toBe(200);
      expect(await opened.text()).toBe('INV-2026-0042: 120 EUR');

      const [comment] = await agentComments(t, ticket.id);
      const files = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}/attachments`, key: t.org.adminKey });
      const [file] = files.json<{ id: string; filename: string }[]>();
      expect(file?.filename).toBe('invoice-0042.txt');
      const full = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}/comments/${comment!.id}`, key: t.org.adminKey });
      expect(full.json<{ attachment_ids: string[] }>().attachment_ids).toEqual([file!.id]);
    } finally {
      await context.close();
    }
  });

  it('never runs markup from file names, the subject or comments', async () => {
    const { t, browser, base } = suite;
    const payload = 'window.__pwned=1;alert(1)';
    const ticket = await portalTicket(t, { subject: `<script>${payload}</script>`, description: `<img src=x onerror="${payload}">` });
    await agentComment(t, ticket.id, { body: `<script>${payload}</script><svg onload="${payload}">` });
    // Uploaded names lose everything up to a slash, so the name with a closing tag goes in directly.
    const imgName = `<img src=x onerror=${payload}>.txt`;
    const uploaded = await upload(t, ticket.id, imgName, 'text/plain', 'hello');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json<{ filename: string }>().filename).toBe(imgName);
    const scriptName = `<script>${payload}</script>`;
    await attachmentNamed(t, ticket.id, scriptName);

    const page = await browser.newPage();
    const { dialogs } = watchPage(page);
    try {
      await page.goto(`${base}/portal/${ticket.tracking_token}`);
      await page.waitForLoadState('load');
      expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
      expect(dialogs).toEqual([]);
      // The names are shown as text, exactly as they were given.
      expect(await page.getByRole('link', { name: imgName, exact: true }).count()).toBe(1);
      expect(await page.getByRole('link', { name: scriptName, exact: true }).count()).toBe(1);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain(`<script>${payload}</script>`);
      expect(await page.locator('main img, main svg, script').count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
