import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSandbox } from '../../test/helpers/cli.js';

const cli = cliSandbox('ticketing-cli-');
const run = (...argv: string[]) => cli.run(...argv);

describe('ticketing CLI', () => {
  it('migrate applies the migrations once, reporting on stderr only', async () => {
    const first = await run('migrate');
    expect(first).toMatchObject({ code: 0, stdout: '' });
    expect(first.stderr).toContain('0001_create_core_tables');
    const second = await run('migrate');
    expect(second).toMatchObject({ code: 0, stdout: '' });
    expect(second.stderr).toContain('up to date');
  });

  it('orgs create prints the new id alone, and keys create makes a working key in it', async () => {
    const org = await run('orgs', 'create', '--name', 'Acme');
    expect(org.code).toBe(0);
    expect(org.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const orgId = org.stdout.trim();

    const key = await run('keys', 'create', '--org', orgId, '--name', 'ci');
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^key_admin_[0-9A-Za-z]{38}\n$/);
    expect(key.stderr).toContain(orgId);

    const res = await cli.call<{ scopes?: string[]; key_prefix?: string }>(key.stdout.trim());
    expect(res.status).toBe(200);
    expect(res.body.scopes).toContain('tickets:delete');
  });

  it('orgs list prints every organization oldest first, with its ticket count, as a table', async () => {
    const empty = await run('orgs', 'list');
    expect(empty).toMatchObject({ code: 0, stdout: 'ID  CREATED  TICKETS  NAME\n' });
    expect(empty.stderr).toContain('0 organization(s)');
    const first = (await run('orgs', 'create', '--name', 'First')).stdout.trim();
    const second = (await run('orgs', 'create', '--name', 'Second  Co')).stdout.trim();
    const listed = await run('orgs', 'list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+CREATED\s+TICKETS\s+NAME$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      [first, expect.stringMatching(/^\d{4}-\d\d-\d\dT/), '0', 'First'],
      [second, expect.stringMatching(/^\d{4}-\d\d-\d\dT/), '0', 'Second Co'],
    ]);
    expect(listed.stderr).toContain('2 organization(s)');
    expect((await run('orgs', 'list', '--all')).code).toBe(2);
  });

  it('keys create defaults to the first organization and honours --role and --scopes', async () => {
    await run('orgs', 'create', '--name', 'First');
    const key = await run('keys', 'create', '--role', 'readonly', '--scopes', 'tickets:read,customers:read');
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^key_ro_\w+\n$/);
    const res = await cli.call<{ scopes?: string[]; key_prefix?: string }>(key.stdout.trim());
    expect(res.status).toBe(200);
    expect(res.body.scopes).toEqual(['tickets:read', 'customers:read']);
  });

  it('refuses a read-only key with write scopes, writing nothing to stdout', async () => {
    await run('orgs', 'create', '--name', 'First');
    const res = await run('keys', 'create', '--role', 'readonly', '--scopes', 'tickets:read,tickets:write');
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toMatch(/--scopes: .*read-only.*tickets:write/);
  });

  it('refuses unknown scopes, an unknown role and an unknown organization', async () => {
    await run('orgs', 'create', '--name', 'First');
    const scopes = await run('keys', 'create', '--scopes', 'tickets:read,tickets:fly');
    expect(scopes).toMatchObject({ code: 1, stdout: '' });
    expect(scopes.stderr).toContain('tickets:fly');

    const role = await run('keys', 'create', '--role', 'owner');
    expect(role).toMatchObject({ code: 1, stdout: '' });
    expect(role.stderr).toContain('--role');

    const org = await run('keys', 'create', '--org', '00000000-0000-4000-8000-000000000000');
    expect(org).toMatchObject({ code: 1, stdout: '' });
    expect(org.stderr).toContain('not found');
  });

  it('keys create on an empty store explains how to get an organization', async () => {
    const res = await run('keys', 'create');
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr).toContain('orgs create');
  });

  it('answers usage errors with the usage text on stderr and exit code 2', async () => {
    for (const argv of [['frobnicate'], [], ['keys'], ['keys', 'delete'], ['orgs'], ['orgs', 'delete'], ['orgs', 'create'], ['keys', 'create', '--colour', 'red']]) {
      const res = await run(...argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain('Usage: ticketing');
    }
    // Nothing was opened or created for a command that was not understood.
    expect(existsSync(join(cli.dataDir, 'ticketing.sqlite'))).toBe(false);
  });

  it('prints help on request with exit code 0', async () => {
    for (const argv of [['help'], ['--help'], ['keys', 'create', '--help']]) {
      const res = await run(...argv);
      expect(res).toMatchObject({ code: 0, stdout: '' });
      expect(res.stderr).toContain('keys create');
    }
  });

  it('reports a configuration error in one line with exit code 1', async () => {
    cli.env = { ...cli.env, PORT: 'eighty' };
    const res = await run('migrate');
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('PORT');
  });
});
