import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneApiKeys } from '../src/modules/api-keys/api-keys.retention.js';
import { runMain } from './helpers/cli.js';
import { buildTestApp, type TestApp, type TestOrg } from './helpers/test-app.js';

/**
 * Collections one organization can grow are bounded (src/limits/collection-caps.ts): active API
 * keys (MAX_API_KEYS_PER_ORG) and webhook endpoints (MAX_WEBHOOKS_PER_ORG), through HTTP and the
 * command line, under concurrent creates; and dead keys are pruned (API_KEYS_RETENTION_DAYS).
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ MAX_API_KEYS_PER_ORG: '5', MAX_WEBHOOKS_PER_ORG: '3' });
});
afterAll(async () => {
  await t.close();
});

const KEYS_FULL = (held: number) =>
  `This organization already has ${held} active API keys, the most allowed (MAX_API_KEYS_PER_ORG=5); revoke some first`;

const newKey = (org: TestOrg, name = 'k', role: 'admin' | 'readonly' = 'admin') =>
  t.request({ method: 'POST', url: '/v1/api-keys', key: org.adminKey, body: { name, role } });

async function activeKeys(org: TestOrg): Promise<number> {
  const res = await t.request({ method: 'GET', url: '/v1/api-keys?status=active&limit=100', key: org.adminKey });
  return res.json<unknown[]>().length;
}

describe('MAX_API_KEYS_PER_ORG', () => {
  it('past the cap a create is 422 naming the cap and the setting; revoked and expired keys do not count', async () => {
    const org = await t.newOrg('Keys cap');
    // The organization's own first key is one of the five.
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await newKey(org, `k${i}`, i === 0 ? 'readonly' : 'admin');
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json<{ id: string }>().id);
    }
    const full = await newKey(org);
    expect(full.statusCode).toBe(422);
    expect(full.json()).toEqual({ detail: KEYS_FULL(5) });
    expect(await activeKeys(org)).toBe(5);

    // A revoked key makes room.
    expect((await t.request({ method: 'DELETE', url: `/v1/api-keys/${ids[1]!}`, key: org.adminKey })).statusCode).toBe(204);
    expect((await newKey(org)).statusCode).toBe(201);
    expect((await newKey(org)).statusCode).toBe(422);
    // So does an expired one (the read-only key, 72 hours later).
    await t.store.db.updateTable('api_keys').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', ids[0]!).execute();
    expect((await newKey(org)).statusCode).toBe(201);
    expect(await activeKeys(org)).toBe(5);
    // Another organization has its own five.
    expect((await newKey(t.org)).statusCode).toBe(201);
  });

  it('concurrent creates cannot overshoot the cap', async () => {
    const org = await t.newOrg('Keys race');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => newKey(org, `race ${i}`)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(4).fill(201), ...Array<number>(8).fill(422)]);
    expect(await activeKeys(org)).toBe(5);
  });

  it('`ticketing keys create` respects it too', async () => {
    const org = await t.newOrg('Keys CLI');
    const env = {
      DATA_DIR: t.dataDir,
      LOG_LEVEL: 'silent',
      MAX_API_KEYS_PER_ORG: '2',
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
    };
    const first = await runMain(['keys', 'create', '--org', org.id, '--name', 'second'], env);
    expect(first.code, first.stderr).toBe(0);
    const refused = await runMain(['keys', 'create', '--org', org.id, '--name', 'third'], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'ticketing: This organization already has 2 active API keys, the most allowed (MAX_API_KEYS_PER_ORG=2); revoke some first\n',
    );
    expect(await activeKeys(org)).toBe(2);
  });
});

describe('MAX_WEBHOOKS_PER_ORG', () => {
  const hook = (org: TestOrg, i: number) =>
    t.request({ method: 'POST', url: '/v1/webhooks', key: org.adminKey, body: { url: `https://hooks.example.com/${i}`, events: ['ticket.created'] } });

  it('past the cap a create is 422 naming it; deleting one makes room; concurrent creates cannot overshoot', async () => {
    const org = await t.newOrg('Hooks cap');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => hook(org, i)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 422, 422, 422, 422, 422]);
    const refused = answers.find((r) => r.statusCode === 422)!;
    expect(refused.json()).toEqual({
      detail: 'This organization already has 3 webhook endpoints, the most allowed (MAX_WEBHOOKS_PER_ORG=3); delete one first',
    });
    const list = (await t.request({ method: 'GET', url: '/v1/webhooks', key: org.adminKey })).json<{ id: string }[]>();
    expect(list).toHaveLength(3);
    expect((await t.request({ method: 'DELETE', url: `/v1/webhooks/${list[0]!.id}`, key: org.adminKey })).statusCode).toBe(204);
    expect((await hook(org, 100)).statusCode).toBe(201);
    expect((await hook(org, 101)).statusCode).toBe(422);
  });
});

describe('API_KEYS_RETENTION_DAYS: revoked and expired keys are pruned', () => {
  it('deletes keys revoked or expired before the cutoff, keeps the rest; a pruned key is 401', async () => {
    const org = await t.newOrg('Keys prune');
    const make = async (name: string) => {
      const res = await newKey(org, name);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string; key: string }>();
    };
    const [oldRevoked, newRevoked, oldExpired, live] = [await make('old revoked'), await make('new revoked'), await make('old expired'), await make('live')];
    const day = 86_400_000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    for (const k of [oldRevoked, newRevoked]) {
      expect((await t.request({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, key: org.adminKey })).statusCode).toBe(204);
    }
    await t.store.db.updateTable('api_keys').set({ revoked_at: ago(31) }).where('id', '=', oldRevoked.id).execute();
    await t.store.db.updateTable('api_keys').set({ revoked_at: ago(29) }).where('id', '=', newRevoked.id).execute();
    await t.store.db.updateTable('api_keys').set({ expires_at: ago(31) }).where('id', '=', oldExpired.id).execute();

    expect(await pruneApiKeys(t.store.db, ago(30))).toBe(2);
    const left = (await t.request({ method: 'GET', url: '/v1/api-keys?limit=100', key: org.adminKey })).json<{ id: string }[]>().map((k) => k.id);
    expect(left).toContain(newRevoked.id);
    expect(left).toContain(live.id);
    expect(left).not.toContain(oldRevoked.id);
    expect(left).not.toContain(oldExpired.id);
    for (const k of [oldRevoked, oldExpired]) {
      const res = await t.request({ method: 'GET', url: '/v1/test', key: k.key });
      expect(res.statusCode).toBe(401);
    }
    expect((await t.request({ method: 'GET', url: '/v1/test', key: live.key })).statusCode).toBe(200);
    // Nothing more to prune.
    expect(await pruneApiKeys(t.store.db, ago(30))).toBe(0);
  });
});
