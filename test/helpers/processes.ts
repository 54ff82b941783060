import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The built `ticketing` command as child processes, as a user runs it after `npm install`: for the
 * suites that test start-up, signals and several processes side by side.
 */

export const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'ticketing.js');

/** Builds dist/ when sources are newer (the CLI runs from it); call from a beforeAll with a long timeout. */
export function buildCli(): void {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-if-needed.js')], { cwd: root, stdio: 'pipe', timeout: 180_000 });
}

/** Resolves with the first match of `pattern` in the text a stream produces. */
export function waitFor(stream: NodeJS.ReadableStream, pattern: RegExp, seen: { text: string }, timeoutMs = 30_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(seen.text);
      if (match) {
        stream.off('data', onData);
        clearTimeout(timer);
        resolve(match);
      }
    };
    const onData = () => setImmediate(check);
    const timer = setTimeout(() => {
      stream.off('data', onData);
      reject(new Error(`timed out waiting for ${pattern}; output so far:\n${seen.text}`));
    }, timeoutMs);
    stream.on('data', onData);
    check();
  });
}

export interface Child {
  proc: ChildProcess;
  out: { text: string };
  err: { text: string };
  exited: Promise<number | null>;
}

/** Starts `ticketing serve` with `env` over this process's environment; does not wait for it. */
export function spawnServe(env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [bin, 'serve'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { text: '' };
  const err = { text: '' };
  proc.stdout.setEncoding('utf8').on('data', (t: string) => (out.text += t));
  proc.stderr.setEncoding('utf8').on('data', (t: string) => (err.text += t));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, out, err, exited };
}

/** Waits until a started `ticketing serve` listens; resolves to its address. */
export async function listening(child: Child): Promise<string> {
  return (await waitFor(child.proc.stderr!, /listening on (http:\/\/[\d.]+:\d+)/, child.err))[1]!;
}

/** Runs a one-shot `ticketing` command; rejects (with its output) when it exits non-zero. */
export async function runCli(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 60_000 });
}
