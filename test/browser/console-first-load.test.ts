import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, useBrowserSuite } from '../helpers/browser.js';
import { PASSWORD, seedConsole, type ConsoleOrg } from '../helpers/console.js';
import { buildCli } from '../helpers/processes.js';
import { buildTestApp } from '../helpers/test-app.js';

/**
 * The order of the console's first load after signing in: the queue's first page is asked for
 * alongside the views list (where `/` opened last time), and the sidebar's counts and dashboard
 * figures only once that page has come, so a slow recount (seconds at a million tickets) never
 * stands between signing in and the first ticket.
 */
const available = browserAvailable();

/** When each API call of the page was sent and answered (as this process saw the browser's events), in order. */
function recordCalls(page: Page) {
  const calls: Array<{ path: string; sent: number; answered?: number }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/v1/') || url.pathname === '/v1/stream') return;
    const call: { path: string; sent: number; answered?: number } = { path: `${request.method()} ${url.pathname}${url.search}`, sent: Date.now() };
    calls.push(call);
    void request.response().then(() => (call.answered = Date.now()), () => undefined);
  });
  return calls;
}

describe.skipIf(!available)('the console\'s first load', () => {
  const suite = useBrowserSuite(buildTestApp);
  let org: ConsoleOrg;
  beforeAll(async () => {
    buildCli();
    org = await seedConsole(suite.t);
  }, 200_000);

  async function signInSlowViews(page: Page) {
    // The views list answers late: whatever waits for it shows in the order of the calls.
    await page.route((url) => url.pathname === '/v1/views', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    });
    await page.goto(`${suite.base}/app/`);
    await page.getByLabel('Email').fill(org.dana.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('ol.rows > li').first().waitFor();
  }

  it('asks for the queue alongside the views list, and for the counts and dashboard after the first page', async () => {
    const context = await suite.browser.newContext();
    try {
      const page = await context.newPage();
      const calls = recordCalls(page);
      await signInSlowViews(page);
      // The saved view is first: its tickets, after the views list said so.
      await expect.poll(() => calls.some((c) => c.path.startsWith(`GET /v1/views/${org.viewId}/tickets`) && c.answered), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => calls.some((c) => c.path === 'GET /v1/views/counts' && c.answered), { timeout: 15_000 }).toBe(true);
      const views = calls.find((c) => c.path.startsWith('GET /v1/views?'))!;
      // The first sign-in here knows no view yet: All open is asked for at once, not after the list.
      const firstQueue = calls.find((c) => c.path.startsWith('GET /v1/tickets?'))!;
      expect(firstQueue.path).toContain('status=new%2Copen%2Cpending');
      expect(firstQueue.sent).toBeLessThan(views.answered!);
      const firstAnswer = Math.min(...calls.filter((c) => /^GET \/v1\/(tickets\?|views\/[^/?]+\/tickets)/.test(c.path) && c.answered).map((c) => c.answered!));
      // ... and after the page of the queue the views list named (the saved view), not only the guess's.
      const viewAnswer = calls.find((c) => c.path.startsWith(`GET /v1/views/${org.viewId}/tickets`))!.answered!;
      for (const later of ['GET /v1/views/counts', 'GET /v1/dashboard']) {
        const call = calls.find((c) => c.path === later);
        expect(call, later).toBeDefined();
        expect(call!.sent, later).toBeGreaterThanOrEqual(Math.max(firstAnswer, viewAnswer));
      }

      // Signed out and in again: the queue `/` opened last time (the saved view) is asked for alongside the list.
      await page.getByRole('button', { name: 'Sign out' }).click();
      calls.length = 0;
      await page.getByLabel('Email').fill(org.dana.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('ol.rows > li').first().waitFor();
      await expect.poll(() => calls.some((c) => c.path.startsWith('GET /v1/views?') && c.answered), { timeout: 15_000 }).toBe(true);
      const again = calls.find((c) => c.path.startsWith('GET /v1/views?'))!;
      const viewPage = calls.find((c) => c.path.startsWith(`GET /v1/views/${org.viewId}/tickets`))!;
      expect(viewPage.sent).toBeLessThan(again.answered!);
      expect(calls.some((c) => c.path.startsWith('GET /v1/tickets?'))).toBe(false);
      expect(await page.locator('ol.rows > li').first().innerText()).toContain('Invoice shows the wrong total');
    } finally {
      await context.close();
    }
  });
});
