import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dovecot } from '../../test/helpers/dovecot.js';
import { cliSandbox, runMain } from '../../test/helpers/cli.js';

// `ticketing mailboxes`: add (IMAP password from standard input), list, test against a real
// Dovecot (a right and a wrong password), remove.

const cli = cliSandbox('ticketing-mailboxes-cli-');
const USER = 'help@cli.example';
const PASSWORD = 'imap-cli-secret';
const available = Dovecot.available();
if (!available && process.env.CI === 'true') throw new Error('dovecot is not installed (apt-get install dovecot-imapd): the IMAP tests cannot run');

let dovecot: Dovecot | undefined;
beforeAll(async () => {
  if (available) dovecot = await Dovecot.start({ [USER]: PASSWORD });
});
afterAll(async () => {
  await dovecot?.stop();
});

const env = () => ({ ...cli.env, MAIL_ALLOW_PRIVATE: 'true' });

describe('ticketing mailboxes', () => {
  it('adds, lists and removes mailboxes; a duplicate address and bad options are refused', async () => {
    expect((await cli.run('orgs', 'create', '--name', 'Acme')).code).toBe(0);
    const added = await runMain(['mailboxes', 'add', '--address', 'Support@Acme.example', '--name', 'Acme Support'], env());
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(added.stderr).toContain('the default');
    const listener = await runMain(['mailboxes', 'add', '--address', 'sales@acme.example', '--name', 'Sales', '--inbound', 'smtp', '--no-auto-reply'], env());
    expect(listener.code, listener.stderr).toBe(0);

    const list = await runMain(['mailboxes', 'list'], env());
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/support@acme\.example\s+none\s+active\s+yes\s+Acme Support/);
    expect(list.stdout).toMatch(/sales@acme\.example\s+smtp\s+active\s+Sales/);

    const again = await runMain(['mailboxes', 'add', '--address', 'support@acme.example', '--name', 'Again'], env());
    expect(again).toMatchObject({ code: 1 });
    expect(again.stderr).toContain('already has a mailbox for support@acme.example');
    const badType = await runMain(['mailboxes', 'add', '--address', 'x@acme.example', '--name', 'X', '--inbound', 'pop3'], env());
    expect(badType.code).toBe(1);
    expect(badType.stderr).toContain('--inbound must be imap, smtp or none');
    const noPassword = await runMain(['mailboxes', 'add', '--address', 'y@acme.example', '--name', 'Y', '--imap-host', 'imap.acme.example', '--imap-user', 'y'], env(), '');
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toContain('standard input');
    expect((await runMain(['mailboxes', 'add', '--name', 'No address'], env())).code).toBe(2);

    const removed = await runMain(['mailboxes', 'remove', 'sales@acme.example'], env());
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout.trim()).toBe(listener.stdout.trim());
    expect((await runMain(['mailboxes', 'list'], env())).stdout).not.toContain('sales@');
    const missing = await runMain(['mailboxes', 'remove', 'sales@acme.example'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no mailbox sales@acme.example');
  });

  it.skipIf(!available)('tests an IMAP mailbox: signs in and opens its folder; a refused password exits 1 with the server\'s words', async () => {
    expect((await cli.run('orgs', 'create', '--name', 'Acme')).code).toBe(0);
    const port = String(dovecot!.port);
    const args = ['--imap-host', '127.0.0.1', '--imap-port', port, '--imap-security', 'none', '--imap-user', USER];
    const good = await runMain(['mailboxes', 'add', '--address', USER, '--name', 'Help', ...args], env(), `${PASSWORD}\n`);
    expect(good.code, good.stderr).toBe(0);
    expect(good.stderr).not.toContain(PASSWORD);
    const ok = await runMain(['mailboxes', 'test', USER], env());
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok 127\.0\.0\.1:\d+ INBOX messages=0\n$/);
    expect((await runMain(['mailboxes', 'list'], env())).stdout).not.toContain(PASSWORD);

    const bad = await runMain(['mailboxes', 'add', '--address', 'wrong@cli.example', '--name', 'Wrong', ...args], env(), 'not the password\n');
    expect(bad.code, bad.stderr).toBe(0);
    const refused = await runMain(['mailboxes', 'test', 'wrong@cli.example'], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/wrong@cli\.example: 127\.0\.0\.1:\d+ refused: .*(auth|Auth)/);
  });
});
