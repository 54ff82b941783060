import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Timestamps are `text` columns holding ISO 8601 UTC with milliseconds on both
 * dialects, and come back exactly as written; reads stay typed `string | Date` so mappers pass
 * them through `toIso`, which also accepts a Date should a column ever become a timestamptz.
 * Booleans are integer columns holding 0/1 on both. int8 values come back as numbers (see store.ts).
 */
type Timestamp = ColumnType<string | Date, string, string>;
type NullableTimestamp = ColumnType<string | Date | null, string | null | undefined, string | null>;
type Bool = ColumnType<number | boolean, number, number>;

export interface OrganizationsTable {
  id: string;
  name: string;
  ticket_counter: ColumnType<number, number | undefined, number>;
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
}

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

export interface Database {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  users: UsersTable;
  customers: CustomersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  tickets: TicketsTable;
  comments: CommentsTable;
  attachments: AttachmentsTable;
  attachment_blobs: AttachmentBlobsTable;
  attachment_chunks: AttachmentChunksTable;
}

export type TicketRow = Selectable<TicketsTable>;
export type NewTicketRow = Insertable<TicketsTable>;
export type TicketUpdate = Updateable<TicketsTable>;
export type CustomerRow = Selectable<CustomersTable>;
export type UserRow = Selectable<UsersTable>;
export type TeamRow = Selectable<TeamsTable>;
export type CommentRow = Selectable<CommentsTable>;
export type AttachmentRow = Selectable<AttachmentsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
