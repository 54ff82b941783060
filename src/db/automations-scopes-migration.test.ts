import { randomUUID } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers/test-app.js';
import { migrations } from './migrator.js';

const NAME = '0035_create_triggers_and_automations';
/** The migration before this one, whichever it is once branches merge. */
const BEFORE = Object.keys(migrations)[Object.keys(migrations).indexOf(NAME) - 1]!;

/** Migration 0035: the automations: scopes for existing keys (as 0030 gave views:), and tickets' last status change. */
describe('migration 0035: triggers and automations', () => {
  it('grants automations: scopes to unrestricted keys only, and keeps status_changed_at on every status change', async () => {
    const scratch = await buildTestApp();
    try {
      const { db } = scratch.store;
      const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
      expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
      const org = scratch.org.id;
      const full = JSON.parse((await db.selectFrom('api_keys').select('scopes').where('organization_id', '=', org).executeTakeFirstOrThrow()).scopes) as string[];
      expect(full.some((s) => s.startsWith('automations:'))).toBe(false);
      const reads = full.filter((s) => s.endsWith(':read'));
      const now = new Date().toISOString();
      const key = (role: 'admin' | 'readonly', scopes: string[]) => ({
        id: randomUUID(), organization_id: org, name: role, key_hash: randomUUID(), key_prefix: randomUUID().slice(0, 16), role,
        scopes: JSON.stringify(scopes), holder_user_id: null, created_at: now, expires_at: null, last_used_at: null, revoked_at: null,
      });
      const keys = { admin: key('admin', full), narrowAdmin: key('admin', ['tickets:read']), readonly: key('readonly', reads), narrowReadonly: key('readonly', ['tickets:read']) };
      await db.insertInto('api_keys').values(Object.values(keys)).execute();

      expect((await migrator.migrateTo(NAME)).error).toBeUndefined();

      const scopesOf = async (id: string) => JSON.parse((await db.selectFrom('api_keys').select('scopes').where('id', '=', id).executeTakeFirstOrThrow()).scopes) as string[];
      expect(await scopesOf(keys.admin.id)).toEqual([...full, 'automations:read', 'automations:write', 'automations:delete']);
      expect(await scopesOf(keys.narrowAdmin.id)).toEqual(['tickets:read']);
      expect(await scopesOf(keys.readonly.id)).toEqual([...reads, 'automations:read']);
      expect(await scopesOf(keys.narrowReadonly.id)).toEqual(['tickets:read']);

      await migrator.migrateToLatest();
      const created = await scratch.request({ method: 'POST', url: '/v1/tickets', key: scratch.org.adminKey, body: { customer_name: 'A', customer_email: 'a@example.com', subject: 'S', description: 'D' } });
      const id = created.json<{ id: string }>().id;
      const changedAt = async () => (await db.selectFrom('tickets').select(['status_changed_at', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow());
      expect((await changedAt()).status_changed_at).toBeNull();
      await scratch.request({ method: 'PATCH', url: `/v1/tickets/${id}`, key: scratch.org.adminKey, body: { status: 'pending' } });
      const pending = await changedAt();
      expect(pending.status_changed_at).toBe(pending.updated_at);
      await scratch.request({ method: 'PATCH', url: `/v1/tickets/${id}`, key: scratch.org.adminKey, body: { subject: 'Other' } });
      expect((await changedAt()).status_changed_at).toBe(pending.status_changed_at);
      // Any path, SQL included, keeps it.
      await sql`update tickets set status = 'open', updated_at = '2030-01-01T00:00:00.000Z' where id = ${id}`.execute(db);
      expect((await changedAt()).status_changed_at).toBe('2030-01-01T00:00:00.000Z');
    } finally {
      await scratch.close();
    }
  });
});
