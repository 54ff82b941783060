import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ALL_SCOPES } from '../../auth/scopes.js';
import { migrations } from '../../db/migrator.js';

type Json = Record<string, unknown>;
const MISSING = '00000000-0000-4000-8000-000000000000';
const IMAP = { type: 'imap', host: 'imap.acme.example', port: 993, security: 'tls', username: 'support@acme.example', password: 'imap-secret' };
const SMTP = { host: 'smtp.acme.example', port: 587, security: 'starttls', username: 'support@acme.example', password: 'smtp-secret' };

let t: TestApp;
beforeAll(async () => {
  // Production settings: public mail servers only, the default cap.
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const create = (body: unknown, key?: string) => t.request({ method: 'POST', url: '/v1/mailboxes', body, key });

async function created(body: Json = {}, key?: string): Promise<Json & { id: string }> {
  const res = await create({ address: `support-${Math.random().toString(36).slice(2)}@acme.example`, name: 'Acme Support', ...body }, key);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function storedRow(id: string): Promise<{ inbound: string; outbound: string | null }> {
  return t.store.db.selectFrom('mailboxes').select(['inbound', 'outbound']).where('id', '=', id).executeTakeFirstOrThrow();
}

describe('mailboxes: CRUD', () => {
  it('creates a mailbox and never shows its passwords', async () => {
    const org = await t.newOrg('Passwords');
    const box = await created({ address: 'Support@Acme.Example', inbound: IMAP, outbound: SMTP }, org.adminKey);
    expect(box).toMatchObject({
      address: 'support@acme.example',
      name: 'Acme Support',
      auto_reply: true,
      is_default: true,
      inbound: { type: 'imap', host: 'imap.acme.example', port: 993, security: 'tls', username: 'support@acme.example', folder: 'INBOX' },
      outbound: { host: 'smtp.acme.example', port: 587, security: 'starttls', username: 'support@acme.example' },
      state: 'active',
      last_error: null,
      last_checked_at: null,
    });
    expect(box.created_at).toBe(box.updated_at);
    const got = await t.request({ method: 'GET', url: `/v1/mailboxes/${box.id}`, key: org.adminKey });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(box);
    const list = await t.request({ method: 'GET', url: '/v1/mailboxes', key: org.adminKey });
    expect(list.json()).toEqual([box]);
    for (const body of [JSON.stringify(box), got.body, list.body]) {
      expect(body).not.toContain('imap-secret');
      expect(body).not.toContain('smtp-secret');
      expect(body).not.toContain('password');
    }
    // Kept for logging in to the mail servers.
    const row = await storedRow(box.id);
    expect(JSON.parse(row.inbound)).toMatchObject({ password: 'imap-secret' });
    expect(JSON.parse(row.outbound!)).toMatchObject({ password: 'smtp-secret' });
  });

  it('defaults: no inbound is type none, no outbound is SMTP_URL (null), auto_reply true', async () => {
    const box = await created();
    expect(box).toMatchObject({ inbound: { type: 'none' }, outbound: null, auto_reply: true });
    const smtp = await created({ inbound: { type: 'smtp' }, auto_reply: false });
    expect(smtp).toMatchObject({ inbound: { type: 'smtp' }, auto_reply: false });
  });

  it('one default per organization: the first is, a later one only when asked, and then the only one', async () => {
    const org = await t.newOrg('Defaults');
    const first = await created({}, org.adminKey);
    const second = await created({}, org.adminKey);
    expect([first.is_default, second.is_default]).toEqual([true, false]);
    const third = await created({ is_default: true }, org.adminKey);
    expect(third.is_default).toBe(true);
    const defaults = async () =>
      (await t.request({ method: 'GET', url: '/v1/mailboxes', key: org.adminKey })).json<Json[]>().filter((m) => m.is_default).map((m) => m.id);
    expect(await defaults()).toEqual([third.id]);
    const patched = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${second.id}`, key: org.adminKey, body: { is_default: true } });
    expect(patched.json()).toMatchObject({ is_default: true });
    expect(await defaults()).toEqual([second.id]);
    await t.request({ method: 'PATCH', url: `/v1/mailboxes/${second.id}`, key: org.adminKey, body: { is_default: false } });
    expect(await defaults()).toEqual([]);
  });

  it('an address once per organization, whatever its case: 409; another organization may have it', async () => {
    const box = await created({ address: 'dup@acme.example' });
    const again = await create({ address: 'DUP@acme.example', name: 'x' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'This organization already has a mailbox for dup@acme.example' });
    const other = await created({ address: 'other@acme.example' });
    const renamed = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${other.id}`, body: { address: 'Dup@Acme.Example' } });
    expect(renamed.statusCode).toBe(409);
    const elsewhere = await t.newOrg('Elsewhere');
    await created({ address: 'dup@acme.example' }, elsewhere.adminKey);
    expect(box.address).toBe('dup@acme.example');
  });

  it('PATCH merges settings (the password is kept), switches inbound type, clears outbound; no change keeps updated_at', async () => {
    const box = await created({ inbound: IMAP, outbound: SMTP });
    const same = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { name: box.name, inbound: { port: 993 } } });
    expect(same.json()).toMatchObject({ updated_at: box.updated_at });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const port = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { inbound: { port: 143, security: 'starttls', folder: 'Support' } } });
    expect(port.statusCode, port.body).toBe(200);
    expect(port.json()).toMatchObject({ inbound: { type: 'imap', port: 143, security: 'starttls', folder: 'Support', host: 'imap.acme.example' } });
    expect(port.json<Json>().updated_at).not.toBe(box.updated_at);
    expect(JSON.parse((await storedRow(box.id)).inbound)).toMatchObject({ password: 'imap-secret', port: 143 });
    const password = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { inbound: { password: 'new-secret' }, outbound: null } });
    expect(password.json()).toMatchObject({ outbound: null });
    expect(JSON.parse((await storedRow(box.id)).inbound)).toMatchObject({ password: 'new-secret' });
    const smtp = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { inbound: { type: 'smtp' } } });
    expect(smtp.json()).toMatchObject({ inbound: { type: 'smtp' } });
    expect(JSON.parse((await storedRow(box.id)).inbound)).toEqual({ type: 'smtp' });
    // Back to imap: every field again, since none is kept for another type.
    const back = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { inbound: { type: 'imap', host: 'imap.acme.example' } } });
    expect(back.statusCode).toBe(422);
    expect(back.json()).toMatchObject({ errors: [{ field: 'body.inbound.port', message: 'is required for inbound type imap' }] });
  });

  it('pauses and resumes; the service alone sets failing', async () => {
    const box = await created();
    const paused = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { state: 'paused' } });
    expect(paused.json()).toMatchObject({ state: 'paused' });
    const failing = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { state: 'failing' } });
    expect(failing.statusCode).toBe(422);
    await t.store.db.updateTable('mailboxes').set({ state: 'failing', last_error: 'NO [AUTHENTICATIONFAILED] Authentication failed.' }).where('id', '=', box.id).execute();
    const resumed = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { state: 'active' } });
    expect(resumed.json()).toMatchObject({ state: 'active', last_error: null });
  });

  it('deletes a mailbox; then it is 404', async () => {
    const box = await created();
    expect((await t.request({ method: 'DELETE', url: `/v1/mailboxes/${box.id}` })).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `/v1/mailboxes/${box.id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/mailboxes/${box.id}` })).json()).toEqual({ detail: 'Mailbox not found' });
  });

  it("404 for an unknown mailbox and for another organization's", async () => {
    const box = await created();
    const other = await t.newOrg('Other');
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await t.request({ method, url: `/v1/mailboxes/${box.id}`, key: other.adminKey, ...(method === 'PATCH' ? { body: {} } : {}) });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await t.request({ method: 'GET', url: '/v1/mailboxes', key: other.adminKey })).json()).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/v1/mailboxes/${MISSING}` })).statusCode).toBe(404);
  });
});

describe('mailboxes: validation', () => {
  it('imap needs host, port, security, username and password; smtp and none take nothing else', async () => {
    const noPassword = { ...IMAP, password: undefined };
    const missing = await create({ address: 'a@acme.example', name: 'A', inbound: noPassword });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ errors: [{ field: 'body.inbound.password', message: 'is required for inbound type imap' }] });
    const extra = await create({ address: 'a@acme.example', name: 'A', inbound: { type: 'smtp', host: 'mx.acme.example' } });
    expect(extra.json()).toMatchObject({ errors: [{ field: 'body.inbound.host', message: 'is not used with inbound type smtp' }] });
    const half = await create({ address: 'a@acme.example', name: 'A', outbound: { ...SMTP, password: undefined } });
    expect(half.statusCode).toBe(422);
    expect(half.json()).toMatchObject({ errors: [{ field: 'body.outbound.password' }] });
    const badAddress = await create({ address: 'not an address', name: 'A' });
    expect(badAddress.json()).toMatchObject({ errors: [{ field: 'body.address' }] });
    const badHost = await create({ address: 'a@acme.example', name: 'A', inbound: { ...IMAP, host: 'imap.acme.example:993' } });
    expect(badHost.json()).toMatchObject({ errors: [{ field: 'body.inbound.host', message: 'must be a host name or an IP address, without a port or path' }] });
  });

  it('refuses loopback, private, link-local and metadata mail servers, naming MAIL_ALLOW_PRIVATE', async () => {
    for (const host of ['127.0.0.1', 'localhost', '10.1.2.3', '192.168.0.10', '169.254.169.254', '::1', 'mail.localhost']) {
      const inbound = await create({ address: 'p@acme.example', name: 'P', inbound: { ...IMAP, host } });
      expect(inbound.statusCode, host).toBe(422);
      expect(inbound.json<{ detail: string }>().detail, host).toContain('MAIL_ALLOW_PRIVATE=true');
      expect(inbound.json()).toMatchObject({ errors: [{ field: 'body.inbound.host' }] });
      const outbound = await create({ address: 'p@acme.example', name: 'P', outbound: { ...SMTP, host } });
      expect(outbound.json()).toMatchObject({ errors: [{ field: 'body.outbound.host' }] });
    }
    const box = await created();
    const patched = await t.request({ method: 'PATCH', url: `/v1/mailboxes/${box.id}`, body: { outbound: { ...SMTP, host: '10.0.0.5' } } });
    expect(patched.statusCode).toBe(422);
  });

  it('allows them with MAIL_ALLOW_PRIVATE=true', async () => {
    const open = await buildTestApp({ MAIL_ALLOW_PRIVATE: 'true' });
    try {
      const res = await open.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'l@acme.example', name: 'L', inbound: { ...IMAP, host: '127.0.0.1' }, outbound: { ...SMTP, host: 'localhost' } } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ inbound: { host: '127.0.0.1' }, outbound: { host: 'localhost' } });
    } finally {
      await open.close();
    }
  });

  it('at most MAIL_MAX_MAILBOXES per organization: 422 naming the setting', async () => {
    const small = await buildTestApp({ MAIL_MAX_MAILBOXES: '2' });
    try {
      for (const n of [1, 2]) {
        expect((await small.request({ method: 'POST', url: '/v1/mailboxes', body: { address: `m${n}@acme.example`, name: 'M' } })).statusCode).toBe(201);
      }
      const third = await small.request({ method: 'POST', url: '/v1/mailboxes', body: { address: 'm3@acme.example', name: 'M' } });
      expect(third.statusCode).toBe(422);
      // The bounded collections' one message (docs/api-behaviour.md#bounded-collections).
      expect(third.json<{ detail: string }>().detail).toBe('This organization already has 2 mailboxes, the most allowed (MAIL_MAX_MAILBOXES=2); delete one first');
      // Another organization has its own allowance.
      const other = await small.newOrg();
      expect((await small.request({ method: 'POST', url: '/v1/mailboxes', key: other.adminKey, body: { address: 'm3@acme.example', name: 'M' } })).statusCode).toBe(201);
    } finally {
      await small.close();
    }
  });
});

describe('mailboxes: scopes', () => {
  it('read-only keys read; writing and deleting need mailboxes:write and mailboxes:delete', async () => {
    const box = await created();
    const readonly = await t.org.key({ role: 'readonly' });
    expect((await t.request({ method: 'GET', url: '/v1/mailboxes', key: readonly })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/mailboxes/${box.id}`, key: readonly })).statusCode).toBe(200);
    const write = await t.request({ method: 'POST', url: '/v1/mailboxes', key: readonly, body: { address: 'r@acme.example', name: 'R' } });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ detail: 'Insufficient permissions: requires mailboxes:write' });
    const noDelete = await t.org.key({ scopes: ['mailboxes:read', 'mailboxes:write'] });
    expect((await t.request({ method: 'DELETE', url: `/v1/mailboxes/${box.id}`, key: noDelete })).json()).toEqual({
      detail: 'Insufficient permissions: requires mailboxes:delete',
    });
    const noRead = await t.org.key({ scopes: ['tickets:read'] });
    expect((await t.request({ method: 'GET', url: '/v1/mailboxes', key: noRead })).statusCode).toBe(403);
  });

  it('existing keys made with the defaults get the mailboxes scopes when the store is migrated; others do not', async () => {
    const scratch = await buildTestApp();
    try {
      const migrator = new Migrator({ db: scratch.store.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
      // Just before the mailboxes' migration: keys then held every scope but those it and later ones add.
      expect((await migrator.migrateTo('0024_create_ticket_fields')).error).toBeUndefined();
      // The resources whose scopes came with 0025 and after.
      const later = ['mailboxes', 'views', 'macros', 'sla', 'automations'];
      const old = ALL_SCOPES.filter((s) => !later.includes(s.split(':')[0]!));
      const oldRead = old.filter((s) => s.endsWith(':read'));
      const unrestricted = await scratch.org.key({ scopes: [...old] });
      const restricted = await scratch.org.key({ scopes: ['tickets:read', 'tickets:write'] });
      const readonly = await scratch.org.key({ role: 'readonly', scopes: oldRead });
      const narrowReadonly = await scratch.org.key({ role: 'readonly', scopes: ['tickets:read'] });
      expect((await migrator.migrateTo('0025_create_mailboxes')).error).toBeUndefined();
      const scopesOf = async (key: string) => (await scratch.request({ method: 'GET', url: '/v1/test', key })).json<{ scopes: string[] }>().scopes;
      expect(await scopesOf(unrestricted)).toEqual([...old, 'mailboxes:read', 'mailboxes:write', 'mailboxes:delete']);
      expect(await scopesOf(restricted)).toEqual(['tickets:read', 'tickets:write']);
      expect(await scopesOf(readonly)).toEqual([...oldRead, 'mailboxes:read']);
      expect(await scopesOf(narrowReadonly)).toEqual(['tickets:read']);
      expect(await scopesOf(await scratch.org.key({ role: 'readonly' }))).toEqual(ALL_SCOPES.filter((s) => s.endsWith(':read')));
    } finally {
      await scratch.close();
    }
  });
});
