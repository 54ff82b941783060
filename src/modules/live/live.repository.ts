import type { Executor } from '../../shared/executor.js';

/** The position of an event of the organization in its feed; undefined when there is no such event (any more). */
export async function eventPositionOf(db: Executor, organizationId: string, eventId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('events')
    .select('position')
    .where('organization_id', '=', organizationId)
    .where('id', '=', eventId)
    .executeTakeFirst();
  return row?.position == null ? undefined : Number(row.position);
}

/** The feed heads (newest positions) of the given organizations, in one statement. */
export async function feedHeads(db: Executor, organizationIds: readonly string[]): Promise<Map<string, number>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('event_counters')
    .select(['organization_id', 'position'])
    .where('organization_id', 'in', organizationIds)
    .execute();
  return new Map(rows.map((row) => [row.organization_id, Number(row.position)]));
}

/** A user's display name (their full name), within the organization. */
export async function userNameOf(db: Executor, organizationId: string, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('full_name').where('organization_id', '=', organizationId).where('id', '=', userId).executeTakeFirst();
  return row?.full_name;
}

/** An API key's name, within the organization. */
export async function apiKeyNameOf(db: Executor, organizationId: string, keyId: string): Promise<string | undefined> {
  const row = await db.selectFrom('api_keys').select('name').where('organization_id', '=', organizationId).where('id', '=', keyId).executeTakeFirst();
  return row?.name;
}
