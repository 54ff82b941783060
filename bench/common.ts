import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** Pieces every bench shares: scratch databases, served processes, percentiles. */

/** The repository's root, from the compiled bench (dist/bench). */
export const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The environment a bench's service runs with: its data directory, no request log, the admin rate
 * limit raised out of the way (still counted on every request) and, with a scratch PostgreSQL
 * database, that database and a signing secret; `extra` adds to it or overrides it.
 */
export function benchEnv(dataDir: string, databaseUrl: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ADMIN_PER_MINUTE: '1000000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, SIGNING_SECRET: randomBytes(36).toString('base64') } : {}),
    ...extra,
  };
}

/** The value below which `p` percent of the (sorted) values fall; NaN when there are none. */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;

/**
 * A scratch database on the PostgreSQL server `url` names (`ticketing_bench_<label>_...`); resolves
 * to its URL and its removal. The database `url` names is never touched.
 */
export async function scratchDatabase(url: string, label = ''): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ticketing_bench_${label ? `${label}_` : ''}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    drop: async () => {
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`drop database if exists "${name}" with (force)`);
      await again.end();
    },
  };
}

/**
 * Starts a Node process (`args`, over this process's environment with `env`; an undefined value
 * removes a variable) that prints `listening on <url>` on stderr; resolves to that URL.
 */
export function startListening(args: string[], env: Record<string, string | undefined>, children: ChildProcess[]): Promise<string> {
  const merged = { ...process.env, ...env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const child = spawn(process.execPath, args, { cwd: root, env: merged, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const address = /listening on (http:\/\/[\d.]+:\d+)/.exec(text)?.[1];
      if (address) resolve(address);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with code ${code}:\n${text}`)));
  });
}

/** Starts `ticketing serve` (the built CLI); resolves when it listens. */
export const serveProcess = (env: Record<string, string>, children: ChildProcess[]): Promise<string> =>
  startListening([join(root, 'bin', 'ticketing.js'), 'serve'], env, children);

/**
 * The CPU time so far of every backend of a database but the reader's own, by pid (Linux /proc, so
 * only with the server on this machine; empty otherwise): of the database `client` is connected to,
 * or of the one `url` names (a connection made for the reading). The services share the two cores
 * with these backends: a request's cost on PostgreSQL is the sum of both.
 */
export async function backendCpuMicros(client: pg.Client | string | undefined): Promise<Map<number, number>> {
  const times = new Map<number, number>();
  if (!client) return times;
  if (typeof client === 'string') {
    const own = new pg.Client({ connectionString: client });
    await own.connect();
    try {
      return await backendCpuMicros(own);
    } finally {
      await own.end();
    }
  }
  const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  for (const { pid } of rows) {
    const micros = cpuMicrosOf(pid);
    if (Number.isNaN(micros)) return new Map();
    times.set(pid, micros);
  }
  return times;
}

/** CPU used between two readings; a backend new in the second counts whole; NaN without readings. */
export function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  if (after.size === 0) return Number.NaN;
  let total = 0;
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? 0);
  return total;
}

/** The CPU time a process has used so far, in microseconds (Linux /proc; NaN elsewhere). */
export function cpuMicrosOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
  } catch {
    return Number.NaN;
  }
}
