import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openStore } from '../db/store.js';
import { openBlobStore } from '../storage/open-blob-store.js';
import { cliSandbox, runMain } from '../../test/helpers/cli.js';

const cli = cliSandbox('ticketing-users-cli-');

/** Signs in through an app built over the CLI's store; resolves to the status. */
async function signIn(email: string, password: string): Promise<{ status: number; role?: string }> {
  const config = loadConfig(cli.env);
  const store = openStore({ dataDir: config.dataDir });
  const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
  try {
    const res = await app.inject({ method: 'POST', url: '/v1/sessions', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, password }) });
    return { status: res.statusCode, ...(res.statusCode === 201 ? { role: res.json<{ user: { role: string } }>().user.role } : {}) };
  } finally {
    await app.close();
    await store.close();
  }
}

describe('ticketing users', () => {
  it('creates the first admin and sets their password from standard input, printing nothing secret', async () => {
    expect((await cli.run('orgs', 'create', '--name', 'Acme')).code).toBe(0);
    const created = await cli.run('users', 'create', '--email', 'Ada@Example.com', '--name', 'Ada Lovelace', '--role', 'admin');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(await signIn('ada@example.com', 'analytical engine 1843')).toEqual({ status: 401 });

    const set = await runMain(['users', 'set-password', 'ada@example.com'], cli.env, 'analytical engine 1843\nignored second line\n');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('');
    expect(set.stderr).not.toContain('analytical');
    expect(await signIn('ADA@example.com', 'analytical engine 1843')).toEqual({ status: 201, role: 'admin' });
  });

  it('refuses a short password, an unknown email and a missing EMAIL', async () => {
    await cli.run('orgs', 'create', '--name', 'Acme');
    await cli.run('users', 'create', '--email', 'b@example.com', '--name', 'B');
    const short = await runMain(['users', 'set-password', 'b@example.com'], cli.env, 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/12 to 256 characters/);
    const unknown = await runMain(['users', 'set-password', 'nobody@example.com'], cli.env, 'long enough password\n');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user with the email nobody@example.com/);
    expect((await cli.run('users', 'set-password')).code).toBe(2);
    expect((await cli.run('users', 'create', '--email', 'c@example.com', '--name', 'C', '--role', 'boss')).code).toBe(1);
  });
});
