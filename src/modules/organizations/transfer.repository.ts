import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { withoutSecrets } from '../events/events.visibility.js';
import { AUTOMATION_TABLES, WORKFLOW_TABLES } from './transfer.automations.js';

/**
 * What moves with an organization in `ticketing export` / `import`: every table that holds its
 * data, in an order that satisfies the foreign keys, with every column but internal surrogates
 * (`tickets.seq`, which the search index refers to, is made afresh by the importing store).
 *
 * Column kinds say how a value crosses dialects: timestamps become ISO 8601 UTC strings, booleans
 * JSON booleans, integers and other numbers JSON numbers, bytes base64; text stays text.
 */
export type ColumnKind = 'text' | 'timestamp' | 'boolean' | 'integer' | 'number' | 'bytes';

export interface TransferTable {
  table: TransferTableName;
  columns: Record<string, ColumnKind>;
  /** Unique within the table; rows are read in this order, a page at a time. */
  key: readonly string[];
  /** Columns an export of an earlier version may lack: `upgrade` fills them in. */
  optional?: readonly string[];
  /** Brings a row of an earlier version's export up to date, as the migrations since did to stored rows. */
  upgrade?: (row: Record<string, unknown>) => void;
}

/** Every resource type whose events an endpoint may receive, for endpoints from before that limit. */
const ALL_EVENT_RESOURCES = ['ticket', 'comment', 'attachment', 'customer', 'team', 'user', 'api_key'];

/** An endpoint exported before its resource limit existed keeps what it subscribes to (as migration 0020 did). */
function limitEndpoint(row: Record<string, unknown>): void {
  if (row.resource_types !== undefined) return;
  const types = JSON.parse(String(row.event_types)) as string[];
  const kinds = types.includes('*') ? ALL_EVENT_RESOURCES : ALL_EVENT_RESOURCES.filter((r) => types.some((t) => t.startsWith(`${r}.`)));
  row.resource_types = JSON.stringify(kinds);
}

/** An event exported before tracking tokens were kept out of events loses its token (as migration 0020 did). */
function scrubEvent(row: Record<string, unknown>): void {
  if (typeof row.data !== 'string' || typeof row.resource_type !== 'string' || !row.data.includes('tracking_token')) return;
  const data = JSON.parse(row.data) as { object: object; changes?: Record<string, unknown> | null };
  row.data = JSON.stringify(withoutSecrets(row.resource_type, data));
}

/** A ticket exported before tickets had tags or custom fields has none (as migrations 0022 and 0023 gave stored tickets). */
function untaggedTicket(row: Record<string, unknown>): void {
  row.tags ??= '[]';
  row.custom_fields ??= '{}';
  // Exported before migration 0035: no status change known (automations count from creation).
  row.status_changed_at ??= null;
}

export type TransferTableName = Exclude<keyof Database, 'organizations'>;

const text = 'text' as const;
const timestamp = 'timestamp' as const;
const boolean = 'boolean' as const;
const integer = 'integer' as const;
const number = 'number' as const;
const bytes = 'bytes' as const;

export const ORGANIZATION_COLUMNS: Record<string, ColumnKind> = { id: text, name: text, ticket_counter: integer, created_at: timestamp };

export const TRANSFER_TABLES: readonly TransferTable[] = [
  {
    table: 'users',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      email: text,
      email_normalized: text,
      full_name: text,
      role: text,
      is_active: boolean,
      created_at: timestamp,
      updated_at: timestamp,
    },
  },
  {
    table: 'customers',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      name: text,
      email: text,
      email_normalized: text,
      company: text,
      department: text,
      title: text,
      customer_tier: text,
      contact_number: text,
      pronoun: text,
      location_country: text,
      location_city: text,
      location_state: text,
      location_zip: text,
      location_address: text,
      region: text,
      timezone: text,
      account_value_cents: integer,
      has_premium_support: boolean,
      is_vip: boolean,
      social_linkedin: text,
      social_website: text,
      social_github: text,
      notes: text,
      created_at: timestamp,
      updated_at: timestamp,
      email_status: text,
      email_hard_bounces: integer,
    },
  },
  {
    table: 'teams',
    key: ['id'],
    columns: { id: text, organization_id: text, name: text, description: text, created_at: timestamp, updated_at: timestamp },
  },
  {
    table: 'team_members',
    key: ['team_id', 'user_id'],
    columns: { organization_id: text, team_id: text, user_id: text, created_at: timestamp },
  },
  {
    table: 'tickets',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      ticket_number: integer,
      tracking_token: text,
      customer_id: text,
      subject: text,
      description: text,
      status: text,
      priority: text,
      category: text,
      assigned_user_id: text,
      assigned_team_id: text,
      due_date: timestamp,
      created_at: timestamp,
      updated_at: timestamp,
      resolved_at: timestamp,
      closed_at: timestamp,
      tags: text,
      custom_fields: text,
      channel: text,
      email: text,
      status_changed_at: timestamp,
      sla: text,
      sla_next_due_at: text,
      next_sla_deadline_at: text,
    },
    optional: ['tags', 'custom_fields', 'status_changed_at', 'sla', 'sla_next_due_at', 'next_sla_deadline_at'],
    upgrade: untaggedTicket,
  },
  // A ticket's tags, one row each, and the organization's counts of them (docs/api-behaviour.md, Tags).
  { table: 'ticket_tags', key: ['ticket_id', 'tag'], columns: { organization_id: text, tag: text, ticket_number: integer, ticket_id: text } },
  { table: 'tag_counts', key: ['tag'], columns: { organization_id: text, tag: text, ticket_count: integer } },
  // Custom field definitions and their indexed values (docs/api-behaviour.md, Custom fields).
  {
    table: 'ticket_fields',
    key: ['id'],
    columns: { id: text, organization_id: text, key: text, label: text, type: text, options: text, required: integer, created_at: timestamp, updated_at: timestamp },
  },
  {
    table: 'ticket_field_values',
    key: ['id'],
    columns: { id: text, organization_id: text, field_id: text, ticket_id: text, ticket_number: integer, value_text: text, value_number: number },
  },
  // Saved views, shared and personal (docs/api-behaviour.md, Views and conditions).
  {
    table: 'views',
    key: ['id'],
    columns: { id: text, organization_id: text, name: text, owner_user_id: text, conditions: text, sort_by: text, sort_order: text, created_at: text, updated_at: text },
  },
  ...WORKFLOW_TABLES,
  ...AUTOMATION_TABLES,
  {
    table: 'comments',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      ticket_id: text,
      body: text,
      is_internal: boolean,
      author_user_id: text,
      author_customer_id: text,
      created_at: timestamp,
      updated_at: timestamp,
      channel: text,
      email: text,
      delivery: text,
      attachment_ids: text,
    },
  },
  {
    table: 'attachments',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      ticket_id: text,
      filename: text,
      content_type: text,
      size_bytes: integer,
      uploaded_by_user_id: text,
      created_at: timestamp,
    },
  },
  {
    table: 'api_keys',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      name: text,
      key_hash: text,
      key_prefix: text,
      role: text,
      scopes: text,
      holder_user_id: text,
      created_at: timestamp,
      expires_at: timestamp,
      last_used_at: timestamp,
      revoked_at: timestamp,
    },
  },
  // The event log keeps its positions and the feed's counter, so a client's change-feed cursor
  // goes on working in the new store; `seq` (the order rows were written in) is made afresh.
  {
    table: 'events',
    key: ['position'],
    columns: {
      id: text,
      organization_id: text,
      position: integer,
      type: text,
      occurred_at: timestamp,
      actor_type: text,
      actor_id: text,
      actor_user_id: text,
      resource_type: text,
      resource_id: text,
      ticket_id: text,
      data: text,
    },
    upgrade: scrubEvent,
  },
  { table: 'event_counters', key: ['organization_id'], columns: { organization_id: text, position: integer } },
  // Webhook endpoints with their secrets and their place in the feed, and the delivery log:
  // deliveries still pending when the export was taken are delivered by the new store.
  {
    table: 'webhook_endpoints',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      url: text,
      description: text,
      event_types: text,
      resource_types: text,
      status: text,
      secret: text,
      previous_secret: text,
      previous_secret_expires_at: timestamp,
      disabled_at: timestamp,
      disabled_reason: text,
      cursor_position: integer,
      next_attempt_at: timestamp,
      lease_owner: text,
      lease_expires_at: timestamp,
      created_at: timestamp,
      updated_at: timestamp,
    },
    optional: ['resource_types'],
    upgrade: limitEndpoint,
  },
  {
    table: 'webhook_deliveries',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      endpoint_id: text,
      event_id: text,
      event_position: integer,
      event_type: text,
      status: text,
      manual: integer,
      attempts: integer,
      next_attempt_at: timestamp,
      last_attempt_at: timestamp,
      response_status: integer,
      response_latency_ms: integer,
      response_body: text,
      last_error: text,
      created_at: timestamp,
      completed_at: timestamp,
    },
  },
  // Mailboxes of the email channel, with their passwords (like webhook secrets).
  {
    table: 'mailboxes',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      address: text,
      name: text,
      auto_reply: integer,
      is_default: integer,
      inbound: text,
      outbound: text,
      state: text,
      last_error: text,
      last_checked_at: timestamp,
      created_at: timestamp,
      updated_at: timestamp,
      imap_uid_validity: text,
      imap_last_uid: integer,
      next_check_at: timestamp,
      failures: integer,
      lease_owner: text,
      lease_expires_at: timestamp,
    },
  },
  // Every message taken in, with its raw bytes: a message is still a duplicate after a move.
  {
    table: 'mail_messages',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      mailbox_id: text,
      message_key: text,
      message_id: text,
      outcome: text,
      ticket_id: text,
      comment_id: text,
      raw: bytes,
      size_bytes: integer,
      created_at: timestamp,
      // Attachments a crash left unkept: the new store's recovery keeps them (the kept ones move too, with their ids).
      attachments_pending: integer,
    },
  },
  // Mail going out, queued ones included: the new store sends them.
  {
    table: 'mail_outbox',
    key: ['id'],
    columns: {
      id: text,
      organization_id: text,
      mailbox_id: text,
      ticket_id: text,
      comment_id: text,
      kind: text,
      to_address: text,
      from_address: text,
      from_name: text,
      subject: text,
      body: text,
      message_id: text,
      in_reply_to: text,
      references: text,
      status: text,
      attempts: integer,
      next_attempt_at: timestamp,
      last_error: text,
      lease_owner: text,
      lease_expires_at: timestamp,
      created_at: timestamp,
      sent_at: timestamp,
    },
  },
];

/**
 * Tables of organization data that are not copied row by row: the bytes of the `database`
 * attachment backend, which travel through the BlobStore interface like any backend's files.
 */
export const BYTES_TABLES: readonly string[] = ['attachment_blobs', 'attachment_chunks'];

export type RawRow = Record<string, unknown>;

/**
 * The tables are chosen from the fixed list above, never from input, so they are addressed
 * through an untyped view of the same Kysely instance.
 */
type Untyped = Kysely<Record<string, RawRow>>;
const untyped = (db: Executor): Untyped => db as unknown as Untyped;

export function readOrganizationRow(db: Executor, id: string): Promise<RawRow | undefined> {
  return untyped(db).selectFrom('organizations').select(Object.keys(ORGANIZATION_COLUMNS)).where('id', '=', id).executeTakeFirst();
}

/**
 * One page of the organization's rows of a table, in key order after `after` (the key values of
 * the last row of the previous page; null for the first page). Keyset paging keeps every page an
 * index range read however large the table.
 */
export function readRowsPage(db: Executor, spec: TransferTable, organizationId: string, after: unknown[] | null, limit: number): Promise<RawRow[]> {
  let query = untyped(db)
    .selectFrom(spec.table)
    .select(Object.keys(spec.columns))
    .where('organization_id', '=', organizationId);
  if (after) {
    const [first, second] = spec.key;
    if (second === undefined) {
      query = query.where(first!, '>', after[0]);
    } else {
      query = query.where((eb) => eb.or([eb(first!, '>', after[0]), eb.and([eb(first!, '=', after[0]), eb(second, '>', after[1])])]));
    }
  }
  for (const column of spec.key) query = query.orderBy(column);
  return query.limit(limit).execute();
}

/** Ids of the organization's attachments in id order after `after`, a page at a time. */
export async function attachmentIdsPage(db: Executor, organizationId: string, after: string | null, limit: number): Promise<string[]> {
  let query = db.selectFrom('attachments').select('id').where('organization_id', '=', organizationId);
  if (after !== null) query = query.where('id', '>', after);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((r) => r.id);
}

export async function insertOrganizationRow(db: Executor, row: RawRow): Promise<void> {
  await untyped(db).insertInto('organizations').values(row).execute();
}

/**
 * Removes an organization whose import failed: at that point it has no rows but staged files,
 * which its deletion cascades to (database backend).
 */
export async function deleteOrganizationRow(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('organizations').where('id', '=', id).execute();
}

export async function insertRows(db: Executor, table: TransferTableName, rows: RawRow[]): Promise<void> {
  if (rows.length === 0) return;
  await untyped(db).insertInto(table).values(rows).execute();
}
