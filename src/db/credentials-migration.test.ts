import { randomUUID } from 'node:crypto';
import { Migrator } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers/test-app.js';
import { migrations } from './migrator.js';

/**
 * Migration 0020 on a store that has what earlier versions wrote: tracking tokens in ticket events,
 * secrets in stored Idempotency-Key answers, webhook endpoints without a resource limit.
 */
describe('migration 0020: credentials out of events and stored answers; a limit for existing endpoints', () => {
  it('scrubs stored events and answers, and limits endpoints to what they subscribe to', async () => {
    const scratch = await buildTestApp();
    try {
      const { db } = scratch.store;
      const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
      expect((await migrator.migrateTo('0019_batch_postgres_search_index_inserts')).error).toBeUndefined();
      const org = scratch.org.id;
      const [ticketId, oldToken, newToken] = [randomUUID(), randomUUID(), randomUUID()];
      const now = new Date().toISOString();
      const event = (position: number, type: string, data: unknown) => ({
        id: randomUUID(), organization_id: org, position, type, occurred_at: now, actor_type: 'system' as const, actor_id: null, actor_user_id: null,
        resource_type: type.split('.')[0]!, resource_id: ticketId, ticket_id: ticketId, data: JSON.stringify(data),
      });
      await db.insertInto('events').values([
        event(1, 'ticket.created', { object: { id: ticketId, tracking_token: oldToken, subject: 'S' }, changes: null }),
        event(2, 'ticket.updated', {
          object: { id: ticketId, tracking_token: newToken, subject: 'S' },
          changes: { tracking_token: { old: oldToken, new: newToken } },
        }),
      ]).execute();
      const endpoint = (events: string[]) => ({
        id: randomUUID(), organization_id: org, url: 'https://hooks.example.com/', description: null, event_types: JSON.stringify(events),
        status: 'active', secret: 'whsec_x', previous_secret: null, previous_secret_expires_at: null, disabled_at: null, disabled_reason: null,
        cursor_position: 0, next_attempt_at: null, lease_owner: null, lease_expires_at: null, created_at: now, updated_at: now,
      });
      const star = endpoint(['*']);
      const listed = endpoint(['ticket.created', 'comment.created']);
      await db.insertInto('webhook_endpoints').values([star, listed] as never).execute();
      const plainKey = `key_admin_${'a'.repeat(40)}`;
      await db.insertInto('idempotency_keys').values({
        organization_id: org, api_key_id: randomUUID(), idempotency_key: 'k', fingerprint: 'f', state: 'complete', status_code: 201,
        response_headers: '{}', response_body: JSON.stringify({ id: 'x', name: 'n', key: plainKey }), created_at: now, locked_until: null,
        expires_at: new Date(Date.now() + 3_600_000).toISOString(),
      }).execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const stored = await db.selectFrom('events').select(['position', 'data']).where('organization_id', '=', org).orderBy('position').execute();
      expect(stored.map((e) => JSON.parse(e.data) as unknown)).toEqual([
        { object: { id: ticketId, subject: 'S' }, changes: null },
        { object: { id: ticketId, subject: 'S' }, changes: { tracking_token: { changed: true } } },
      ]);
      const limits = await db.selectFrom('webhook_endpoints').select(['id', 'resource_types']).where('organization_id', '=', org).execute();
      const limitOf = (id: string) => JSON.parse(limits.find((l) => l.id === id)!.resource_types) as string[];
      expect(limitOf(star.id)).toEqual(['ticket', 'comment', 'attachment', 'customer', 'team', 'user', 'api_key']);
      expect(limitOf(listed.id)).toEqual(['ticket', 'comment']);
      const answer = await db.selectFrom('idempotency_keys').select('response_body').where('organization_id', '=', org).executeTakeFirstOrThrow();
      expect(JSON.parse(String(answer.response_body))).toEqual({ id: 'x', name: 'n', key: null });
    } finally {
      await scratch.close();
    }
  });
});
