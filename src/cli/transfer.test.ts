import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, filesOnDisk, upload } from '../../test/helpers/attachments.js';
import { buildTestApp, TEST_STORE, type TestApp } from '../../test/helpers/test-app.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openStore } from '../db/store.js';
import { openBlobStore } from '../storage/open-blob-store.js';
import { runMain, type CliRun } from '../../test/helpers/cli.js';

/** Runs the CLI in-process against the store of a test app. */
function run(t: Pick<TestApp, 'dataDir' | 'config'>, argv: string[], stdin?: string): Promise<CliRun> {
  // The test app's own store and attachment backend (SQLite and disk, or PostgreSQL and database).
  const env: NodeJS.ProcessEnv = { DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', STORAGE_BACKEND: t.config.storageBackend };
  // No SIGNING_SECRET even on PostgreSQL: only `serve` signs addresses and needs it.
  if (t.config.databaseUrl) env.DATABASE_URL = t.config.databaseUrl;
  return runMain(argv, env, stdin);
}

/** Everything the API shows of an organization, read with `key`. */
async function snapshot(t: Pick<TestApp, 'request'>, key: string): Promise<Record<string, unknown>> {
  const get = async (url: string): Promise<unknown> => {
    const res = await t.request({ method: 'GET', url, key });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json();
  };
  const out: Record<string, unknown> = {};
  out.keyTest = await get('/v1/test');
  // The change feed (same events, same cursors) and the webhook endpoints move too; tags with their tickets, counts and filters.
  out.events = await get('/v1/events?limit=1000');
  out.webhooks = await get('/v1/webhooks');
  out.tags = await get('/v1/tags');
  out.tagged = await get('/v1/tickets?tag=billing');
  // Custom fields too (the definitions, and their values filtered through the value index); saved views and their tickets.
  out.fields = await get('/v1/ticket-fields');
  out.byField = await get('/v1/tickets?custom_fields[seats]=2.5');
  out.views = await get('/v1/views');
  for (const v of out.views as Array<{ id: string }>) out[`/v1/views/${v.id}/tickets`] = await get(`/v1/views/${v.id}/tickets`);
  for (const list of ['/v1/users', '/v1/teams', '/v1/customers', '/v1/tickets', '/v1/business-hours']) {
    const items = (await get(`${list}?limit=100`)) as Array<{ id: string }>;
    out[list] = items;
    for (const item of items) out[`${list}/${item.id}`] = await get(`${list}/${item.id}`);
  }
  for (const ticket of out['/v1/tickets'] as Array<{ id: string }>) {
    out[`comments ${ticket.id}`] = await get(`/v1/tickets/${ticket.id}/comments`);
    const attachments = (await get(`/v1/tickets/${ticket.id}/attachments`)) as Array<{ id: string }>;
    out[`attachments ${ticket.id}`] = attachments;
    for (const a of attachments) out[`attachment ${a.id}`] = await get(`/v1/tickets/${ticket.id}/attachments/${a.id}`);
  }
  return out;
}

/**
 * An export's lines but the header (which carries the time of export), with the one value that
 * using a key changes (`last_used_at`) blanked.
 */
function exportBody(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => {
      const record = line ? (JSON.parse(line) as { table?: string; row?: Record<string, unknown> }) : null;
      if (record?.table !== 'api_keys' || !record.row) return line;
      return JSON.stringify({ ...record, row: { ...record.row, last_used_at: null } });
    });
}

/** Blobs of the organization that are staged but not published (database backend) or staged files (disk). */
async function leftovers(t: TestApp, organizationId: string): Promise<number> {
  const staged = await t.store.db
    .selectFrom('attachment_blobs')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('attachment_id', 'is', null)
    .execute();
  return staged.length + filesOnDisk(t).filter((f) => f.includes('staging')).length;
}

/** The bytes of an attachment, fetched through a signed download address of `t`. */
async function download(t: Pick<TestApp, 'request' | 'app'>, key: string, ticketId: string, attachmentId: string): Promise<Buffer> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments/${attachmentId}/download`, key });
  expect(res.statusCode).toBe(200);
  const url = new URL(res.json<{ signed_url: string }>().signed_url);
  const file = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(file.statusCode).toBe(200);
  return file.rawPayload;
}

describe('ticketing export / import', () => {
  let source: TestApp;
  let target: TestApp;
  let dir: string;
  let exportFile: string;
  let readonlyKey: string;
  const files = new Map<string, { ticketId: string; bytes: Buffer }>();
  let before: Record<string, unknown>;

  beforeAll(async () => {
    source = await buildTestApp();
    target = await buildTestApp();
    dir = mkdtempSync(join(tmpdir(), 'ticketing-export-'));
    exportFile = join(dir, 'org.ndjson');
    const req = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown): Promise<{ id: string }> => {
      const res = await source.request({ method, url, body });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.statusCode === 204 ? { id: '' } : res.json<{ id: string }>();
    };

    const agent = await req('POST', '/v1/users', { email: 'Agent@Example.com', full_name: 'Grace Hopper' });
    const inactive = await req('POST', '/v1/users', { email: 'old@example.com', full_name: 'Old Agent', role: 'admin', is_active: false });
    const team = await req('POST', '/v1/teams', { name: 'Billing', description: 'Money matters' });
    await req('POST', `/v1/teams/${team.id}/members`, { user_id: agent.id });
    await req('POST', `/v1/teams/${team.id}/members`, { user_id: inactive.id });
    await req('POST', '/v1/teams', { name: 'Empty team' });
    await req('POST', '/v1/customers', {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Analytical Engines',
      department: 'R&D',
      title: 'Countess',
      customer_tier: 'tier_1',
      contact_number: '+44 20 7946 0000',
      pronoun: 'she/her',
      location_country: 'UK',
      location_city: 'London',
      location_state: 'Greater London',
      location_zip: 'W1',
      location_address: '12 St James Square',
      region: 'emea',
      timezone: 'Europe/London',
      account_value: '123456.78',
      has_premium_support: true,
      is_vip: true,
      social_linkedin: 'https://linkedin.com/in/ada',
      social_website: 'https://ada.example.com',
      social_github: 'https://github.com/ada',
      notes: 'Prefers email — and ünïcödé',
    });
    await req('POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro'] });
    await req('POST', '/v1/ticket-fields', { key: 'seats', label: 'Seats', type: 'number' });
    await req('POST', '/v1/business-hours', { name: 'Office', time_zone: 'Europe/Berlin', weekly: [{ day: 'mon', start: '09:00', end: '17:00' }], holidays: [{ date: '2026-12-25' }] });
    await req('POST', '/v1/views', { name: 'Pro', shared: true, conditions: { all: [{ field: 'custom_fields.plan', operator: 'is', value: 'pro' }] }, sort: { by: 'priority', order: 'desc' } });
    const first = await req('POST', '/v1/tickets', {
      custom_fields: { plan: 'pro', seats: 2.5 },
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.com',
      subject: 'Invoice shows the wrong total',
      description: 'The March invoice adds VAT twice.',
      priority: 'high',
      category: 'billing',
      assigned_user_id: agent.id,
      assigned_team_id: team.id,
      tags: ['vat', 'billing'],
    });
    await req('PATCH', `/v1/tickets/${first.id}`, { status: 'resolved', due_date: '2030-01-31T09:15:02.123Z' });
    const second = await req('POST', '/v1/tickets', {
      customer_name: 'Bob',
      customer_email: 'bob@example.com',
      subject: 'Cannot log in',
      description: 'Password reset mail never arrives',
    });
    await req('PATCH', `/v1/tickets/${second.id}`, { status: 'closed', add_tags: ['billing', 'login'] });
    const gone = await createTicket(source);
    await req('DELETE', `/v1/tickets/${gone}`);
    await req('POST', '/v1/tickets', { customer_name: 'Bob', customer_email: 'bob@example.com', subject: 'Third', description: 'Open one' });
    await req('POST', `/v1/tickets/${first.id}/comments`, { body: 'We are looking into it', author_user_id: agent.id });
    await req('POST', `/v1/tickets/${first.id}/comments`, { body: 'Internal: VAT bug', is_internal: true });

    const uploads: Array<[string, string, string, Buffer]> = [
      [first.id, 'notes.txt', 'text/plain', Buffer.from('plain text ✓\n')],
      // Larger than one export line's chunk, so the file spans several lines.
      [first.id, 'logs.zip', 'application/zip', Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(700_000)])],
      [second.id, 'page.html', 'text/html', Buffer.from('<p>hello</p>')],
    ];
    for (const [ticketId, name, type, bytes] of uploads) {
      const res = await upload(source, ticketId, name, type, bytes);
      expect(res.statusCode, res.body).toBe(201);
      files.set(res.json<{ id: string }>().id, { ticketId, bytes });
    }
    readonlyKey = await source.org.key({ role: 'readonly', name: 'dashboard' });
    await req('POST', '/v1/webhooks', { url: 'https://hooks.example.com/ticketing', events: ['ticket.created'], description: 'CRM sync' });

    // Another organization of the same store must not leak into the export.
    const other = await source.newOrg('Other');
    const res = await source.request({
      method: 'POST',
      url: '/v1/tickets',
      key: other.adminKey,
      body: { customer_name: 'Eve', customer_email: 'eve@example.com', subject: 'Other org secret', description: 'x' },
    });
    expect(res.statusCode).toBe(201);

    before = await snapshot(source, source.org.adminKey);
  });

  afterAll(async () => {
    await source?.close();
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('export writes the organization as NDJSON to --out, reporting on stderr only', async () => {
    const res = await run(source, ['export', '--org', source.org.id, '--out', exportFile]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('3 tickets');
    expect(res.stderr).toContain('3 attachments');
    expect(existsSync(`${exportFile}.partial`)).toBe(false);
    const lines = readFileSync(exportFile, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ format: 'ticketing-export', version: 1, organization_id: source.org.id });
    expect(lines.at(-1)).toEqual({
      type: 'end',
      counts: { organizations: 1, users: 2, customers: 2, teams: 2, team_members: 2, tickets: 3, ticket_tags: 4, tag_counts: 3, ticket_fields: 2,
        ticket_field_values: 2, views: 1, macros: 0, triggers: 0, trigger_cursors: 0, trigger_runs: 0, automations: 0, automation_runs: 0, business_hours: 1, sla_policies: 0, comments: 2,
        attachments: 3, api_keys: 2, events: 20, event_counters: 1, webhook_endpoints: 1, webhook_deliveries: 0,
        mailboxes: 0, mail_messages: 0, mail_outbox: 0, files: 3 },
    });
    expect(readFileSync(exportFile, 'utf8')).not.toContain('Other org secret');
    expect(before.tags).toEqual([{ tag: 'billing', ticket_count: 2 }, { tag: 'login', ticket_count: 1 }, { tag: 'vat', ticket_count: 1 }]);
    expect(before.tagged).toHaveLength(2);
    expect(before.fields).toHaveLength(2);
    expect(before.byField).toHaveLength(1);
    // Key hashes travel, plain keys never do.
    expect(readFileSync(exportFile, 'utf8')).not.toContain(source.org.adminKey);
  });

  it('import recreates every record and file exactly; keys keep working', async () => {
    const diskBefore = filesOnDisk(target).length;
    const res = await run(target, ['import', '--in', exportFile]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`${source.org.id}\n`);
    expect(res.stderr).toContain('Imported organization');

    expect(await snapshot(target, source.org.adminKey)).toEqual(before);
    const ro = await target.request({ method: 'GET', url: '/v1/test', key: readonlyKey });
    expect(ro.statusCode).toBe(200);
    expect(ro.json<{ key_prefix: string }>().key_prefix).toBe(readonlyKey.slice(0, 'key_ro_'.length + 6));
    for (const [id, { ticketId, bytes }] of files) {
      expect((await download(target, source.org.adminKey, ticketId, id)).equals(bytes)).toBe(true);
    }
    // Published, nothing left in staging.
    if (target.config.storageBackend === 'disk') expect(filesOnDisk(target).length).toBe(diskBefore + files.size);
    expect(await leftovers(target, source.org.id)).toBe(0);
    // The target's own organization is untouched.
    expect((await target.request({ method: 'GET', url: '/v1/test' })).statusCode).toBe(200);
  });

  it('a re-export of the imported organization is the original export, line for line', async () => {
    const again = join(dir, 'again.ndjson');
    const res = await run(target, ['export', '--org', source.org.id, '--out', again]);
    expect(res.code, res.stderr).toBe(0);
    expect(exportBody(again)).toEqual(exportBody(exportFile));
  });

  // The upgrade path: the same export moves between SQLite and PostgreSQL in either direction.
  it.runIf(TEST_STORE === 'postgres')('moves between dialects: PostgreSQL -> SQLite -> same records, files and export', async () => {
    const sqliteDir = mkdtempSync(join(tmpdir(), 'ticketing-sqlite-'));
    const sqlite = { dataDir: sqliteDir, config: loadConfig({ DATA_DIR: sqliteDir, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:8080' }) };
    const store = openStore({ dataDir: sqliteDir });
    let app: FastifyInstance | undefined;
    try {
      expect(sqlite.config.storageBackend).toBe('disk');
      const imported = await run(sqlite, ['import', '--in', exportFile]);
      expect(imported.code, imported.stderr).toBe(0);
      const again = join(dir, 'from-sqlite.ndjson');
      expect((await run(sqlite, ['export', '--org', source.org.id, '--out', again])).code).toBe(0);
      expect(exportBody(again)).toEqual(exportBody(exportFile));

      app = await buildApp({ config: sqlite.config, store, blobs: openBlobStore(sqlite.config, store) });
      const api = {
        app,
        request: (o: { method: 'GET'; url: string; key?: string | null }) =>
          app!.inject({ method: o.method, url: o.url, headers: o.key ? { authorization: `Bearer ${o.key}` } : {} }),
      };
      expect(await snapshot(api as Pick<TestApp, 'request'>, source.org.adminKey)).toEqual(before);
      for (const [id, { ticketId, bytes }] of files) {
        expect((await download(api as Pick<TestApp, 'request' | 'app'>, source.org.adminKey, ticketId, id)).equals(bytes)).toBe(true);
      }
    } finally {
      await app?.close();
      await store.close();
      rmSync(sqliteDir, { recursive: true, force: true });
    }
  });

  it('ticket numbering continues after the counter, gaps included, and search works on imported tickets', async () => {
    const created = await target.request({
      method: 'POST',
      url: '/v1/tickets',
      key: source.org.adminKey,
      body: { customer_name: 'Ada Lovelace', customer_email: 'ADA@example.com', subject: 'New one', description: 'after import' },
    });
    expect(created.statusCode).toBe(201);
    // Four tickets were created in the source (one deleted): the next number is 5.
    expect(created.json()).toMatchObject({ ticket_number: 5, ticket_display_id: 'TKT-5' });
    const ada = (before['/v1/customers'] as Array<{ id: string; email: string }>).find((c) => c.email === 'ada@example.com')!;
    expect(created.json<{ customer_id: string }>().customer_id).toBe(ada.id);

    const search = async (term: string): Promise<string[]> => {
      const res = await target.request({ method: 'GET', url: `/v1/tickets?search=${encodeURIComponent(term)}`, key: source.org.adminKey });
      expect(res.statusCode).toBe(200);
      return res.json<Array<{ subject: string }>>().map((t) => t.subject);
    };
    expect(await search('wrong total')).toEqual(['Invoice shows the wrong total']);
    expect(await search('VAT TWICE')).toEqual(['Invoice shows the wrong total']);
    expect(await search('bob@example')).toEqual(['Third', 'Cannot log in']);
    expect(await search('TKT-2')).toEqual(['Cannot log in']);
  });

  it('import refuses an organization that already exists, changing nothing', async () => {
    const tickets = (await target.request({ method: 'GET', url: '/v1/tickets', key: source.org.adminKey })).json<unknown[]>().length;
    const res = await run(target, ['import', '--in', exportFile]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('already exists');
    expect((await target.request({ method: 'GET', url: '/v1/tickets', key: source.org.adminKey })).json<unknown[]>()).toHaveLength(tickets);
  });

  describe('all or nothing', () => {
    let fresh: TestApp;
    beforeAll(async () => {
      fresh = await buildTestApp();
    });
    afterAll(async () => {
      await fresh.close();
    });

    const lines = () => readFileSync(exportFile, 'utf8').trimEnd().split('\n');

    /** Imports `content` into `fresh`, expects failure, and checks nothing of it was kept. */
    async function expectRefused(content: string, message: RegExp): Promise<void> {
      const file = join(dir, `broken-${randomBytes(4).toString('hex')}.ndjson`);
      writeFileSync(file, content);
      const diskBefore = filesOnDisk(fresh).sort();
      const res = await run(fresh, ['import', '--in', file]);
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
      expect((await fresh.request({ method: 'GET', url: '/v1/test', key: source.org.adminKey })).statusCode).toBe(401);
      const organizations = await fresh.store.db.selectFrom('organizations').select('id').where('id', '=', source.org.id).execute();
      expect(organizations).toEqual([]);
      const tickets = await fresh.store.db.selectFrom('tickets').select('id').where('organization_id', '=', source.org.id).execute();
      expect(tickets).toEqual([]);
      expect(filesOnDisk(fresh).sort()).toEqual(diskBefore);
      const blobs = await fresh.store.db.selectFrom('attachment_blobs').select('id').where('organization_id', '=', source.org.id).execute();
      expect(blobs).toEqual([]);
      expect(await leftovers(fresh, source.org.id)).toBe(0);
    }

    it('a truncated export (no end record) imports nothing', async () => {
      await expectRefused(`${lines().slice(0, -1).join('\n')}\n`, /ends early.*incomplete/);
    });

    it('a file whose bytes were altered imports nothing', async () => {
      const all = lines();
      const index = all.findIndex((l) => l.includes('"type":"file"'));
      const line = JSON.parse(all[index]!) as { data: string };
      const bytes = Buffer.from(line.data, 'base64');
      bytes[0] = bytes[0]! ^ 0xff;
      all[index] = JSON.stringify({ ...line, data: bytes.toString('base64') });
      await expectRefused(`${all.join('\n')}\n`, /damaged/);
    });

    it('a row the store rejects halfway through rolls back every row already inserted', async () => {
      // A duplicated comment passes every check of the file and fails on its primary key, after
      // the organization, users, customers, teams and tickets are inserted.
      const all = lines();
      const comment = all.find((l) => l.includes('"table":"comments"'))!;
      const end = JSON.parse(all.at(-1)!) as { counts: Record<string, number> };
      end.counts.comments! += 1;
      const patched = [...all.slice(0, -1), comment, JSON.stringify(end)];
      await expectRefused(`${patched.join('\n')}\n`, /.+/);
    });

    it('a row of another organization, an unknown column or a line that is not JSON is refused', async () => {
      const all = lines();
      const userIndex = all.findIndex((l) => l.includes('"table":"users"'));
      const user = JSON.parse(all[userIndex]!) as { row: Record<string, unknown> };
      const foreign = [...all];
      foreign[userIndex] = JSON.stringify({ ...user, row: { ...user.row, organization_id: target.org.id } });
      await expectRefused(`${foreign.join('\n')}\n`, /another organization/);
      const extra = [...all];
      extra[userIndex] = JSON.stringify({ ...user, row: { ...user.row, password: 'x' } });
      await expectRefused(`${extra.join('\n')}\n`, /unknown column "password"/);
      const garbage = [...all];
      garbage[userIndex] = '{not json';
      await expectRefused(`${garbage.join('\n')}\n`, new RegExp(`Line ${userIndex + 1} of the export: not valid JSON`));
    });

    it('a file that is not an export is refused', async () => {
      await expectRefused('{"hello":"world"}\n', /Not a ticketing export/);
    });
  });

  it("an earlier version's export imports brought up to date: endpoints get a resource limit, events lose tracking tokens", async () => {
    const older = await buildTestApp();
    try {
      const token = randomUUID();
      const all = readFileSync(exportFile, 'utf8').trimEnd().split('\n').map((line) => {
        const record = JSON.parse(line) as { type: string; table?: string; row?: Record<string, unknown> };
        if (record.table === 'webhook_endpoints') {
          const row = { ...record.row };
          delete row.resource_types;
          return JSON.stringify({ ...record, row });
        }
        if (record.table === 'events' && record.row?.type === 'ticket.updated') {
          const data = JSON.parse(String(record.row.data)) as { object: Record<string, unknown>; changes: Record<string, unknown> | null };
          const stale = { object: { ...data.object, tracking_token: token }, changes: { ...data.changes, tracking_token: { old: token, new: token } } };
          return JSON.stringify({ ...record, row: { ...record.row, data: JSON.stringify(stale) } });
        }
        return line;
      });
      expect(all.join('\n')).toContain(token);
      const file = join(dir, 'older.ndjson');
      writeFileSync(file, `${all.join('\n')}\n`);
      const res = await run(older, ['import', '--in', file]);
      expect(res.code, res.stderr).toBe(0);
      const endpoints = await older.store.db.selectFrom('webhook_endpoints').select('resource_types').where('organization_id', '=', source.org.id).execute();
      expect(endpoints.map((e) => JSON.parse(e.resource_types) as unknown)).toEqual([['ticket']]);
      const events = await older.store.db.selectFrom('events').select('data').where('organization_id', '=', source.org.id).execute();
      expect(JSON.stringify(events)).not.toContain(token);
      expect(events.some((e) => e.data.includes('"tracking_token":{"changed":true}'))).toBe(true);
    } finally {
      await older.close();
    }
  });

  it('export writes to standard output without --out, and import reads standard input without --in', async () => {
    const small = await buildTestApp();
    const copy = await buildTestApp();
    try {
      const ticket = await createTicket(small);
      const exported = await run(small, ['export', '--org', small.org.id]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout.split('\n')[0]).toContain('"format":"ticketing-export"');
      const imported = await run(copy, ['import'], exported.stdout);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toBe(`${small.org.id}\n`);
      const res = await copy.request({ method: 'GET', url: `/v1/tickets/${ticket}`, key: small.org.adminKey });
      expect(res.statusCode).toBe(200);
    } finally {
      await small.close();
      await copy.close();
    }
  });
});
