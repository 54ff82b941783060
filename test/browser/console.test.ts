import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, CHROMIUM_PATH, useBrowserSuite, watchPage } from '../helpers/browser.js';
import { axeViolations, seedConsole, signIn, ticketNow, type ConsoleOrg } from '../helpers/console.js';
import { agentComments } from '../helpers/portal.js';
import { buildCli } from '../helpers/processes.js';
import { buildTestApp } from '../helpers/test-app.js';

const available = browserAvailable();
if (!available) console.warn(`Skipping the console browser tests: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);

// CONSOLE_SCREENSHOTS=1 writes the README's pictures (docs/images/) from the seeded organization.
const shots = process.env.CONSOLE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../docs/images/', import.meta.url)) : null;

/** Page problems that matter here: uncaught errors and CSP violations (an expected 401 or 404 is logged by Chromium as "Failed to load resource"). */
const realProblems = (problems: string[]) => problems.filter((p) => !/Failed to load resource/.test(p) && !/EventSource/.test(p));

/**
 * The agent console (web/, served at /app) in Debian's Chromium against the real service, once per
 * store. Builds the console first when dist/web is missing or stale (scripts/build-if-needed.js).
 */
const liveDelays: number[] = [];

describe.skipIf(!available)('the agent console in a real browser', () => {
  const suite = useBrowserSuite(buildTestApp);
  let org: ConsoleOrg;
  beforeAll(async () => {
    // A fresh clone has no dist/web: build what is missing or stale, as `npm start` does.
    buildCli();
    org = await seedConsole(suite.t);
  }, 200_000);

  async function withPage(run: (page: Page) => Promise<void>, viewport = { width: 1360, height: 860 }) {
    const context = await suite.browser.newContext({ viewport });
    const page = await context.newPage();
    const watched = watchPage(page);
    // Every API call the console makes succeeds, but for the refusals a test provokes.
    const failed: string[] = [];
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      const expected = response.status() === 412 || (response.status() === 401 && pathname.startsWith('/v1/sessions')) || pathname === '/v1/stream';
      if (response.status() >= 400 && !expected) failed.push(`${response.status()} ${response.request().method()} ${response.url()}`);
    });
    try {
      await run(page);
      expect(realProblems(watched.problems)).toEqual([]);
      expect(failed).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it('serves /app with a strict CSP, signs an agent in and shows the queue with its views and counts', async () => {
    const { base } = suite;
    const res = await fetch(`${base}/app/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    // React's production build, even when the build above ran under Vitest (NODE_ENV=test): the
    // development build's error messages link to react.dev.
    const html = await res.clone().text();
    for (const [, script] of html.matchAll(/src="(\/app\/assets\/[^"]+\.js)"/g)) expect(await (await fetch(`${base}${script}`)).text()).not.toContain('react.dev/link');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    await withPage(async (page) => {
      await page.goto(`${base}/app/`);
      // The page asks who is signed in first ("Loading…"), then shows the form.
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      await page.getByLabel('Email').fill(org.dana.email);
      await page.getByLabel('Password').fill('wrong password, long enough');
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect(await page.getByRole('alert').innerText()).toContain('do not match');
      await signIn(page, base, org.dana.email);
      const queues = page.getByRole('navigation', { name: 'Queues' });
      // The saved view, first, with its count (the urgent and the two high tickets).
      await queues.getByRole('link', { name: /Urgent and high/ }).waitFor();
      await expect.poll(() => queues.getByRole('link', { name: /Urgent and high/ }).innerText()).toContain('3');
      expect(await queues.getByRole('link', { name: /Unassigned/ }).count()).toBe(1);
      const rows = page.locator('ol.rows > li');
      await expect.poll(() => rows.count()).toBe(3);
      expect(await rows.first().innerText()).toContain('Invoice shows the wrong total');
      // A fixed queue: Mine (Dana's open tickets).
      await queues.getByRole('link', { name: /Mine/ }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Mine');
      await expect.poll(() => rows.count()).toBe(2);
      // Search.
      await page.keyboard.press('/');
      expect(await page.evaluate('document.activeElement.id')).toBe('search');
      await page.keyboard.type('refund');
      await page.keyboard.press('Enter');
      await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('Refund for a duplicate charge')]);
      await page.keyboard.press('Escape');
      await queues.getByRole('link', { name: /All open/ }).click();
      await expect.poll(() => rows.count()).toBe(6);
      // Sort.
      await page.getByLabel('Sort').selectOption('priority');
      expect(await rows.first().innerText()).toMatch(/urgent/i);
      await page.getByLabel('Sort').selectOption('oldest');
      expect(await rows.first().innerText()).toContain('Invoice shows the wrong total');
      if (shots) {
        mkdirSync(shots, { recursive: true });
        await page.getByLabel('Sort').selectOption('queue');
        await page.locator('ol.rows a').nth(1).focus();
        await page.screenshot({ path: `${shots}console-queue.png` });
      }
    });
  });

  it('is driven by the keyboard: j/k, Enter, Esc, ? and the focus is never lost', async () => {
    const { base } = suite;
    await withPage(async (page) => {
      await signIn(page, base, org.dana.email, '/app/queues/open');
      const rows = page.locator('ol.rows > li');
      await expect.poll(() => rows.count()).toBe(6);
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('k');
      const focusedText = () => page.evaluate<string>('document.activeElement.innerText');
      // The first row had the focus on arrival: three down, one up is the third.
      const second = await rows.nth(2).innerText();
      expect(await focusedText()).toBe(second);
      expect(await rows.nth(2).getAttribute('class')).toContain('selected');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/app\/tickets\//);
      const subject = second.split('\n').find((l) => l.length > 12 && !l.startsWith('T'))!;
      await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toContain(subject.trim());
      expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
      // ? lists every shortcut; Esc closes it and the focus comes back.
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await dialog.waitFor();
      for (const what of ['Next ticket', 'Write a public reply', 'Write an internal note', 'Assign the ticket to me', 'Set status: pending', 'Search tickets']) {
        expect(await dialog.innerText()).toContain(what);
      }
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
      // r puts the focus in the reply box; Esc leaves it; Esc again goes back to the queue, to the same row.
      await page.keyboard.press('r');
      expect(await page.evaluate('document.activeElement.id')).toBe('composer');
      await page.keyboard.press('Escape');
      expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
      await page.keyboard.press('Escape');
      await page.waitForURL(/\/app\/queues\/open$/);
      await expect.poll(() => focusedText()).toBe(second);
    });
  });

  it('sends a public reply and an internal note, told apart by colour and label', async () => {
    const { t, base } = suite;
    const ticket = org.tickets[1]!;
    await withPage(async (page) => {
      await signIn(page, base, org.dana.email, `/app/tickets/${ticket.id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(ticket.subject) }).waitFor();
      await page.keyboard.press('r');
      await page.keyboard.type('We have reset the link; please try again.');
      await page.keyboard.press('Control+Enter');
      const thread = page.locator('ol.thread > li');
      await expect.poll(() => thread.count()).toBe(2);
      expect(await page.evaluate('document.activeElement.id')).toBe('composer');
      expect(await page.getByLabel(/Public reply/).inputValue()).toBe('');
      await page.keyboard.press('Escape');
      await page.keyboard.press('n');
      expect(await page.getByLabel(/Internal note/).count()).toBe(1);
      await page.keyboard.type('Checked the logs: the mail bounced twice.');
      await page.getByRole('button', { name: 'Add note' }).click();
      await expect.poll(() => thread.count()).toBe(3);
      const reply = thread.nth(1);
      const note = thread.nth(2);
      expect(await reply.innerText()).toContain('PUBLIC REPLY');
      expect(await note.innerText()).toContain('INTERNAL NOTE');
      type Styled = { getComputedStyle(element: unknown): { backgroundColor: string } };
      const background = (el: typeof reply) => el.evaluate((e) => (globalThis as unknown as Styled).getComputedStyle(e).backgroundColor);
      expect(await background(reply)).not.toBe(await background(note));
      // The agent's own change while writing is no conflict.
      await page.getByLabel(/Internal note/).fill('Raised the priority: a second customer reports it.');
      const patched = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith(`/v1/tickets/${ticket.id}`));
      await page.getByLabel('Priority', { exact: true }).selectOption('urgent');
      expect((await patched).status()).toBe(200);
      await expect.poll(() => page.getByLabel('Priority', { exact: true }).inputValue()).toBe('urgent');
      await page.getByRole('button', { name: 'Add note' }).click();
      await expect.poll(() => thread.count()).toBe(4);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect((await agentComments(t, ticket.id)).map((c) => [c.body, c.is_internal])).toEqual([
        ['We have reset the link; please try again.', false],
        ['Checked the logs: the mail bounced twice.', true],
        ['Raised the priority: a second customer reports it.', true],
      ]);
    });
  });

  it('changes properties from the keyboard and the form', async () => {
    const { t, base } = suite;
    const ticket = org.tickets[5]!;
    await withPage(async (page) => {
      await signIn(page, base, org.dana.email, `/app/tickets/${ticket.id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(ticket.subject) }).waitFor();
      await page.keyboard.press('a');
      await expect.poll(async () => (await ticketNow(t, ticket.id)).assigned_user_id).toBe(org.dana.id);
      // The page has the answer (and the new ETag) before the next change is sent.
      await page.getByRole('button', { name: /^Take/ }).waitFor({ state: 'detached' });
      await page.keyboard.press('Shift+P');
      await expect.poll(async () => (await ticketNow(t, ticket.id)).status).toBe('pending');
      await expect.poll(() => page.getByLabel('Status', { exact: true }).inputValue()).toBe('pending');
      expect(await page.evaluate('document.activeElement.tagName')).toBe('H1');
      await page.getByLabel('Priority', { exact: true }).selectOption('urgent');
      await expect.poll(async () => (await ticketNow(t, ticket.id)).priority).toBe('urgent');
      await page.getByLabel('Tags (comma-separated)').fill('outage, webhooks');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await ticketNow(t, ticket.id)).tags).toEqual(['outage', 'webhooks']);
      // The customer's panel and the history.
      const side = page.getByRole('complementary', { name: 'Ticket details' });
      expect(await side.innerText()).toContain('Mary Somerville');
      await page.getByText(/^History/).click();
      await expect.poll(() => page.locator('.history li').count()).toBeGreaterThanOrEqual(3);
    });
  });

  it('attaches files by the file picker and by drag and drop, and previews images', async () => {
    const { t, base } = suite;
    const ticket = org.tickets[3]!;
    // A 2x2 red PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');
    await withPage(async (page) => {
      await signIn(page, base, org.dana.email, `/app/tickets/${ticket.id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(ticket.subject) }).waitFor();
      await page.getByLabel('choose files').setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: png });
      const preview = page.getByRole('img', { name: 'Preview of screenshot.png' });
      await preview.waitFor();
      await expect.poll(() => preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(2);
      const dropped = await page.evaluateHandle(`(() => {
        const data = new DataTransfer();
        data.items.add(new File(['Steps to reproduce: open the invoice.'], 'steps.txt', { type: 'text/plain' }));
        return data;
      })()`);
      await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: dropped });
      await page.getByRole('button', { name: 'steps.txt' }).waitFor();
      const res = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}/attachments` });
      expect(res.json<{ filename: string }[]>().map((a) => a.filename).sort()).toEqual(['screenshot.png', 'steps.txt']);
    });
  });

  it('sends the files picked or dropped while writing with the reply, and shows them on it', async () => {
    const { t, base } = suite;
    const ticket = org.tickets[3]!;
    await withPage(async (page) => {
      await signIn(page, base, org.dana.email, `/app/tickets/${ticket.id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(ticket.subject) }).waitFor();
      await page.keyboard.press('r');
      await page.keyboard.type('The corrected invoice and the log are attached.');
      await page.getByLabel('Attach files').setInputFiles({ name: 'invoice-corrected.txt', mimeType: 'text/plain', buffer: Buffer.from('Total: 120.00') });
      const dropped = await page.evaluateHandle(`(() => {
        const data = new DataTransfer();
        data.items.add(new File(['12:00 retry ok'], 'sync.log', { type: 'text/plain' }));
        return data;
      })()`);
      await page.locator('.composer form').dispatchEvent('drop', { dataTransfer: dropped });
      const chosen = page.getByRole('list', { name: 'Files sent with this message' });
      await expect.poll(() => chosen.locator('li').allInnerTexts()).toEqual([expect.stringContaining('invoice-corrected.txt'), expect.stringContaining('sync.log')]);
      await page.keyboard.press('Control+Enter');
      const thread = page.locator('ol.thread > li');
      await expect.poll(() => thread.count()).toBe(2);
      await expect.poll(() => thread.last().getByRole('list', { name: 'Attached files' }).innerText()).toMatch(/invoice-corrected\.txt[\s\S]*sync\.log/);
      expect(await chosen.count()).toBe(0);
      const files = (await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}/attachments` })).json<{ id: string; filename: string }[]>();
      const byName = new Map(files.map((f) => [f.filename, f.id]));
      const comments = await agentComments(t, ticket.id);
      expect(comments.map((c) => [c.body, c.is_internal, (c as unknown as { attachment_ids: string[] }).attachment_ids])).toEqual([
        ['The corrected invoice and the log are attached.', false, [byName.get('invoice-corrected.txt'), byName.get('sync.log')]],
      ]);
    });
  });

  it('signs out: the session ends, the queue is no longer reachable, and the sign-in form is back', async () => {
    const { base } = suite;
    await withPage(async (page) => {
      await signIn(page, base, org.ada.email, '/app/queues/open');
      await page.locator('ol.rows > li').first().waitFor();
      const ended = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().endsWith('/v1/sessions/current'));
      await page.getByRole('button', { name: 'Sign out' }).click();
      expect((await ended).status()).toBe(204);
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      expect(await page.locator('ol.rows').count()).toBe(0);
      // The API answers this browser no more.
      expect((await page.request.get(`${base}/v1/tickets`)).status()).toBe(401);
      await page.goto(`${base}/app/queues/open`);
      await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
      expect(await page.locator('ol.rows').count()).toBe(0);
    });
  });

  it('refuses a reply to a ticket changed since it was opened, and keeps the typed text', async () => {
    const { t, base } = suite;
    const ticket = org.tickets[4]!;
    await withPage(async (page) => {
      await signIn(page, base, org.dana.email, `/app/tickets/${ticket.id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(ticket.subject) }).waitFor();
      await page.keyboard.press('r');
      await page.keyboard.type('The refund is on its way.');
      // Another agent changes the ticket meanwhile.
      const res = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { priority: 'urgent' } });
      expect(res.statusCode).toBe(200);
      // The console asks no question first: it sends the reply with If-Match, and the service refuses it.
      const checks: string[] = [];
      page.on('request', (request) => {
        if (request.headers()['if-none-match']) checks.push(request.url());
      });
      const refused = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/v1/tickets/${ticket.id}/comments`));
      await page.getByRole('button', { name: 'Send reply' }).click();
      const answer = await refused;
      expect(answer.status()).toBe(412);
      expect(answer.request().headers()['if-match']).toMatch(/^(W\/)?"/);
      expect(checks).toEqual([]);
      await expect.poll(() => page.getByRole('alert').innerText()).toContain('This ticket changed since you opened it');
      expect(await page.getByLabel(/Public reply/).inputValue()).toBe('The refund is on its way.');
      expect(await agentComments(t, ticket.id)).toEqual([]);
      // A property change against the stale copy is refused too (If-Match: 412).
      await page.getByRole('button', { name: 'Dismiss' }).click();
      // Having seen the change, the agent sends again.
      await page.getByRole('button', { name: 'Send reply' }).click();
      await expect.poll(async () => (await agentComments(t, ticket.id)).map((c) => c.body)).toEqual(['The refund is on its way.']);
    });
  });

  it('refuses a property change against a stale copy (If-Match, 412) and says so', async () => {
    const { t, base } = suite;
    const ticket = org.tickets[2]!;
    await withPage(async (page) => {
      // No live stream for this agent (it would reload the ticket at once): the copy stays stale.
      await page.route('**/v1/stream', (route) => route.abort());
      await signIn(page, base, org.dana.email, `/app/tickets/${ticket.id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(ticket.subject) }).waitFor();
      expect((await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.id}`, body: { category: 'exports' } })).statusCode).toBe(200);
      await page.getByLabel('Priority', { exact: true }).selectOption('low');
      await expect.poll(() => page.getByRole('alert').innerText()).toContain('This ticket changed since you opened it');
      expect((await ticketNow(t, ticket.id)).priority).toBe('medium');
      // Reloaded: the other agent's change shows.
      await expect.poll(() => page.getByLabel('Category').inputValue()).toBe('exports');
    });
  });

  it("shows one agent's changes and presence to another without reloading (the live stream)", async () => {
    const { base } = suite;
    const ticket = org.tickets[0]!;
    const adaContext = await suite.browser.newContext({ viewport: { width: 1360, height: 860 } });
    const danaContext = await suite.browser.newContext({ viewport: { width: 1360, height: 860 } });
    try {
      const ada = await adaContext.newPage();
      const dana = await danaContext.newPage();
      await signIn(ada, base, org.ada.email, `/app/tickets/${ticket.id}`);
      await ada.getByText('Live', { exact: true }).waitFor();
      await signIn(dana, base, org.dana.email, `/app/tickets/${ticket.id}`);
      await dana.getByText('Live', { exact: true }).waitFor();
      const presence = ada.locator('.presence');
      await expect.poll(() => presence.innerText(), { timeout: 5000 }).toBe('Dana Scully is viewing');
      await dana.keyboard.press('r');
      await dana.keyboard.type('On it: a corrected invoice follows.');
      await expect.poll(() => presence.innerText(), { timeout: 5000 }).toBe('Dana Scully is replying');
      const thread = ada.locator('ol.thread > li');
      const before = await thread.count();
      const sent = Date.now();
      await dana.keyboard.press('Control+Enter');
      await expect.poll(() => thread.count(), { timeout: 5000 }).toBe(before + 1);
      liveDelays.push(Date.now() - sent);
      expect(await thread.last().innerText()).toContain('On it: a corrected invoice follows.');
      // A property change shows too.
      await dana.getByLabel('Priority', { exact: true }).selectOption('high');
      await expect.poll(() => ada.getByLabel('Priority', { exact: true }).inputValue(), { timeout: 5000 }).toBe('high');
      // And leaving the ticket takes the presence away.
      await dana.keyboard.press('Escape');
      await dana.keyboard.press('Escape');
      await expect.poll(() => presence.count(), { timeout: 5000 }).toBe(0);
      // A queue follows too: a ticket Dana takes leaves Ada's "Unassigned".
      await ada.goto(`${base}/app/queues/unassigned`);
      const rows = ada.locator('ol.rows > li');
      await expect.poll(() => rows.count()).toBeGreaterThan(0);
      const count = await rows.count();
      const first = await rows.first().locator('a').getAttribute('href');
      await dana.goto(`${base}${first}`);
      await dana.getByRole('heading', { level: 1 }).waitFor();
      await dana.locator('.ticket-title:focus').waitFor();
      await dana.keyboard.press('a');
      await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(count - 1);
    } finally {
      await adaContext.close();
      await danaContext.close();
    }
  });

  it('has no serious or critical accessibility violation on any page (axe-core)', async () => {
    const { base } = suite;
    await withPage(async (page) => {
      await page.goto(`${base}/app/`);
      await page.getByLabel('Email').waitFor();
      expect(await axeViolations(page), 'sign-in').toEqual([]);
      await signIn(page, base, org.dana.email);
      await page.locator('ol.rows > li').first().waitFor();
      expect(await axeViolations(page), 'queue').toEqual([]);
      await page.goto(`${base}/app/tickets/${org.tickets[0]!.id}`);
      await page.locator('ol.thread > li').nth(2).waitFor();
      await page.locator('.customer .cust-name').waitFor();
      if (shots) {
        await page.keyboard.press('r');
        await page.keyboard.type('Thanks Charles, the corrected invoice is attached.');
        await page.screenshot({ path: `${shots}console-ticket.png`, fullPage: false });
        await page.getByLabel(/Public reply/).fill('');
        await page.keyboard.press('Escape');
      }
      expect(await axeViolations(page), 'ticket').toEqual([]);
      await page.keyboard.press('?');
      await page.getByRole('dialog').waitFor();
      expect(await axeViolations(page), 'shortcuts dialog').toEqual([]);
      await page.keyboard.press('Escape');
      await page.goto(`${base}/app/customers/${org.customerId}`);
      await page.locator('.detail h2').waitFor();
      expect(await axeViolations(page), 'customers').toEqual([]);
      await page.goto(`${base}/app/dashboard`);
      await page.locator('.chart').first().waitFor();
      if (shots) await page.screenshot({ path: `${shots}console-dashboard.png` });
      expect(await axeViolations(page), 'dashboard').toEqual([]);
    });
  });
});
