const text = 'text' as const;
const timestamp = 'timestamp' as const;
const integer = 'integer' as const;

/**
 * What `ticketing export` carries of business hours, SLA policies and macros, in that order (a
 * policy names its calendar), before the triggers and automations whose actions they share.
 */
export const WORKFLOW_TABLES = [
  // Business-hours calendars (docs/api-behaviour.md, Business hours); an export from before them has none.
  {
    table: 'business_hours',
    key: ['id'],
    columns: { id: text, organization_id: text, name: text, time_zone: text, weekly: text, holidays: text, created_at: text, updated_at: text },
  },
  // SLA policies (docs/api-behaviour.md, SLA policies), after the calendars they name; an export from before them has none.
  {
    table: 'sla_policies',
    key: ['id'],
    columns: { id: text, organization_id: text, name: text, position: integer, conditions: text, business_hours_id: text, targets: text, created_at: text, updated_at: text },
  },
  // Macros (docs/api-behaviour.md, Macros and actions): their actions name users, teams and fields by id.
  { table: 'macros', key: ['id'], columns: { id: text, organization_id: text, name: text, description: text, actions: text, created_at: text, updated_at: text } },
] as const;

/**
 * What `ticketing export` carries of triggers and automations (transfer.repository.ts lists it
 * with the rest): the rules, the trigger worker's place in the log and what they ran
 * (docs/api-behaviour.md, Triggers and automations).
 */
export const AUTOMATION_TABLES = [
  {
    table: 'triggers',
    key: ['id'],
    columns: {
      id: text, organization_id: text, name: text, on_types: text, conditions: text, actions: text, active: integer, position: integer,
      after_position: integer, created_at: timestamp, updated_at: timestamp,
    },
  },
  { table: 'trigger_cursors', key: ['organization_id'], columns: { organization_id: text, position: integer, lease_owner: text, lease_expires_at: text } },
  {
    table: 'trigger_runs',
    key: ['trigger_id', 'event_id'],
    columns: { organization_id: text, trigger_id: text, event_id: text, ticket_id: text, outcome: text, error: text, created_at: timestamp },
  },
  {
    table: 'automations',
    key: ['id'],
    columns: {
      id: text, organization_id: text, name: text, conditions: text, actions: text, active: integer, next_run_at: text, lease_owner: text,
      lease_expires_at: text, created_at: timestamp, updated_at: timestamp,
    },
  },
  {
    table: 'automation_runs',
    key: ['automation_id', 'ticket_id'],
    columns: { organization_id: text, automation_id: text, ticket_id: text, matched_since: text, created_at: timestamp },
  },
] as const;
