import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Bool, NullableTimestamp, Timestamp } from './column-types.js';
import type { MailboxesTable, MailMessagesTable, MailOutboxTable } from './types.mail.js';
import type { BusinessHoursTable, MacrosTable, TicketFieldsTable, TicketFieldValuesTable, ViewsTable } from './types.workflow.js';
import type { JobItemsTable, JobsTable } from './types.jobs.js';
import type { JobLeasesTable, SlaPoliciesTable } from './types.sla.js';
import type { AutomationRunsTable, AutomationsTable, TriggerCursorsTable, TriggerRunsTable, TriggersTable } from './types.automations.js';

/**
 * Table types (their column conventions: column-types.ts); the email channel's are in
 * types.mail.ts, custom fields', views' and business hours' in types.workflow.ts.
 */

export type { MailboxesTable, MailMessagesTable, MailOutboxTable } from './types.mail.js';
export type { BusinessHoursTable, MacrosTable, TicketFieldsTable, TicketFieldValuesTable, ViewsTable } from './types.workflow.js';
export type { JobItemsTable, JobsTable } from './types.jobs.js';
export type { AutomationRunsTable, AutomationsTable, TriggerCursorsTable, TriggerRunsTable, TriggersTable } from './types.automations.js';

export interface OrganizationsTable {
  id: string;
  name: string;
  ticket_counter: ColumnType<number, number | undefined, number>;
  /** Bytes of the organization's attachments, kept by triggers on `attachments` (migration 0006). */
  storage_used_bytes: ColumnType<number | string | bigint, never, never>;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  role: 'admin' | 'readonly';
  /** JSON array of scope strings. */
  scopes: string;
  holder_user_id: string | null;
  created_at: Timestamp;
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface UsersTable {
  id: string;
  organization_id: string;
  email: string;
  email_normalized: string;
  full_name: string;
  role: 'admin' | 'agent';
  is_active: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** `scrypt$N$r$p$salt$hash` (src/auth/passwords.ts); null: the user cannot sign in. Never leaves the service. */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A signed-in browser (src/modules/sessions/): only the SHA-256 of its token is kept. */
export interface SessionsTable {
  id: string;
  organization_id: string;
  user_id: string;
  token_hash: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  /** The absolute end (7 days after sign-in); idleness ends it sooner. */
  expires_at: Timestamp;
}

export interface CustomersTable {
  id: string;
  organization_id: string;
  name: string;
  email: string;
  email_normalized: string;
  company: string | null;
  department: string | null;
  title: string | null;
  customer_tier: string | null;
  contact_number: string | null;
  pronoun: string | null;
  location_country: string | null;
  location_city: string | null;
  location_state: string | null;
  location_zip: string | null;
  location_address: string | null;
  region: string | null;
  timezone: string | null;
  /** Fixed-point: the decimal value times 100. */
  account_value_cents: ColumnType<number | string | bigint | null, number | null, number | null>;
  has_premium_support: Bool;
  is_vip: Bool;
  social_linkedin: string | null;
  social_website: string | null;
  social_github: string | null;
  notes: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** `bouncing` after 3 hard bounces in a row: no more mail until the address changes (migration 0028). */
  email_status: ColumnType<'ok' | 'bouncing', 'ok' | 'bouncing' | undefined, 'ok' | 'bouncing'>;
  email_hard_bounces: ColumnType<number, number | undefined, number>;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamMembersTable {
  organization_id: string;
  team_id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface TicketsTable {
  /** Internal integer key; the search index refers to tickets by it. Never exposed. */
  seq: Generated<number>;
  id: string;
  organization_id: string;
  ticket_number: number;
  tracking_token: string;
  customer_id: string;
  subject: string;
  description: string;
  status: 'new' | 'open' | 'pending' | 'resolved' | 'closed';
  priority: 'low' | 'medium' | 'high' | 'urgent';
  category: string | null;
  assigned_user_id: string | null;
  assigned_team_id: string | null;
  due_date: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  resolved_at: NullableTimestamp;
  closed_at: NullableTimestamp;
  /** The ticket's tags, sorted, as a JSON array; `ticket_tags` holds the same, one row each. */
  tags: Generated<string>;
  /** The ticket's custom field values, a JSON object by key; `ticket_field_values` holds the same, indexed. */
  custom_fields: Generated<string>;
  channel: ColumnType<Channel, Channel | undefined, Channel>;
  /** JSON: the `email` block of a ticket opened by mail (migration 0026_add_email_channel). */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last status change (null: none since creation), kept by a database trigger (migration 0035). */
  status_changed_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON: the ticket's SLA clocks (src/modules/sla/sla.clock.ts), null without a policy (migration 0034). */
  sla: ColumnType<string | null, string | null | undefined, string | null>;
  /** The earliest due time of a running SLA clock (views sort and filter by it). */
  sla_next_due_at: NullableTimestamp;
  /** The next instant the SLA sweeper has work on the ticket (a warning or a breach). */
  next_sla_deadline_at: NullableTimestamp;
}

/** One tag of one ticket (docs/api-behaviour.md, Tags). */
export interface TicketTagsTable {
  organization_id: string;
  tag: string;
  ticket_number: number;
  ticket_id: string;
}

/** How many tickets of an organization carry a tag; a row goes when its count reaches 0. */
export interface TagCountsTable {
  organization_id: string;
  tag: string;
  ticket_count: number;
}

/** How a ticket or comment came in. */
export type Channel = 'api' | 'portal' | 'email';

export interface CommentsTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  body: string;
  is_internal: Bool;
  author_user_id: string | null;
  author_customer_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  channel: ColumnType<Channel, Channel | undefined, Channel>;
  /** JSON: the `email` block of a comment that came by mail. */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON: the `delivery` block of a comment sent out by mail (migration 0027_create_mail_outbox). */
  delivery: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON: ids of the ticket's attachments the comment carries, null for none (migration 0036). */
  attachment_ids: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AttachmentsTable {
  id: string;
  organization_id: string;
  ticket_id: string;
  filename: string;
  content_type: string;
  size_bytes: number;
  uploaded_by_user_id: string | null;
  created_at: Timestamp;
}

/** A stored file of the `database` attachment backend; `attachment_id` is null while staged. */
export interface AttachmentBlobsTable {
  id: string;
  organization_id: string;
  attachment_id: string | null;
  size_bytes: ColumnType<number | string | bigint, number, number>;
  chunk_bytes: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AttachmentChunksTable {
  blob_id: string;
  organization_id: string;
  seq: number;
  data: ColumnType<Buffer, Uint8Array, Uint8Array>;
}

/** One change of a record (issue 12). `position` is null until the writing transaction seals it. */
export interface EventsTable {
  seq: Generated<number>;
  id: string;
  organization_id: string;
  position: ColumnType<number | null, number | null, number>;
  type: string;
  occurred_at: Timestamp;
  actor_type: 'api_key' | 'user' | 'customer' | 'system' | 'trigger' | 'automation';
  actor_id: string | null;
  actor_user_id: string | null;
  resource_type: string;
  resource_id: string;
  ticket_id: string | null;
  /** JSON: `{ "object": ..., "changes": ... }`. */
  data: string;
}

/** The last event position handed out in an organization's feed. */
export interface EventCountersTable {
  organization_id: string;
  position: ColumnType<number, number | undefined, number>;
}

export interface WebhookEndpointsTable {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  /** JSON array of event types, or `["*"]`. */
  event_types: string;
  /** JSON array of the resource types whose events it may receive: those its creating key could read. */
  resource_types: string;
  status: 'active' | 'paused' | 'disabled';
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: NullableTimestamp;
  disabled_at: NullableTimestamp;
  disabled_reason: string | null;
  /** Events up to this position have been handed to the endpoint (delivered, given up or skipped). */
  cursor_position: number;
  /** When the endpoint's oldest pending delivery is due; null when none is pending. */
  next_attempt_at: NullableTimestamp;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_position: number;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  /** 1 when queued again by hand: one attempt, no backoff schedule. */
  manual: number;
  attempts: number;
  next_attempt_at: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  response_status: number | null;
  response_latency_ms: number | null;
  /** The first 4 KiB of the last attempt's answer body. */
  response_body: string | null;
  last_error: string | null;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
}

export interface IdempotencyKeysTable {
  organization_id: string;
  api_key_id: string;
  idempotency_key: string;
  /** SHA-256 (base64url) of the method, the path with its query and the request body. */
  fingerprint: string;
  state: 'in_flight' | 'complete';
  status_code: number | null;
  /** JSON object of the answer's headers worth replaying (content-type, location, etag). */
  response_headers: string | null;
  response_body: string | null;
  created_at: Timestamp;
  /** While in flight: when another request may take the key over (the first one died). */
  locked_until: NullableTimestamp;
  expires_at: Timestamp;
}

/** Insert-only changes to the dashboard's counters, written by triggers on `tickets` (migration 0012). */
export interface DashboardDeltasTable {
  id: Generated<number>;
  organization_id: string;
  status: TicketsTable['status'];
  priority: TicketsTable['priority'];
  assigned_user_id: string | null;
  assigned_team_id: string | null;
  created_at: string;
  due_date: string | null;
  resolved_at: string | null;
  /** +1 (a ticket with these values appeared) or -1 (it went). */
  n: number;
}

/** The deltas folded per organization, kind and key (dashboard.counters.ts). */
export interface DashboardTotalsTable {
  organization_id: string;
  kind: string;
  a: string;
  b: string;
  n: ColumnType<number | string | bigint, number, number>;
}

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  sessions: SessionsTable;
  customers: CustomersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  tickets: TicketsTable;
  ticket_tags: TicketTagsTable;
  tag_counts: TagCountsTable;
  ticket_fields: TicketFieldsTable;
  ticket_field_values: TicketFieldValuesTable;
  views: ViewsTable;
  macros: MacrosTable;
  sla_policies: SlaPoliciesTable;
  job_leases: JobLeasesTable;
  business_hours: BusinessHoursTable;
  comments: CommentsTable;
  attachments: AttachmentsTable;
  attachment_blobs: AttachmentBlobsTable;
  attachment_chunks: AttachmentChunksTable;
  events: EventsTable;
  event_counters: EventCountersTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  mailboxes: MailboxesTable;
  mail_messages: MailMessagesTable;
  mail_outbox: MailOutboxTable;
  idempotency_keys: IdempotencyKeysTable;
  dashboard_deltas: DashboardDeltasTable;
  dashboard_totals: DashboardTotalsTable;
  jobs: JobsTable;
  job_items: JobItemsTable;

  triggers: TriggersTable;
  trigger_cursors: TriggerCursorsTable;
  trigger_runs: TriggerRunsTable;
  automations: AutomationsTable;
  automation_runs: AutomationRunsTable;
}

export type TicketRow = Selectable<TicketsTable>;
export type NewTicketRow = Insertable<TicketsTable>;
export type TicketUpdate = Updateable<TicketsTable>;
export type CustomerRow = Selectable<CustomersTable>;
export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type TeamRow = Selectable<TeamsTable>;
export type CommentRow = Selectable<CommentsTable>;
export type AttachmentRow = Selectable<AttachmentsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type EventRow = Selectable<EventsTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type MailboxRow = Selectable<MailboxesTable>;
export type MailOutboxRow = Selectable<MailOutboxTable>;
