import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { createApiKey } from '../src/auth/keys.service.js';
import { loadConfig } from '../src/config.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { COMMAND_TIMEOUTS, openStore } from '../src/db/store.js';
import { consoleDirectory } from '../src/modules/console/console.routes.js';
import { compactDashboard } from '../src/modules/dashboard/dashboard.compaction.js';
import { createOrganization } from '../src/modules/organizations/organizations.service.js';
import { openBlobStore } from '../src/storage/open-blob-store.js';
import { benchEnv, percentile, scratchDatabase } from './common.js';
import { seedDashboard } from './dashboard-seed.js';
import { seed } from './seed.js';
import { VIEWS } from './views.js';

/**
 * The agent console (`node dist/bench/console.js`, after `npm run build`): the JavaScript and CSS a
 * first load fetches, gzip-compressed; then, on a SQLite store of BENCH_CONSOLE_TICKETS tickets
 * (default 100,000; on PostgreSQL when DATABASE_URL names a server, in a scratch database), the time from pressing "Sign in" to the first ticket of the queue on screen,
 * and from Enter on it to its conversation on screen, in Debian's Chromium (CHROMIUM_PATH), each
 * BENCH_CONSOLE_RUNS times (default 10) in a fresh browser context (no cache); then, in one
 * signed-in page, opening tickets of BENCH_CONSOLE_COMMENTS comments (default 200) until every one
 * is on screen, a status change on each and a reply to each (BENCH_CONSOLE_COMMENTS=0 skips this),
 * each broken down into the server's time for its write (PATCH or POST, from the request's arrival
 * to its answer) and the rest (the browser's work before and after it), with the requests the page
 * made meanwhile.
 *
 * BENCH_CONSOLE_SEED=database seeds with bench/dashboard-seed.ts (tickets made by the database: a
 * million in minutes, where bench/seed.ts takes about half an hour); BENCH_CONSOLE_VIEWS=1 saves the
 * views bench's 10 shared views (bench/views.ts), so the console opens on the first and its sidebar
 * counts them; BENCH_CONSOLE_DIR keeps the seeded store in that folder and later runs reuse it
 * (migrated to the latest first); BENCH_CONSOLE_SEED_ONLY=1 only seeds.
 */
const TICKETS = Number(process.env.BENCH_CONSOLE_TICKETS ?? 100_000);
const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 10);
const COMMENTS = Number(process.env.BENCH_CONSOLE_COMMENTS ?? 200);
const FAST_SEED = process.env.BENCH_CONSOLE_SEED === 'database';
const WITH_VIEWS = process.env.BENCH_CONSOLE_VIEWS === '1';
const KEEP = process.env.BENCH_CONSOLE_DIR;
const PASSWORD = 'bench password, long enough';

function bundle(): { file: string; bytes: number; gzip: number }[] {
  const dir = consoleDirectory();
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.(?:js|css))"/g)].map(([, file]) => {
    const body = readFileSync(join(dir, file!));
    return { file: file!, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
}

const ms = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, max ${sorted[sorted.length - 1]!.toFixed(0)} ms`;
};

const files = bundle();
for (const f of files) console.log(`${f.file}: ${(f.bytes / 1024).toFixed(1)} KB, gzip ${(f.gzip / 1024).toFixed(1)} KB`);
const js = files.filter((f) => f.file.endsWith('.js')).reduce((sum, f) => sum + f.gzip, 0);
console.log(`first load JavaScript, gzip: ${(js / 1024).toFixed(1)} KB (budget 250 KB)`);

if (KEEP) mkdirSync(KEEP, { recursive: true });
const dataDir = KEEP ?? mkdtempSync(join(tmpdir(), 'ticketing-bench-console-'));
/** A kept store's marker: what it holds and the admin key. */
const marker = join(dataDir, 'bench-console.json');
interface Seeded {
  tickets: number;
  views: boolean;
  key: string;
}
// VIEWS_COUNTS_MAX_AGE_MS=0: every sign-in's sidebar recounts every view, as the first one after 30 s does.
if (KEEP && process.env.DATABASE_URL) throw new Error('BENCH_CONSOLE_DIR keeps SQLite stores only');
const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, 'console') : undefined;
const config = loadConfig(benchEnv(dataDir, scratch?.url, process.env.VIEWS_COUNTS_MAX_AGE_MS ? { VIEWS_COUNTS_MAX_AGE_MS: process.env.VIEWS_COUNTS_MAX_AGE_MS } : {}));
const store = openStore({ dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize, timeouts: COMMAND_TIMEOUTS, search: config.search });
const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
// The server's time for each request (arrival to answer sent), to set a write's own time apart.
const served: { method: string; url: string; ms: number }[] = [];
app.addHook('onResponse', async (request, reply) => {
  served.push({ method: request.method, url: request.url, ms: reply.elapsedTime });
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  // A kept store seeded before a later migration (an index) gets it now.
  await migrateToLatest(store.db);
  let started = performance.now();
  let seeded: Seeded;
  if (KEEP && existsSync(marker)) {
    seeded = JSON.parse(readFileSync(marker, 'utf8')) as Seeded;
    if (seeded.tickets !== TICKETS || seeded.views !== WITH_VIEWS) throw new Error(`${dataDir} holds ${seeded.tickets} tickets${seeded.views ? ' and views' : ''}: use another BENCH_CONSOLE_DIR`);
    console.log(`reusing the store in ${dataDir}`);
    // A store another bench seeded may hold every ticket's dashboard delta still: folded first, as the job does.
    await compactDashboard(store);
  } else {
    const organizationId = await createOrganization(store.db, 'Bench organization');
    const { key } = await createApiKey(store.db, { organizationId, role: 'admin', name: 'bench' });
    if (FAST_SEED) await seedDashboard(store, organizationId, TICKETS);
    else await seed(store, organizationId, { tickets: TICKETS, customers: 2000 });
    await compactDashboard(store);
    console.log(`${store.dialect}: seeded ${TICKETS.toLocaleString('en')} tickets in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const call = async (url: string, body: unknown) => {
      const res = await app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`);
    };
    await call('/v1/users', { email: 'bench-agent@example.com', full_name: 'Bench Agent', password: PASSWORD, role: 'agent' });
    if (WITH_VIEWS) for (const view of VIEWS) await call('/v1/views', { ...view, shared: true });
    seeded = { tickets: TICKETS, views: WITH_VIEWS, key };
    if (KEEP) writeFileSync(marker, JSON.stringify(seeded));
  }
  // Sign-ins and page loads, then the long conversations.
  const measure = async (key: string) => {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const call = async (method: 'POST', url: string, body: unknown): Promise<{ id: string }> => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      if (res.statusCode !== 201) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json<{ id: string }>();
    };

    const toQueue: number[] = [];
    const toTicket: number[] = [];
    for (let run = 0; run < RUNS + 1; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/app/`);
      await page.getByLabel('Email').fill('bench-agent@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      // When the answers the first screen waits for arrive (the sidebar's come after it).
      const answered = new Map<string, number>();
      page.on('response', (response) => {
        const { pathname } = new URL(response.url());
        const what = /^\/v1\/(tickets|views\/[^/]+\/tickets)$/.test(pathname) ? 'queue' : pathname === '/v1/views/counts' ? 'counts' : pathname === '/v1/views' ? 'views' : pathname;
        if (!answered.has(what)) answered.set(what, performance.now() - started);
      });
      started = performance.now();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('ol.rows > li').first().waitFor();
      const queue = performance.now() - started;
      // The database-made seed's ticket ids are not UUIDs, so the console cannot open its tickets.
      const href = (await page.locator('ol.rows > li a').first().getAttribute('href')) ?? '';
      if (!/[0-9a-f]{8}-[0-9a-f]{4}-/.test(href)) {
        if (run > 0) toQueue.push(queue);
        const at = (what: string) => (answered.has(what) ? `${answered.get(what)!.toFixed(0)} ms` : '-');
        console.log(`run ${run}: first row ${queue.toFixed(0)} ms; answers: session ${at('/v1/sessions')}, views ${at('views')}, queue ${at('queue')}, counts ${at('counts')}, dashboard ${at('/v1/dashboard')}`);
        await context.close();
        continue;
      }
      started = performance.now();
      await page.keyboard.press('Enter');
      await page
        .locator('ol.thread > li')
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(async (error: unknown) => {
          console.error(`ticket page did not show (${page.url()}):`, (await page.locator('body').innerText()).slice(0, 600));
          throw error;
        });
      const ticket = performance.now() - started;
      // The first run warms the server's caches and JIT; it is left out.
      if (run > 0) {
        toQueue.push(queue);
        toTicket.push(ticket);
      }
      const at = (what: string) => (answered.has(what) ? `${answered.get(what)!.toFixed(0)} ms` : '-');
      console.log(`run ${run}: first row ${queue.toFixed(0)} ms; answers: session ${at('/v1/sessions')}, views ${at('views')}, queue ${at('queue')}, counts ${at('counts')}, dashboard ${at('/v1/dashboard')}`);
      await context.close();
    }
    console.log(`sign-in to first ticket visible (${RUNS} runs, ${TICKETS.toLocaleString('en')} tickets): ${ms(toQueue)}`);
    if (toTicket.length > 0) console.log(`Enter on it to its conversation visible: ${ms(toTicket)}`);
    if (COMMENTS === 0) return;

    // A long conversation: RUNS + 1 tickets of COMMENTS comments each, opened one after the other in
    // one signed-in page (each for the first time, so nothing is cached), then on each a status
    // change and a reply.
    const long: string[] = [];
    started = performance.now();
    for (let i = 0; i < RUNS + 1; i++) {
      const ticket = await call('POST', '/v1/tickets', { subject: `A long conversation ${i}`, description: 'It goes on.', customer_email: 'long@example.com', customer_name: 'Long Talker' });
      for (let c = 0; c < COMMENTS; c++) {
        await call('POST', `/v1/tickets/${ticket.id}/comments`, { body: `Message ${c + 1}: ${'we looked again and found more to say. '.repeat(4)}`, is_internal: c % 5 === 4 });
      }
      long.push(ticket.id);
    }
    console.log(`seeded ${long.length} tickets of ${COMMENTS} comments in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/app/`);
    await page.getByLabel('Email').fill('bench-agent@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('ol.rows > li').first().waitFor();
    const open: number[] = [];
    const status: number[] = [];
    const reply: number[] = [];
    const floor: number[] = [];
    const statusServer: number[] = [];
    const replyServer: number[] = [];
    const during = { status: new Map<string, number>(), reply: new Map<string, number>() };
    // The requests of the page while an action is timed (and the page's own, not the bench's, calls).
    let watching: Map<string, number> | null = null;
    page.on('request', (request) => {
      if (!watching || request.url().includes('/presence')) return;
      const path = new URL(request.url()).pathname.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}');
      const key = `${request.method()} ${path}`;
      watching.set(key, (watching.get(key) ?? 0) + 1);
    });
    const serverTime = (method: string, pattern: RegExp): number => {
      const found = served.findLast((s) => s.method === method && pattern.test(s.url));
      if (!found) throw new Error(`no ${method} ${pattern} served`);
      return found.ms;
    };
    const thread = page.locator('ol.thread > li');
    // Timed in the page too, without the bench's own round trips to the browser: from the event the
    // action starts with to the change on screen (a MutationObserver), around the page's request for
    // it (its Resource Timing entry: the first request after the event).
    type Split = { total: number[]; before: number[]; request: number[]; after: number[] };
    const inPage: Record<'status' | 'reply', Split> = {
      status: { total: [], before: [], request: [], after: [] },
      reply: { total: [], before: [], request: [], after: [] },
    };
    // (Page scripts as text: the bench is compiled without the DOM's types.)
    const watchInPage = (event: 'change' | 'click', shown: string) =>
      page.evaluate(`{
        const timed = (window.timed = { start: 0, end: 0 });
        performance.clearResourceTimings();
        document.addEventListener('${event}', () => (timed.start = performance.now()), { capture: true, once: true });
        const observer = new MutationObserver(() => {
          if (timed.start && ${shown}) {
            timed.end = performance.now();
            observer.disconnect();
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      }`);
    const readInPage = async (into: Split) => {
      const t = await page.evaluate<{ start: number; end: number; fetchStart: number; responseEnd: number }>(`(() => {
        const { start, end } = window.timed;
        const request = performance.getEntriesByType('resource').find((e) => e.startTime >= start);
        return { start, end, fetchStart: request.startTime, responseEnd: request.responseEnd };
      })()`);
      into.total.push(t.end - t.start);
      into.before.push(t.fetchStart - t.start);
      into.request.push(t.responseEnd - t.fetchStart);
      into.after.push(t.end - t.responseEnd);
    };
    for (const [run, id] of long.entries()) {
      // In-app navigation, as a click on a queue row does (the router follows popstate).
      started = performance.now();
      await page.evaluate(`history.pushState(null, '', '/app/tickets/${id}'); dispatchEvent(new PopStateEvent('popstate'))`);
      await thread.nth(COMMENTS).waitFor({ timeout: 20_000 });
      const opened = performance.now() - started;
      await page.getByRole('heading', { level: 1, name: new RegExp(`A long conversation ${run}$`) }).waitFor();
      // The bench's own share: a click that changes nothing (the mode already chosen) and a wait for
      // what is already on screen, through the same Playwright calls the actions below are timed with.
      started = performance.now();
      await page.getByRole('button', { name: /Public reply/ }).click();
      await thread.nth(COMMENTS).waitFor();
      if (run > 0) floor.push(performance.now() - started);
      watching = run > 0 ? during.status : null;
      await watchInPage('change', `document.querySelector('.meta .status-pending')`);
      started = performance.now();
      await page.getByLabel('Status', { exact: true }).selectOption('pending');
      await page.locator('.meta .status-pending').waitFor();
      const changed = performance.now() - started;
      watching = null;
      if (run > 0) await readInPage(inPage.status);
      const changedServer = serverTime('PATCH', new RegExp(`^/v1/tickets/${id}$`));
      await page.getByLabel(/Public reply/).fill('Thanks, that settles it.');
      watching = run > 0 ? during.reply : null;
      await watchInPage('click', `document.querySelectorAll('ol.thread > li').length > ${COMMENTS + 1}`);
      started = performance.now();
      await page.getByRole('button', { name: 'Send reply' }).click();
      await thread.nth(COMMENTS + 1).waitFor({ timeout: 20_000 });
      const replied = performance.now() - started;
      watching = null;
      if (run > 0) await readInPage(inPage.reply);
      const repliedServer = serverTime('POST', new RegExp(`^/v1/tickets/${id}/comments$`));
      if (run > 0) {
        open.push(opened);
        status.push(changed);
        reply.push(replied);
        statusServer.push(changedServer);
        replyServer.push(repliedServer);
      }
      // What the actions set off (refetches, the live stream's) settles before the next ticket.
      await page.waitForTimeout(500);
    }
    await context.close();
    console.log(`open a ticket of ${COMMENTS} comments until all are on screen (${RUNS} runs): ${ms(open)}`);
    console.log(`the bench's own share, a click that changes nothing and a wait for what is shown: ${ms(floor)}`);
    const requests = (counts: Map<string, number>) => [...counts].map(([key, n]) => `${key} ×${(n / RUNS).toFixed(1)}`).join(', ') || 'none';
    console.log(`status change until the page shows it: ${ms(status)}`);
    console.log(`  of which the server's PATCH: ${ms(statusServer)}; the rest (browser): ${ms(status.map((t, i) => t - statusServer[i]!))}`);
    console.log(`  requests meanwhile, per change: ${requests(during.status)}`);
    const split = (t: Split) =>
      `event to screen ${ms(t.total)}: event to request ${ms(t.before)}; the request (browser's view) ${ms(t.request)}; answer to screen ${ms(t.after)}`;
    console.log(`  in the page: ${split(inPage.status)}`);
    console.log(`reply until it is on screen: ${ms(reply)}`);
    console.log(`  of which the server's POST: ${ms(replyServer)}; the rest (browser): ${ms(reply.map((t, i) => t - replyServer[i]!))}`);
    console.log(`  requests meanwhile, per reply: ${requests(during.reply)}`);
    console.log(`  in the page: ${split(inPage.reply)}`);
  };
  if (process.env.BENCH_CONSOLE_SEED_ONLY !== '1') await measure(seeded.key);
} finally {
  await browser.close();
  await app.close();
  await store.close();
  await scratch?.drop();
  if (!KEEP) rmSync(dataDir, { recursive: true, force: true });
}
