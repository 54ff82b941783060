import type { ColumnType } from 'kysely';
import type { Timestamp } from './column-types.js';

/** The tables of triggers and automations (migration 0035); Database in types.ts lists them with the rest. */

type BigCount = ColumnType<number, number, number>;

export interface TriggersTable {
  id: string;
  organization_id: string;
  name: string;
  /** JSON array of event types. */
  on_types: string;
  /** JSON `{ all, any }` (src/modules/views/conditions.ts). */
  conditions: string;
  /** JSON array of actions (src/modules/automations/automations.actions.ts). */
  actions: string;
  active: number;
  position: number;
  /** Events at or before this feed position never run the trigger (they came before it). */
  after_position: BigCount;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Where the trigger worker is in an organization's event log, and who holds it. */
export interface TriggerCursorsTable {
  organization_id: string;
  position: BigCount;
  lease_owner: string | null;
  lease_expires_at: string | null;
}

/** One (trigger, event) the worker acted on: written with the trigger's changes. */
export interface TriggerRunsTable {
  organization_id: string;
  trigger_id: string;
  event_id: string;
  ticket_id: string;
  outcome: 'applied' | 'failed';
  error: string | null;
  created_at: Timestamp;
}

export interface AutomationsTable {
  id: string;
  organization_id: string;
  name: string;
  conditions: string;
  actions: string;
  active: number;
  /** When the sweep next checks it; leased to one process while it does. */
  next_run_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The last run of an automation on a ticket: the ticket's last status change as it was then. */
export interface AutomationRunsTable {
  organization_id: string;
  automation_id: string;
  ticket_id: string;
  matched_since: string;
  created_at: Timestamp;
}
