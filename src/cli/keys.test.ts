import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../auth/keys.service.js';
import { openStore } from '../db/store.js';
import { cliSandbox } from '../../test/helpers/cli.js';

const cli = cliSandbox('ticketing-cli-keys-');
const run = (...argv: string[]) => cli.run(...argv);

/** Adds a key straight to the store (for states the CLI cannot make, such as an expired key). */
async function addKey(orgId: string, options: { name: string; expiresAt?: string }): Promise<string> {
  const store = openStore({ dataDir: cli.dataDir });
  try {
    return (await createApiKey(store.db, { organizationId: orgId, role: 'admin', ...options })).key;
  } finally {
    await store.close();
  }
}

async function newOrg(name = 'Acme'): Promise<string> {
  const org = await run('orgs', 'create', '--name', name);
  expect(org.code).toBe(0);
  return org.stdout.trim();
}

async function newKey(...args: string[]): Promise<string> {
  const res = await run('keys', 'create', ...args);
  expect(res.code, res.stderr).toBe(0);
  return res.stdout.trim();
}

/** The table's data rows split on runs of two or more spaces, keyed by column header. */
function parseTable(stdout: string): Record<string, string>[] {
  const [header, ...lines] = stdout.trimEnd().split('\n');
  const starts = [...header!.matchAll(/(\S+(?: \S+)*)/g)].map((m) => ({ name: m[1]!, at: m.index }));
  return lines.map((line) =>
    Object.fromEntries(starts.map((c, i) => [c.name, line.slice(c.at, starts[i + 1]?.at ?? line.length).trim()])),
  );
}

describe('ticketing keys list', () => {
  it('prints a table of the keys, newest first, with prefix, name, role, scopes and dates', async () => {
    const orgId = await newOrg();
    const admin = await newKey('--name', 'deploy bot');
    const ro = await newKey('--role', 'readonly', '--name', 'dashboard');
    const narrow = await newKey('--scopes', 'tickets:read,teams:write', '--name', 'narrow');
    expect((await cli.call(admin)).status).toBe(200);

    const res = await run('keys', 'list');
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`3 key(s) in organization ${orgId}`);
    const header = res.stdout.split('\n')[0]!;
    expect(header.split(/ {2,}/)).toEqual(['ID', 'PREFIX', 'NAME', 'ROLE', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED']);
    const rows = parseTable(res.stdout);
    expect(rows.map((r) => r.NAME)).toEqual(['narrow', 'dashboard', 'deploy bot']);
    expect(rows.map((r) => r.PREFIX)).toEqual([narrow, ro, admin].map((k) => k.slice(0, k.startsWith('key_ro_') ? 13 : 16)));
    expect(rows.map((r) => r.ROLE)).toEqual(['admin', 'readonly', 'admin']);
    expect(rows.map((r) => r.SCOPES)).toEqual(['tickets:read,teams:write', 'all :read', 'all']);
    for (const row of rows) {
      expect(row.ID).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.CREATED).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(row.REVOKED).toBe('-');
    }
    expect(rows[1]!.EXPIRES).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(rows[2]!.EXPIRES).toBe('-');
    // Only the key that was used has a last use.
    expect(rows[2]!['LAST USED']).toMatch(/^\d{4}-/);
    expect(rows[0]!['LAST USED']).toBe('-');
    // The plain keys never appear.
    for (const key of [admin, ro, narrow]) expect(res.stdout + res.stderr).not.toContain(key);
  });

  it('marks expired keys, keeps names on one line, and lists only the organization asked for', async () => {
    const first = await newOrg('First');
    const second = await newOrg('Second');
    await newKey('--org', first, '--name', 'in first');
    await addKey(second, { name: 'tab\there\nnewline', expiresAt: new Date(Date.now() - 1000).toISOString() });

    const res = await run('keys', 'list', '--org', second);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('tab here newline');
    expect(lines[1]).toMatch(/Z \(expired\)/);
    expect(res.stdout).not.toContain('in first');
  });

  it('on an organization without keys prints only the header', async () => {
    await newOrg();
    const res = await run('keys', 'list');
    expect(res.code).toBe(0);
    expect(res.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('0 key(s)');
  });

  it('refuses an unknown organization', async () => {
    await newOrg();
    const res = await run('keys', 'list', '--org', '00000000-0000-4000-8000-000000000000');
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toContain('not found');
  });
});

describe('ticketing keys revoke', () => {
  it('revokes by id: the key is refused at once, and the list shows when', async () => {
    await newOrg();
    const key = await newKey('--name', 'leaked');
    const keeper = await newKey('--name', 'keeper');
    const id = parseTable((await run('keys', 'list')).stdout).find((r) => r.NAME === 'leaked')!.ID!;
    expect((await cli.call(key)).status).toBe(200);

    const res = await run('keys', 'revoke', id);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`${id}\n`);
    expect(res.stderr).toContain('Revoked admin key');
    expect((await cli.call(key)).status).toBe(401);
    expect((await cli.call(keeper)).status).toBe(200);

    const rows = parseTable((await run('keys', 'list')).stdout);
    expect(rows.find((r) => r.NAME === 'leaked')!.REVOKED).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(rows.find((r) => r.NAME === 'keeper')!.REVOKED).toBe('-');

    // Again: nothing changes, and it says so.
    const again = await run('keys', 'revoke', id.toUpperCase());
    expect(again).toMatchObject({ code: 0, stdout: `${id}\n` });
    expect(again.stderr).toContain('already revoked');
  });

  it('revokes by prefix and by the whole key', async () => {
    await newOrg();
    const byPrefix = await newKey('--role', 'readonly');
    const byKey = await newKey();
    const prefix = byPrefix.slice(0, 'key_ro_'.length + 6);
    expect((await run('keys', 'revoke', prefix)).code).toBe(0);
    expect((await cli.call(byPrefix)).status).toBe(401);
    expect((await cli.call(byKey)).status).toBe(200);
    expect((await run('keys', 'revoke', byKey)).code).toBe(0);
    expect((await cli.call(byKey)).status).toBe(401);
  });

  it('refuses an ambiguous prefix, naming the matches, and revokes nothing', async () => {
    const orgId = await newOrg();
    // Two keys whose prefixes share five characters of the secret (rare by chance, so made here).
    const ids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    const store = openStore({ dataDir: cli.dataDir });
    try {
      for (const [i, id] of ids.entries()) {
        await store.db
          .insertInto('api_keys')
          .values({ id, organization_id: orgId, name: `twin ${i}`, key_hash: `${i}`.repeat(64), key_prefix: `key_admin_AbCdE${i}`, role: 'admin', scopes: '[]', holder_user_id: null, created_at: new Date().toISOString() })
          .execute();
      }
    } finally {
      await store.close();
    }
    const res = await run('keys', 'revoke', 'key_admin_AbCdE');
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toContain('matches 2 keys');
    for (const id of ids) expect(res.stderr).toContain(id);
    expect(parseTable((await run('keys', 'list')).stdout).map((r) => r.REVOKED)).toEqual(['-', '-']);

    // 'key_admin_' alone is no prefix: at least one character of the secret is needed.
    expect((await run('keys', 'revoke', 'key_admin_')).stderr).toContain('no key matches');
    // A longer prefix picks one.
    expect(await run('keys', 'revoke', 'key_admin_AbCdE1')).toMatchObject({ code: 0, stdout: `${ids[1]}\n` });
  });

  it("refuses a key of another organization, an unknown id, and junk", async () => {
    const first = await newOrg('First');
    const second = await newOrg('Second');
    const theirs = await newKey('--org', second);
    const theirId = parseTable((await run('keys', 'list', '--org', second)).stdout)[0]!.ID!;
    for (const ref of [theirId, theirs, theirs.slice(0, 16), '00000000-0000-4000-8000-000000000000', 'junk']) {
      const res = await run('keys', 'revoke', ref, '--org', first);
      expect(res, ref).toMatchObject({ code: 1, stdout: '' });
      expect(res.stderr).toContain(`no key matches '${ref}' in organization ${first}`);
    }
    expect((await cli.call(theirs)).status).toBe(200);
  });

  it('answers usage errors with exit code 2 and opens nothing', async () => {
    for (const argv of [['keys', 'revoke'], ['keys', 'revoke', 'a', 'b'], ['keys', 'list', 'extra'], ['keys', 'list', '--role', 'admin'], ['keys', 'revoke', 'x', '--name', 'y']]) {
      const res = await run(...argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain('Usage: ticketing');
    }
    expect(existsSync(join(cli.dataDir, 'ticketing.sqlite'))).toBe(false);
  });

  it('describes list and revoke in the help', async () => {
    const res = await run('help');
    expect(res.stderr).toContain('keys list');
    expect(res.stderr).toContain('keys revoke');
  });
});
