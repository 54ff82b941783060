import { describe, expect, it } from 'vitest';
import { browserAvailable, CHROMIUM_PATH, useBrowserSuite, watchPage } from '../helpers/browser.js';
import { buildTestApp } from '../helpers/test-app.js';

const available = browserAvailable();
if (!available) console.warn(`Skipping the /docs browser tests: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);

describe.skipIf(!available)('the /docs page in a real browser', () => {
  const suite = useBrowserSuite(buildTestApp);

  it('renders every tag and the operations, with no console error and no CSP violation', async () => {
    const { browser, base } = suite;
    const page = await browser.newPage();
    const { problems, dialogs } = watchPage(page);
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base) && !request.url().startsWith('data:')) outside.push(request.url());
    });
    try {
      const response = await page.goto(`${base}/docs`);
      expect(response?.status()).toBe(200);
      // Operations render as "GET /v1/tickets" blocks inside their tag's section.
      const listTickets = page.locator('.opblock-get', { hasText: '/v1/tickets' }).first();
      await listTickets.waitFor({ timeout: 20_000 });
      expect(await page.locator('.opblock-tag', { hasText: 'Tickets' }).count()).toBeGreaterThan(0);
      expect(await page.locator('.opblock-tag', { hasText: 'Customers' }).count()).toBeGreaterThan(0);
      expect(await page.locator('.opblock-summary-method', { hasText: 'DELETE' }).count()).toBeGreaterThan(0);
      expect(await page.locator('.opblock').count()).toBeGreaterThan(30);
      await expect.poll(() => page.title()).toBe('Ticketing API');

      // Opening an operation shows its responses, among them the shared 401 and 403.
      await listTickets.locator('.opblock-summary').first().click();
      await page.locator('.responses-table').first().waitFor({ timeout: 10_000 });
      const responses = await page.locator('.opblock.is-open .response-col_status').allInnerTexts();
      expect(responses.map((s) => s.trim())).toEqual(expect.arrayContaining(['200', '401', '403', '429']));

      expect(problems).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
