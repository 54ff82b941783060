import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildTestApp, TEST_STORE } from './helpers/test-app.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

/**
 * A third-party linter on the committed document (test/openapi.test.ts proves it is the generated
 * one): Redocly CLI with its `recommended` rules (redocly.yaml). The only exceptions are listed,
 * each with its reason, in .redocly.lint-ignore.yaml.
 */
/** Redocly's report on `openapi.json` in `cwd` (with the repository's redocly.yaml and allow-list there). */
async function lint(cwd: string): Promise<LintReport> {
  const cli = join(root, 'node_modules/@redocly/cli/bin/cli.js');
  const { stdout } = await run(process.execPath, [cli, 'lint', '--format=json', 'openapi.json'], {
    cwd,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
}

function expectClean(report: LintReport): void {
  const found = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
  expect(found).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  // The allow-list holds exactly the two portal redirects, not a blanket exception.
  expect(report.totals.ignored).toBe(2);
}

describe('Redocly CLI lints openapi.json', () => {
  it('with no error and no warning under the recommended rules', async () => {
    expectClean(await lint(root));
  }, 60_000);

  it(`the document a live app serves (${TEST_STORE} store) lints clean too`, async () => {
    // A real PUBLIC_URL, as in production (the rule no-server-example.com flags localhost).
    const t = await buildTestApp({ PUBLIC_URL: 'https://support.acme.test' });
    const dir = mkdtempSync(join(tmpdir(), 'ticketing-lint-'));
    try {
      const res = await t.request({ method: 'GET', url: '/openapi.json', key: null });
      expect(res.statusCode).toBe(200);
      writeFileSync(join(dir, 'openapi.json'), res.body);
      for (const file of ['redocly.yaml', '.redocly.lint-ignore.yaml']) copyFileSync(join(root, file), join(dir, file));
      expectClean(await lint(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await t.close();
    }
  }, 60_000);

  it('uses the recommended rules, and the allow-list ignores one rule on named operations only', () => {
    expect(readFileSync(new URL('../redocly.yaml', import.meta.url), 'utf8')).toMatch(/extends:\s*\n\s*- recommended/);
    const ignores = readFileSync(new URL('../.redocly.lint-ignore.yaml', import.meta.url), 'utf8');
    const rules = [...ignores.matchAll(/^ {2}([a-z0-9-]+):$/gm)].map((m) => m[1]);
    expect(rules).toEqual(['operation-2xx-response']);
    const pointers = [...ignores.matchAll(/^ {4}- '(.+)'$/gm)].map((m) => m[1]);
    expect(pointers).toEqual([
      '#/paths/~1portal~1{tracking_token}~1reply/post/responses',
      '#/paths/~1portal~1{tracking_token}~1attachments~1{attachment_id}/get/responses',
    ]);
  });
});
