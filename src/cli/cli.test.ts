import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openStore } from '../db/store.js';
import { DiskBlobStore } from '../storage/disk-store.js';
import { main } from './main.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let dataDir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'ticketing-cli-'));
  env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

async function run(...argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const code = await main(argv, io, env);
  return { code, stdout, stderr };
}

/** Calls GET /v1/test with a key against the app built over the CLI's data directory. */
async function keyTest(key: string): Promise<{ status: number; body: { scopes?: string[]; key_prefix?: string } }> {
  const config = loadConfig(env);
  const store = openStore({ dataDir: config.dataDir });
  const app = await buildApp({ config, store, blobs: new DiskBlobStore(join(dataDir, 'attachments')) });
  try {
    const res = await app.inject({ method: 'GET', url: '/v1/test', headers: { authorization: `Bearer ${key}` } });
    return { status: res.statusCode, body: res.json() };
  } finally {
    await app.close();
    await store.close();
  }
}

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

    const res = await keyTest(key.stdout.trim());
    expect(res.status).toBe(200);
    expect(res.body.scopes).toContain('tickets:delete');
  });

  it('keys create defaults to the first organization and honours --role and --scopes', async () => {
    await run('orgs', 'create', '--name', 'First');
    const key = await run('keys', 'create', '--role', 'readonly', '--scopes', 'tickets:read,customers:read');
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^key_ro_\w+\n$/);
    const res = await keyTest(key.stdout.trim());
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
    for (const argv of [['frobnicate'], [], ['keys'], ['keys', 'delete'], ['orgs', 'create'], ['keys', 'create', '--colour', 'red']]) {
      const res = await run(...argv);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain('Usage: ticketing');
    }
    // Nothing was opened or created for a command that was not understood.
    expect(existsSync(join(dataDir, 'ticketing.sqlite'))).toBe(false);
  });

  it('prints help on request with exit code 0', async () => {
    for (const argv of [['help'], ['--help'], ['keys', 'create', '--help']]) {
      const res = await run(...argv);
      expect(res).toMatchObject({ code: 0, stdout: '' });
      expect(res.stderr).toContain('keys create');
    }
  });

  it('reports a configuration error in one line with exit code 1', async () => {
    env = { ...env, PORT: 'eighty' };
    const res = await run('migrate');
    expect(res).toMatchObject({ code: 1, stdout: '' });
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain('PORT');
  });
});
