import { randomUUID } from 'node:crypto';
import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers/test-app.js';
import { migrations } from './migrator.js';

/** Migration 0033 gives existing keys the sla: scopes as 0030 gave the views: scopes: only to keys that held every scope of their role. */
describe('migration 0033: the sla: scopes for existing keys', () => {
  it('grants them to unrestricted admin keys and sla:read to read-only keys with every read scope; narrower keys keep theirs', async () => {
    const scratch = await buildTestApp();
    try {
      const { db } = scratch.store;
      const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
      // Just before 0033, whatever came in between (the migrations are merged from several branches).
      const names = Object.keys(migrations).sort();
      const before = names[names.indexOf('0033_create_business_hours') - 1]!;
      expect((await migrator.migrateTo(before)).error).toBeUndefined();
      const org = scratch.org.id;
      const full = JSON.parse((await db.selectFrom('api_keys').select('scopes').where('organization_id', '=', org).executeTakeFirstOrThrow()).scopes) as string[];
      expect(full.some((s) => s.startsWith('sla:'))).toBe(false);
      const reads = full.filter((s) => s.endsWith(':read'));
      const now = new Date().toISOString();
      const key = (role: 'admin' | 'readonly', scopes: string[]) => ({
        id: randomUUID(), organization_id: org, name: role, key_hash: randomUUID(), key_prefix: randomUUID().slice(0, 16), role,
        scopes: JSON.stringify(scopes), holder_user_id: null, created_at: now, expires_at: null, last_used_at: null, revoked_at: null,
      });
      const keys = { admin: key('admin', full), narrowAdmin: key('admin', ['tickets:read']), readonly: key('readonly', reads), narrowReadonly: key('readonly', ['tickets:read']) };
      await db.insertInto('api_keys').values(Object.values(keys)).execute();

      expect((await migrator.migrateTo('0033_create_business_hours')).error).toBeUndefined();

      const scopesOf = async (id: string) => JSON.parse((await db.selectFrom('api_keys').select('scopes').where('id', '=', id).executeTakeFirstOrThrow()).scopes) as string[];
      expect(await scopesOf(keys.admin.id)).toEqual([...full, 'sla:read', 'sla:write', 'sla:delete']);
      expect(await scopesOf(keys.narrowAdmin.id)).toEqual(['tickets:read']);
      expect(await scopesOf(keys.readonly.id)).toEqual([...reads, 'sla:read']);
      expect(await scopesOf(keys.narrowReadonly.id)).toEqual(['tickets:read']);
    } finally {
      await scratch.close();
    }
  });
});
