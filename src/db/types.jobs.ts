import type { NullableTimestamp, Timestamp } from './column-types.js';

/** The tables of bulk jobs (src/db/types.ts assembles them into Database; migration 0032). */

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';
export type JobItemStatus = 'pending' | 'applied' | 'failed';

/** A bulk change of an organization's tickets (docs/api-behaviour.md, Bulk changes and jobs). */
export interface JobsTable {
  id: string;
  organization_id: string;
  kind: 'ticket_bulk';
  status: JobStatus;
  /** JSON: the checked action list, applied to each ticket. */
  actions: string;
  /** JSON: who asked (events.log.ts `Actor`); each ticket's event names them. */
  actor: string;
  total: number;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

/** One ticket of a job; leased by one process at a time while pending. */
export interface JobItemsTable {
  id: string;
  organization_id: string;
  job_id: string;
  position: number;
  ticket_id: string;
  status: JobItemStatus;
  detail: string | null;
  attempts: number;
  /** The job's created_at: the queue's order. */
  queued_at: Timestamp;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}
