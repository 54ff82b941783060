import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, useBrowserSuite, watchPage } from '../helpers/browser.js';
import { PASSWORD, signIn } from '../helpers/console.js';
import { buildCli } from '../helpers/processes.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The console's long lists in Debian's Chromium against the real service, once per store: the queue
 * (50 tickets a page) and customers (100 a page) read page by page with the API's cursor, on
 * scrolling, on "Load more" and on `j`, and stay current under live changes with several pages
 * loaded. The component tests (web/src/paging.test.tsx) prove the same against a fake network.
 */
const available = browserAvailable();
const COUNT = 120;

async function post<T = { id: string }>(t: TestApp, url: string, body: unknown): Promise<T> {
  const res = await t.request({ method: 'POST', url, body });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
  return res.json<T>();
}

describe.skipIf(!available)('paging in the agent console (a real browser)', () => {
  const suite = useBrowserSuite(buildTestApp);
  const agent = 'pat@example.com';
  const tickets: { id: string; subject: string }[] = [];
  beforeAll(async () => {
    buildCli();
    await post(suite.t, '/v1/users', { email: agent, full_name: 'Pat Paging', password: PASSWORD, role: 'agent' });
    for (let i = 1; i <= COUNT; i++) {
      const n = String(i).padStart(3, '0');
      const customer = await post<{ name: string; email: string }>(suite.t, '/v1/customers', { name: `Customer ${n}`, email: `customer${n}@example.com` });
      tickets.push(await post(suite.t, '/v1/tickets', { subject: `Paged ticket ${n}`, description: 'One of many.', customer_name: customer.name, customer_email: customer.email }));
    }
  }, 200_000);

  async function withPage(run: (page: Page) => Promise<void>, options: { withoutIntersectionObserver?: boolean } = {}) {
    const context = await suite.browser.newContext({ viewport: { width: 1360, height: 860 } });
    // A browser without IntersectionObserver: only the button loads more (the button is otherwise
    // seldom pressed, as the list loads by itself once the button scrolls into view).
    if (options.withoutIntersectionObserver) await context.addInitScript('delete window.IntersectionObserver');
    const page = await context.newPage();
    const watched = watchPage(page);
    const failed: string[] = [];
    page.on('response', (response) => {
      const expected = (response.status() === 401 && new URL(response.url()).pathname.startsWith('/v1/sessions')) || new URL(response.url()).pathname === '/v1/stream';
      if (response.status() >= 400 && !expected) failed.push(`${response.status()} ${response.url()}`);
    });
    try {
      await run(page);
      expect(watched.problems.filter((p) => !/Failed to load resource|EventSource/.test(p))).toEqual([]);
      expect(failed).toEqual([]);
    } finally {
      await context.close();
    }
  }

  it(`the queue shows 50 of ${COUNT}, then 100 and ${COUNT} on scrolling to the end, then "End of list"; live changes keep every page`, async () => {
    const { base } = suite;
    await withPage(async (page) => {
      const cursors: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/v1/tickets') cursors.push(url.searchParams.get('cursor') ? 'cursor' : 'first');
      });
      await signIn(page, base, agent, '/app/queues/open');
      await page.getByText('Live', { exact: true }).waitFor();
      const rows = page.locator('ol.rows > li');
      const status = page.locator('.list-end [role="status"]');
      await expect.poll(() => rows.count()).toBe(50);
      // The fixed queue's count is known (the dashboard's open tickets).
      await expect.poll(() => status.innerText()).toBe(`Showing 50 of about ${COUNT}`);
      expect(await page.getByText('End of list').count()).toBe(0);

      // Scrolling to the end of the list loads the next page.
      await rows.last().scrollIntoViewIfNeeded();
      await expect.poll(() => rows.count()).toBe(100);
      await expect.poll(() => status.innerText()).toBe(`Showing 100 of about ${COUNT}`);

      // Again: the last page, and the end of the list.
      await rows.last().scrollIntoViewIfNeeded();
      await expect.poll(() => rows.count()).toBe(COUNT);
      await page.getByText('End of list').waitFor();
      expect(await status.innerText()).toBe(`Showing ${COUNT} tickets`);
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      const texts = await rows.allInnerTexts();
      expect(new Set(texts.map((t) => /Paged ticket \d+/.exec(t)?.[0])).size).toBe(COUNT);
      expect(cursors).toEqual(['first', 'cursor', 'cursor']);

      // A change to a ticket on the last page shows without reloading, and all three pages stay.
      const last = tickets[COUNT - 1]!;
      const res = await suite.t.request({ method: 'PATCH', url: `/v1/tickets/${last.id}`, body: { subject: 'Renamed on the last page' } });
      expect(res.statusCode).toBe(200);
      await expect.poll(() => page.locator('ol.rows').innerText(), { timeout: 10_000 }).toContain('Renamed on the last page');
      expect(await rows.count()).toBe(COUNT);
      await page.getByText('End of list').waitFor();
    });
  });

  it('j past the last loaded row loads the next page and moves on to it', async () => {
    const { base } = suite;
    // Without IntersectionObserver, so that only j can load the page.
    await withPage(
      async (page) => {
        await signIn(page, base, agent, '/app/queues/open');
        const rows = page.locator('ol.rows > li');
        await expect.poll(() => rows.count()).toBe(50);
        await rows.nth(48).locator('a').focus();
        await page.keyboard.press('j');
        expect(await rows.count()).toBe(50);
        await page.keyboard.press('j');
        await expect.poll(() => rows.count()).toBe(100);
        await expect.poll(() => page.evaluate<boolean>("document.activeElement.closest('li') === document.querySelectorAll('ol.rows > li')[50]")).toBe(true);
        expect(await rows.nth(50).getAttribute('class')).toContain('selected');
      },
      { withoutIntersectionObserver: true },
    );
  });

  it(`customers: 100, then ${COUNT} on "Load more" (from the keyboard) and "End of list"`, async () => {
    const { base } = suite;
    await withPage(
      async (page) => {
        await signIn(page, base, agent, '/app/customers');
        const rows = page.locator('table.grid tbody tr');
        await expect.poll(() => rows.count()).toBe(100);
        const status = page.locator('.list-end [role="status"]');
        // No count of customers is known.
        expect(await status.innerText()).toBe('Showing 100 — more');
        // Reached with Tab from the last customer, pressed with Enter.
        await rows.last().locator('a').focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Load more');
        await page.keyboard.press('Enter');
        await expect.poll(() => rows.count()).toBe(COUNT);
        await page.getByText('End of list').waitFor();
        expect(await status.innerText()).toBe(`Showing ${COUNT} customers`);
        expect(await rows.last().innerText()).toContain(`customer${COUNT}@example.com`);
        expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
      },
      { withoutIntersectionObserver: true },
    );
  });

  it('scrolling to the end of the customers loads the rest', async () => {
    const { base } = suite;
    await withPage(async (page) => {
      await signIn(page, base, agent, '/app/customers');
      const rows = page.locator('table.grid tbody tr');
      await expect.poll(() => rows.count()).toBe(100);
      await rows.last().scrollIntoViewIfNeeded();
      await expect.poll(() => rows.count()).toBe(COUNT);
      await page.getByText('End of list').waitFor();
    });
  });
});
