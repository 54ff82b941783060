const text = 'text' as const;
const timestamp = 'timestamp' as const;
const integer = 'integer' as const;

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
