import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real Dovecot IMAP server for tests, with its own configuration in a temporary directory on a
 * free port (plain IMAP on 127.0.0.1, users with plain passwords in a passwd-file, Maildirs in the
 * directory). Needs the `dovecot` binary (apt-get install dovecot-imapd): `available()` says
 * whether it is there; under CI=true its absence is a failure, never a skip. Dovecot refuses to run
 * its login processes as root: they run as its own `dovenull` and `dovecot` users, and the mail as
 * `dovecot` (first_valid_uid = 100).
 */
export class Dovecot {
  readonly dir: string;
  port = 0;

  private constructor(dir: string) {
    this.dir = dir;
  }

  static available(): boolean {
    try {
      execFileSync('dovecot', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  static async start(users: Record<string, string>): Promise<Dovecot> {
    const server = new Dovecot(mkdtempSync(join(tmpdir(), 'ticketing-dovecot-')));
    // Its auth and mail processes run as its own users: they must be able to read in here.
    chmodSync(server.dir, 0o755);
    server.port = await freePort();
    const uid = Number(execFileSync('id', ['-u', 'dovecot']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'dovecot']).toString().trim());
    const mail = join(server.dir, 'mail');
    mkdirSync(mail);
    chownSync(mail, uid, gid);
    writeFileSync(join(server.dir, 'passwd'), Object.entries(users).map(([user, password]) => `${user}:{PLAIN}${password}::::::\n`).join(''));
    const conf = `
protocols = imap
listen = 127.0.0.1
base_dir = ${server.dir}/run
state_dir = ${server.dir}/state
log_path = ${server.dir}/dovecot.log
info_log_path = ${server.dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 100
default_internal_user = dovecot
default_internal_group = dovecot
default_login_user = dovenull
mail_location = maildir:${mail}/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${server.dir}/passwd
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${mail}/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${server.port}
  }
  inet_listener imaps {
    port = 0
  }
}
service pop3-login {
  inet_listener pop3 {
    port = 0
  }
}
`;
    writeFileSync(join(server.dir, 'dovecot.conf'), conf);
    // It forks into the background: its output must not be a pipe this process waits on.
    execFileSync('dovecot', ['-c', join(server.dir, 'dovecot.conf')], { stdio: 'ignore' });
    await waitForPort(server.port);
    return server;
  }

  /** Drops every connection of `user` (doveadm kick), as a server restart or a network cut would. */
  kick(user: string): void {
    execFileSync('doveadm', ['-c', join(this.dir, 'dovecot.conf'), 'kick', user], { stdio: 'ignore' });
  }

  async stop(): Promise<void> {
    const pidFile = join(this.dir, 'run', 'master.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
      for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForPort(port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Dovecot did not listen on ${port}`);
}
