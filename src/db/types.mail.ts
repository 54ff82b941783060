import type { ColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.js';

/** The email channel's tables (src/modules/mail/); Database in types.ts lists them with the rest. */

/** A mailbox of the email channel (migration 0025_create_mailboxes). */
export interface MailboxesTable {
  id: string;
  organization_id: string;
  /** Lower-cased. */
  address: string;
  name: string;
  auto_reply: number;
  is_default: number;
  /** JSON: `{ type, host, port, security, username, password, folder }` (password included). */
  inbound: string;
  /** JSON `{ host, port, security, username, password }`, or null for the installation's SMTP_URL. */
  outbound: string | null;
  state: 'active' | 'failing' | 'paused';
  last_error: string | null;
  last_checked_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** IMAP: the folder's UIDVALIDITY when `imap_last_uid` was taken (migration 0029). */
  imap_uid_validity: string | null;
  imap_last_uid: ColumnType<number | string, number | undefined, number>;
  next_check_at: NullableTimestamp;
  failures: ColumnType<number, number | undefined, number>;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
}

/** Every message taken in, once per organization (migration 0026_add_email_channel). */
export interface MailMessagesTable {
  id: string;
  organization_id: string;
  mailbox_id: string | null;
  /** The Message-ID (lower-cased, without brackets), or `sha256:<hex>` of the bytes when it has none. */
  message_key: string;
  message_id: string | null;
  outcome: 'created' | 'appended' | 'ignored' | 'rejected';
  ticket_id: string | null;
  comment_id: string | null;
  raw: Uint8Array;
  size_bytes: number;
  created_at: Timestamp;
  /** 1 from the intake's transaction until the message's attachments are all kept (migration 0036). */
  attachments_pending: ColumnType<number, number | undefined, number>;
}

/** Mail going out (migration 0027_create_mail_outbox). */
export interface MailOutboxTable {
  id: string;
  organization_id: string;
  mailbox_id: string | null;
  ticket_id: string;
  comment_id: string | null;
  /** `notification`: a trigger's or automation's notify (migration 0035 needs no change: the column is text). */
  kind: 'acknowledgement' | 'reply' | 'notice' | 'notification';
  to_address: string;
  from_address: string;
  from_name: string;
  subject: string;
  body: string;
  /** Without angle brackets. */
  message_id: string;
  in_reply_to: string | null;
  /** Space-separated Message-IDs, without angle brackets. */
  references: string;
  status: 'queued' | 'sent' | 'failed' | 'bounced';
  attempts: number;
  next_attempt_at: NullableTimestamp;
  last_error: string | null;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
}

