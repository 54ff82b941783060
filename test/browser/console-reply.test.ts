import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, useBrowserSuite, watchPage } from '../helpers/browser.js';
import { seedConsole, signIn, type ConsoleOrg } from '../helpers/console.js';
import { buildCli } from '../helpers/processes.js';
import { buildTestApp } from '../helpers/test-app.js';

/**
 * The ticket page's reply and property changes (issue 25: each answered and on screen within 300 ms
 * on a 200-comment ticket): what their answers bring is put on screen from the answers, and neither
 * the page nor the live stream's echo of the page's own change fetches the conversation again.
 * In Debian's Chromium against the real service, once per store.
 */
describe.skipIf(!browserAvailable())('the console after a reply or a property change', () => {
  const suite = useBrowserSuite(buildTestApp);
  let org: ConsoleOrg;
  beforeAll(async () => {
    buildCli();
    org = await seedConsole(suite.t);
  }, 200_000);

  it('shows them from their answers and fetches the conversation again only for another agent’s comment', async () => {
    const { t, base } = suite;
    const ticket = org.tickets[2]!;
    const context = await suite.browser.newContext({ viewport: { width: 1360, height: 860 } });
    try {
      const page = await context.newPage();
      const watched = watchPage(page);
      await signIn(page, base, org.dana.email, `/app/tickets/${ticket.id}`);
      await page.getByRole('heading', { level: 1, name: new RegExp(ticket.subject) }).waitFor();
      // The stream is up, so the echoes of the changes below come back to this page.
      await page.getByText('Live', { exact: true }).waitFor();
      const thread = page.locator('ol.thread > li');
      const before = await thread.count();
      const fetched: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'GET' && new URL(request.url()).pathname === `/v1/tickets/${ticket.id}/comments`) fetched.push(request.url());
      });

      await page.getByLabel('Status', { exact: true }).selectOption('pending');
      await page.locator('.meta .status-pending').waitFor();
      await page.getByLabel(/Public reply/).fill('The fix is live; please try again.');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await expect.poll(() => thread.count()).toBe(before + 1);
      await page.getByRole('button', { name: 'Send reply' }).waitFor();
      // Another agent's comment comes by the stream after the echoes of this page's own changes
      // (in commit order): once it is on screen, those have been dealt with.
      const other = await t.request({ method: 'POST', url: `/v1/tickets/${ticket.id}/comments`, body: { body: 'Seen it too on our side.', is_internal: true } });
      expect(other.statusCode).toBe(201);
      await page.getByText('Seen it too on our side.').waitFor({ timeout: 10_000 });
      expect(await thread.count()).toBe(before + 2);
      // One fetch of the conversation: for the other agent's comment, none for this page's own reply and status change.
      expect(fetched).toHaveLength(1);
      expect(await page.getByRole('alert').count()).toBe(0);
      expect(watched.problems.filter((p) => !/Failed to load resource|EventSource/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
