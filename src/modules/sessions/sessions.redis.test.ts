import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireRedis, TEST_REDIS_URL } from '../../../test/helpers/redis.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

/** Failed sign-ins counted in Redis are shared by every process (skipped without a Redis, except under CI). */
const reachable = await requireRedis('sessions.redis');

describe.runIf(reachable)('sign-in limits through Redis', () => {
  const apps: TestApp[] = [];
  beforeAll(async () => {
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test-${randomUUID()}:`, RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: '3' };
    apps.push(await buildTestApp(env), await buildTestApp(env));
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  it('counts an account\'s failures across processes', async () => {
    const email = `shared-${Date.now()}@example.com`;
    const attempt = (app: TestApp, remoteAddress: string) =>
      app.app.inject({
        method: 'POST',
        url: '/v1/sessions',
        remoteAddress,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email, password: 'not the password at all' }),
      });
    expect((await attempt(apps[0]!, '10.1.0.1')).statusCode).toBe(401);
    expect((await attempt(apps[1]!, '10.1.0.2')).statusCode).toBe(401);
    expect((await attempt(apps[0]!, '10.1.0.3')).statusCode).toBe(401);
    const blocked = await attempt(apps[1]!, '10.1.0.4');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
  });
});
