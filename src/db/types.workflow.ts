import type { Timestamp } from './column-types.js';

/** The tables of custom fields, views, macros and business hours (src/db/types.ts assembles them into Database). */

/** A custom ticket field of an organization (docs/api-behaviour.md, Custom fields). */
export interface TicketFieldsTable {
  id: string;
  organization_id: string;
  key: string;
  label: string;
  type: 'text' | 'number' | 'date' | 'checkbox' | 'dropdown' | 'multiselect';
  /** JSON array of strings (dropdown, multiselect), else null. */
  options: string | null;
  required: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A saved view (docs/api-behaviour.md, Views and conditions); personal when `owner_user_id` is set. */
export interface ViewsTable {
  id: string;
  organization_id: string;
  name: string;
  owner_user_id: string | null;
  /** JSON: `{ all, any }` (src/modules/views/conditions.ts). */
  conditions: string;
  sort_by: 'created_at' | 'updated_at' | 'priority' | 'due_date' | 'ticket_number' | 'sla_next_due_at';
  sort_order: 'asc' | 'desc';
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One value of one custom field of one ticket (one row per option of a multiselect). */
export interface TicketFieldValuesTable {
  id: string;
  organization_id: string;
  field_id: string;
  ticket_id: string;
  ticket_number: number;
  value_text: string | null;
  value_number: number | null;
}

/** A macro (docs/api-behaviour.md, Macros and actions): a named list of actions. */
export interface MacrosTable {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  /** JSON: `[ { field, value } ]` as checked (src/modules/macros/actions.ts). */
  actions: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A business-hours calendar (docs/api-behaviour.md, Business hours). */
export interface BusinessHoursTable {
  id: string;
  organization_id: string;
  name: string;
  /** An IANA time zone name, e.g. `Europe/Berlin`. */
  time_zone: string;
  /** JSON: `[{ day, start, end }]` (src/modules/business-hours/business-time.ts, Calendar). */
  weekly: string;
  /** JSON: `[{ date, name? }]`, local dates in `time_zone`. */
  holidays: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}
