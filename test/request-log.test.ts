import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartBody } from './helpers/attachments.js';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * The request log of a real `ticketing serve` (JSON lines on standard output, LOG_LEVEL=info) never
 * carries what grants access: API keys, the signatures of download addresses, tracking tokens.
 */
describe('request log lines', () => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let child: Child;
  let base: string;
  let key: string;

  beforeAll(async () => {
    buildCli();
    database = TEST_STORE === 'postgres' ? await testPostgresDatabase() : undefined;
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-log-'));
    const storeEnv: Record<string, string> = database ? { DATABASE_URL: database.url, SIGNING_SECRET: randomBytes(36).toString('base64url') } : {};
    child = spawnServe({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...storeEnv });
    key = (await waitFor(child.proc.stdout!, /Admin API key \(shown once\): (key_admin_\w+)/, child.out))[1]!;
    base = await listening(child);
  }, 200_000);

  afterAll(async () => {
    child.proc.kill('SIGTERM');
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
    database?.drop();
  });

  it('redact API keys, download signatures and tracking tokens', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const ticket = (await (
      await fetch(`${base}/v1/tickets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Log', description: 'Check the log' }),
      })
    ).json()) as { id: string; tracking_token: string };
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'a.txt', type: 'text/plain', data: 'secret file' }]);
    const file = (await (
      await fetch(`${base}/v1/tickets/${ticket.id}/attachments`, { method: 'POST', headers: { ...auth, 'content-type': contentType }, body: payload })
    ).json()) as { id: string };
    const link = (await (await fetch(`${base}/v1/tickets/${ticket.id}/attachments/${file.id}/download`, { headers: auth })).json()) as {
      signed_url: string;
    };
    const signature = new URL(link.signed_url).searchParams.get('signature')!;
    expect(signature.length).toBeGreaterThan(20);
    const token = ticket.tracking_token;

    // PORT=0: PUBLIC_URL does not know the port; the path of the address is what counts.
    const signed = new URL(link.signed_url);
    const visits = [
      `${base}${signed.pathname}${signed.search}`,
      `${base}/v1/portal/tickets/${token}`,
      `${base}/v1/portal/tickets/${token.toUpperCase()}/comments?limit=5`,
      `${base}/portal/${token}`,
      `${base}/portal/${token}/attachments/${file.id}`,
    ];
    for (const url of visits) expect((await fetch(url, { redirect: 'manual' })).status, url).toBeLessThan(400);
    const reply = await fetch(`${base}/portal/${token}/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'body=hello',
      redirect: 'manual',
    });
    expect(reply.status).toBe(303);

    // The last request's "incoming request" line: every earlier one is in the log by then.
    await waitFor(child.proc.stdout!, /"url":"\/portal\/\[redacted\]\/reply"/, child.out);
    const lines = child.out.text.split('\n').filter((line) => line.startsWith('{'));
    const urls = lines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url).filter((url): url is string => url !== undefined);
    expect(urls).toContain('/v1/portal/tickets/[redacted]');
    expect(urls).toContain('/v1/portal/tickets/[redacted]/comments?limit=5');
    expect(urls).toContain('/portal/[redacted]/reply');
    expect(urls.some((url) => url.startsWith(`/storage/${file.id}?`) && url.includes('signature=[redacted]'))).toBe(true);
    const log = lines.join('\n');
    for (const secret of [key, key.slice(10), signature, token, token.toUpperCase()]) expect(log).not.toContain(secret);
  });
});
