import { statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import { isWriteFailure } from '../../db/unavailable.js';
import type { SharedRedis } from '../../limits/redis.js';
import { pingStore } from './health.repository.js';
import type { ReadinessChecksT } from './health.schemas.js';

export interface HealthDeps {
  store: Store;
  /** The rate limits' Redis connection, when REDIS_URL is set. */
  redis: SharedRedis | null;
  config: Pick<Config, 'dataDir' | 'storageBackend' | 'minFreeBytes'>;
}

/** A store that does not answer within this long counts as unavailable (a pool may wait forever). */
export const STORE_CHECK_TIMEOUT_MS = 2_000;

/** Why the store check failed; the readiness `detail` names it, `checks.store` says `unavailable`. */
export type StoreProblem = 'unreachable' | 'read-only' | 'out of space' | 'failing writes';

export interface Readiness {
  ready: boolean;
  degraded: boolean;
  checks: ReadinessChecksT;
  /** Set when not ready: what the `detail` of the 503 says. */
  reason?: string;
}

/**
 * The store decides readiness: it must answer, and it must be able to write — not a read-only
 * PostgreSQL (a standby after a failover), not a file system without room for the SQLite file or
 * the attachment files, and no write failed lately for lack of space, read-only storage or I/O
 * errors (StoreHealth). Each is checked afresh on every call, so readiness comes back by itself
 * once the store can write again.
 *
 * Redis is reported but does not decide: without it the service still answers every request
 * correctly (rate limits fail open), and since every process shares the same Redis, failing
 * readiness on it would take the whole fleet out of the load balancer at once.
 */
export async function checkReadiness(deps: HealthDeps, shuttingDown = false): Promise<Readiness> {
  const [problem, redis] = await Promise.all([storeProblem(deps), deps.redis ? deps.redis.ping() : Promise.resolve(null)]);
  const checks: ReadinessChecksT = { store: problem ? 'unavailable' : 'ok' };
  if (redis !== null) checks.redis = redis ? 'ok' : 'unavailable';
  const readiness: Readiness = { ready: !problem && !shuttingDown, degraded: redis === false, checks };
  if (shuttingDown) readiness.reason = 'shutting down';
  else if (problem === 'unreachable') readiness.reason = 'store unavailable';
  else if (problem) readiness.reason = `store unavailable (${problem})`;
  return readiness;
}

async function storeProblem(deps: HealthDeps): Promise<StoreProblem | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<StoreProblem>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), STORE_CHECK_TIMEOUT_MS);
  });
  const ping = pingStore(deps.store.db, deps.store.dialect).then(
    () => null,
    (error: unknown): StoreProblem => (isWriteFailure(error) ? 'read-only' : 'unreachable'),
  );
  const answer = await Promise.race([ping, timeout]);
  clearTimeout(timer);
  if (answer) return answer;
  if (await lowOnSpace(deps)) return 'out of space';
  if (deps.store.health.writesFailing()) return 'failing writes';
  return null;
}

/** The directories this process writes files into: beside the SQLite file, and the disk backend's. */
function writtenDirectories(deps: HealthDeps): string[] {
  const dirs: string[] = [];
  if (deps.store.file) dirs.push(dirname(deps.store.file));
  if (deps.config.storageBackend === 'disk') dirs.push(join(deps.config.dataDir, 'attachments'));
  return dirs;
}

async function lowOnSpace(deps: HealthDeps): Promise<boolean> {
  if (deps.config.minFreeBytes === 0) return false;
  for (const dir of writtenDirectories(deps)) {
    // A directory that cannot be examined says nothing about space; the writes themselves will tell.
    const stats = await statfs(dir).catch(() => null);
    if (stats && stats.bavail * stats.bsize < deps.config.minFreeBytes) return true;
  }
  return false;
}
