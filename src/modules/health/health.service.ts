import type { Store } from '../../db/store.js';
import type { SharedRedis } from '../../limits/redis.js';
import { pingStore } from './health.repository.js';
import type { ReadinessChecksT } from './health.schemas.js';

export interface HealthDeps {
  store: Store;
  /** The rate limits' Redis connection, when REDIS_URL is set. */
  redis: SharedRedis | null;
}

/** A store that does not answer within this long counts as unavailable (a pool may wait forever). */
export const STORE_CHECK_TIMEOUT_MS = 2_000;

export interface Readiness {
  ready: boolean;
  degraded: boolean;
  checks: ReadinessChecksT;
}

/**
 * The store decides readiness. Redis is reported but does not: without it the service still
 * answers every request correctly (rate limits fail open), and since every process shares the
 * same Redis, failing readiness on it would take the whole fleet out of the load balancer at once.
 */
export async function checkReadiness(deps: HealthDeps): Promise<Readiness> {
  const [store, redis] = await Promise.all([storeCheck(deps.store), deps.redis ? deps.redis.ping() : Promise.resolve(null)]);
  const checks: ReadinessChecksT = { store: store ? 'ok' : 'unavailable' };
  if (redis !== null) checks.redis = redis ? 'ok' : 'unavailable';
  return { ready: store, degraded: redis === false, checks };
}

async function storeCheck(store: Store): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), STORE_CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([pingStore(store.db).then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
