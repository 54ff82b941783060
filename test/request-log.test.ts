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

  it('never carry a password, a session token or its CSRF token', async () => {
    const password = `pw-${randomBytes(12).toString('hex')}`;
    const email = `log-${Date.now()}@example.com`;
    const created = await fetch(`${base}/v1/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email, full_name: 'Log', password }),
    });
    expect(created.status).toBe(201);
    const wrong = await fetch(`${base}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: `${password}x` }) });
    expect(wrong.status).toBe(401);
    const signIn = await fetch(`${base}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect(signIn.status).toBe(201);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const csrf = ((await signIn.json()) as { csrf_token: string }).csrf_token;
    const out = await fetch(`${base}/v1/sessions/current`, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrf } });
    expect(out.status).toBe(204);
    // The only request to that address in this suite: every earlier line is in the log by then.
    await waitFor(child.proc.stdout!, /"url":"\/v1\/sessions\/current"/, child.out);
    const log = child.out.text;
    for (const secret of [password, cookie.split('=')[1]!, csrf, 'scrypt$']) expect(log).not.toContain(secret);
  });

  const urlsLogged = () =>
    child.out.text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url)
      .filter((url): url is string => url !== undefined);

  it('redact them however the address is spelled: percent-encoded, doubled slashes, mixed case, ; parameters', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const ticket = (await (
      await fetch(`${base}/v1/tickets`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ customer_name: 'Bo', customer_email: 'bo@example.com', subject: 'Encoded', description: 'Spellings' }),
      })
    ).json()) as { id: string; tracking_token: string };
    const { payload, contentType } = multipartBody([{ name: 'file', filename: 'b.txt', type: 'text/plain', data: 'another file' }]);
    const file = (await (
      await fetch(`${base}/v1/tickets/${ticket.id}/attachments`, { method: 'POST', headers: { ...auth, 'content-type': contentType }, body: payload })
    ).json()) as { id: string };
    const link = (await (await fetch(`${base}/v1/tickets/${ticket.id}/attachments/${file.id}/download`, { headers: auth })).json()) as {
      signed_url: string;
    };
    const signed = new URL(link.signed_url);
    const signature = signed.searchParams.get('signature')!;
    const expires = signed.searchParams.get('expires')!;
    const token = ticket.tracking_token;
    const every = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const before = urlsLogged().length;

    // The router decodes these (the first ones are served, not 404), the query parser too.
    const served = [
      `/v1/%70ortal/tickets/${token}`,
      `/v1/portal/tickets/${every(token)}`,
      `/v1/portal/tickets/${every(token).toUpperCase()}/comments`,
      `/portal/${every(token)}`,
      `${signed.pathname}?expires=${expires}&sig%6Eature=${signature}`,
      `${signed.pathname}?expires=${expires}&%73ignature=${every(signature)}`,
    ];
    for (const path of served) expect((await fetch(`${base}${path}`, { redirect: 'manual' })).status, path).toBeLessThan(400);
    // Spellings the router does not serve are logged all the same, and redacted all the same.
    const others = [
      `//v1//portal//tickets//${token}`,
      `/v1/portal/tickets%2F${token}`,
      `/v1/%2570ortal/tickets/${token}`,
      `/V1/PORTAL/tickets/${token}`,
      `/portal;x=1/${token}`,
      `/portal/${token};x=1`,
      `${signed.pathname}?expires=${expires};signature=${signature}`,
      `${signed.pathname}?expires=${expires}&SIGNATURE=${signature}`,
      `/v1/tickets?token=${token}`,
    ];
    for (const path of others) await fetch(`${base}${path}`, { redirect: 'manual' });
    const marker = `/v1/log-marker-${file.id}`;
    await fetch(`${base}${marker}`);

    await waitFor(child.proc.stdout!, new RegExp(marker), child.out);
    const lines = child.out.text.split('\n').filter((line) => line.startsWith('{'));
    const urls = urlsLogged();
    // Each of those requests was logged (the earlier test's lines come before them), with the secret gone.
    expect(urls.slice(before).filter((url) => url.includes('[redacted]')).length).toBeGreaterThanOrEqual(served.length + others.length);
    expect(urls).toContain('/v1/portal/tickets/[redacted]');
    expect(urls).toContain('//v1//portal//tickets//[redacted]');
    expect(urls).toContain('/portal;x=1/[redacted]');
    expect(urls).toContain(`${signed.pathname}?expires=${expires}&sig%6Eature=[redacted]`);
    expect(urls).toContain(`${signed.pathname}?expires=${expires};signature=[redacted]`);
    expect(urls).toContain('/v1/tickets?token=[redacted]');
    const log = lines.join('\n');
    // Not the secrets, not their encoded forms, not a long piece of either.
    for (const secret of [token, signature]) {
      for (const form of [secret, every(secret), every(secret).toUpperCase(), encodeURIComponent(secret)]) expect(log).not.toContain(form);
      for (let i = 0; i + 12 <= secret.length; i++) expect(log, `a piece of ${secret}`).not.toContain(secret.slice(i, i + 12));
    }
  });
});
