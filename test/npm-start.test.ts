import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, root, waitFor } from './helpers/processes.js';

/** Whether something accepts TCP connections on the port. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm start', () => {
  let dataDir: string;
  beforeAll(() => {
    buildCli();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-npm-start-'));
  }, 200_000);
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s to npm itself stops the server and frees its port', async (signal) => {
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const err = { text: '' };
    npm.stderr.setEncoding('utf8').on('data', (t: string) => (err.text += t));
    npm.stdout.resume();
    // 'close', not 'exit': the server writes to the same pipes, so this waits for its last line too.
    const exited = new Promise<number | null>((resolve) => npm.on('close', (code) => resolve(code)));
    try {
      const address = (await waitFor(npm.stderr, /listening on http:\/\/[\d.]+:(\d+)/, err, 120_000))[1]!;
      const port = Number(address);
      expect(await accepting(port)).toBe(true);
      npm.kill(signal);
      await exited;
      // The server was npm's own child, so it got the signal and shut down gracefully.
      for (let i = 0; i < 50 && (await accepting(port)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      // The port is freed only if the server stopped: the signal reached it. (How it shuts down on a
      // signal is test/server.test.ts's; under a loaded full run its last lines were seen missing here.)
      expect(await accepting(port), err.text).toBe(false);
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 180_000);
});
