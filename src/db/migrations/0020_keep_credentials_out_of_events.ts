import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * What events and stored answers may reveal (docs/api-behaviour.md#who-sees-which-events,
 * #tracking-tokens, #idempotency-key):
 *
 * - `webhook_endpoints.resource_types`: the resource types whose events an endpoint may receive,
 *   those its creating key could read. The creator of an existing endpoint was not recorded, so an
 *   existing endpoint keeps receiving what it subscribes to: the resource types of its listed event
 *   types, every resource type for `["*"]`. Operators should review `*` endpoints.
 * - Ticket events no longer carry the tracking token (it opens the ticket in the customer portal):
 *   it is taken out of stored events' objects, and a change of it becomes `{"changed": true}`.
 * - Stored Idempotency-Key answers no longer hold a secret shown once: a plain API key (`key`), a
 *   webhook secret (`secret`), a tracking token (`tracking_token`) become null.
 *
 * Nothing of what was removed can be put back, so `down` only drops the new column.
 */

/** Every resource type at the time of this migration. */
const ALL_RESOURCE_TYPES = ['ticket', 'comment', 'attachment', 'customer', 'team', 'user', 'api_key'];
const BATCH = 500;

function resourceTypesOf(eventTypes: string): string {
  let types: unknown;
  try {
    types = JSON.parse(eventTypes);
  } catch {
    types = [];
  }
  const list = Array.isArray(types) ? types.filter((t): t is string => typeof t === 'string') : [];
  if (list.includes('*')) return JSON.stringify(ALL_RESOURCE_TYPES);
  return JSON.stringify(ALL_RESOURCE_TYPES.filter((r) => list.some((t) => t.startsWith(`${r}.`))));
}

function scrubEvent(data: string): string | null {
  const parsed = JSON.parse(data) as { object?: Record<string, unknown> | null; changes?: Record<string, unknown> | null };
  let changed = false;
  if (parsed.object && typeof parsed.object === 'object' && 'tracking_token' in parsed.object) {
    delete parsed.object.tracking_token;
    changed = true;
  }
  if (parsed.changes && typeof parsed.changes === 'object' && 'tracking_token' in parsed.changes) {
    parsed.changes.tracking_token = { changed: true };
    changed = true;
  }
  return changed ? JSON.stringify(parsed) : null;
}

function scrubAnswer(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const record = parsed as Record<string, unknown>;
  let changed = false;
  for (const [field, isSecret] of [
    ['key', (v: unknown) => typeof v === 'string' && v.startsWith('key_')],
    ['secret', (v: unknown) => typeof v === 'string' && v.startsWith('whsec_')],
    ['tracking_token', (v: unknown) => typeof v === 'string'],
  ] as const) {
    if (isSecret(record[field])) {
      record[field] = null;
      changed = true;
    }
  }
  return changed ? JSON.stringify(record) : null;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('resource_types', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  const endpoints = await db.selectFrom('webhook_endpoints').select(['id', 'event_types']).execute();
  for (const endpoint of endpoints) {
    await db.updateTable('webhook_endpoints').set({ resource_types: resourceTypesOf(String(endpoint.event_types)) }).where('id', '=', endpoint.id).execute();
  }

  for (let after = -1; ; ) {
    const rows = await db
      .selectFrom('events')
      .select(['seq', 'data'])
      .where('resource_type', '=', 'ticket')
      .where('seq', '>', after)
      .where('data', 'like', '%tracking_token%')
      .orderBy('seq')
      .limit(BATCH)
      .execute();
    for (const row of rows) {
      const data = scrubEvent(String(row.data));
      if (data !== null) await db.updateTable('events').set({ data }).where('seq', '=', row.seq).execute();
    }
    if (rows.length < BATCH) break;
    after = Number(rows[rows.length - 1]!.seq);
  }

  const answers = await db
    .selectFrom('idempotency_keys')
    .select(['organization_id', 'api_key_id', 'idempotency_key', 'response_body'])
    .where('response_body', 'is not', null)
    .where((eb) => eb.or([eb('response_body', 'like', '%"key"%'), eb('response_body', 'like', '%"secret"%'), eb('response_body', 'like', '%"tracking_token"%')]))
    .execute();
  for (const answer of answers) {
    const body = scrubAnswer(String(answer.response_body));
    if (body === null) continue;
    await db
      .updateTable('idempotency_keys')
      .set({ response_body: body })
      .where('organization_id', '=', answer.organization_id)
      .where('api_key_id', '=', answer.api_key_id)
      .where('idempotency_key', '=', answer.idempotency_key)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('resource_types').execute();
}
