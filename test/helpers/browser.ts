import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { TestApp } from './test-app.js';

/** Debian's Chromium; tests never let a tool download its own browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run here. Under CI they must: a missing browser fails the suite
 * instead of skipping it (`.ci/run` installs Debian's chromium first).
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') throw new Error(`Browser tests must run in CI, but ${CHROMIUM_PATH} is missing`);
  return false;
}

/** Starts headless Chromium with the flags this closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Console errors, uncaught page errors and CSP reports of a page (a clean page has none); dialogs are dismissed and recorded. */
export function watchPage(page: Page): { problems: string[]; dialogs: string[] } {
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return { problems, dialogs };
}

/** What a browser suite works with, filled in before its first test. */
export interface BrowserSuite {
  t: TestApp;
  browser: Browser;
  /** The listening app's address, e.g. http://127.0.0.1:40123 */
  base: string;
}

/**
 * For use inside a describe block: before its tests, a test app from `build` (buildTestApp, so the
 * suite runs once per store) listening on a free port, and a browser; after them, both closed.
 */
export function useBrowserSuite(build: () => Promise<TestApp>): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    suite.t = await build();
    suite.base = await suite.t.app.listen({ port: 0, host: '127.0.0.1' });
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    // Either may be missing when the setup above failed part way.
    await (suite.browser as Browser | undefined)?.close();
    await (suite.t as TestApp | undefined)?.close();
  });
  return suite;
}
