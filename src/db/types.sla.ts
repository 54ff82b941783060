import type { Timestamp } from './column-types.js';

/** The tables of SLA policies and job leases (src/db/types.ts assembles them into Database). */

/** An SLA policy of an organization (docs/api-behaviour.md, SLA policies). */
export interface SlaPoliciesTable {
  id: string;
  organization_id: string;
  name: string;
  /** Lower first; ties by creation. */
  position: number;
  /** JSON: `{ all, any }` (src/modules/views/conditions.ts). */
  conditions: string;
  business_hours_id: string | null;
  /** JSON: the targets per priority. */
  targets: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A job that one process of a fleet runs at a time holds its lease here until `expires_at`. */
export interface JobLeasesTable {
  name: string;
  owner: string;
  expires_at: string;
}
