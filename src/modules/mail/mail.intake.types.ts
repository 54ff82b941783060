import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Mailer } from './mail.outbox.js';

/** What every inbound path (the API, the SMTP listener, IMAP) hands the intake, and what it answers. */
export interface IntakeDeps {
  store: Store;
  blobs: BlobStore;
  config: Pick<Config, 'storageQuotaBytes'>;
  mailer: Mailer;
}

export type IntakeOutcome = 'created' | 'appended' | 'duplicate' | 'ignored' | 'rejected';

export interface IntakeResult {
  outcome: IntakeOutcome;
  ticket_id: string | null;
  comment_id: string | null;
  /** Why a message was ignored or rejected. */
  reason: string | null;
}

