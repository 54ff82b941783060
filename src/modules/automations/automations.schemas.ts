import { Type, type Static } from 'typebox';
import { DateTime, named, pageQuery, Uuid } from '../../shared/schemas.js';
import { Action, MAX_ACTIONS } from '../macros/actions.schemas.js';
import { Condition, Conditions } from '../views/conditions.js';

/**
 * Triggers and automations (docs/api-behaviour.md, "Triggers and automations"): conditions in
 * the shared format (views/conditions.ts; automations may also use the hours_since_* fields) and
 * the macro actions plus `notify`.
 */

/** The event types a trigger may follow: those of a ticket that still exists. */
export const TRIGGER_EVENT_TYPES = ['ticket.created', 'ticket.updated', 'comment.created', 'comment.updated', 'attachment.created'] as const;

export const NotifyAction = Type.Object(
  {
    field: Type.Literal('notify'),
    value: Type.Object(
      {
        to: Type.String({ minLength: 1, maxLength: 254, description: '"requester" (the ticket\'s customer), "assignee" (its assigned user) or an email address', examples: ['assignee'] }),
        subject: Type.String({ minLength: 1, maxLength: 255, description: 'Sent as "[TKT-n] <subject>"' }),
        body: Type.String({ minLength: 1, maxLength: 10_000 }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'A mail through the email channel\'s outbox (automated: at most 10 per recipient per hour)' },
);

export const RuleAction = Type.Union([Action, NotifyAction]);
export type RuleAction = Static<typeof RuleAction>;
export const RuleActions = Type.Array(RuleAction, {
  minItems: 1,
  maxItems: MAX_ACTIONS,
  description: `1 to ${MAX_ACTIONS} actions: the macro actions (each field at most once) and notify (docs/api-behaviour.md, "Triggers and automations")`,
});
export type RuleActions = Static<typeof RuleActions>;

const Name = Type.String({ minLength: 1, maxLength: 255 });
const On = Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
  minItems: 1,
  maxItems: TRIGGER_EVENT_TYPES.length,
  uniqueItems: true,
  description: `The event types that run it: ${TRIGGER_EVENT_TYPES.join(', ')}`,
});
const Active = Type.Boolean({ description: 'Inactive ones never run (default true)' });
const Position = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Triggers run in ascending position (ties: oldest first); default: after the last' });
const StoredConditions = Type.Object({ all: Type.Array(Condition), any: Type.Array(Condition) });

const EXAMPLE_ACTIONS = [
  { field: 'assigned_team_id', value: null },
  { field: 'add_tags', value: ['vip'] },
  { field: 'notify', value: { to: 'assignee', subject: 'An urgent ticket', body: 'Please look at it.' } },
];

export const Trigger = named(
  'Trigger',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    on: Type.Array(Type.String()),
    conditions: StoredConditions,
    actions: Type.Array(RuleAction),
    active: Type.Boolean(),
    position: Type.Integer(),
    created_at: DateTime(),
    updated_at: DateTime(),
  }),
);
export type Trigger = Static<typeof Trigger>;

export const CreateTriggerBody = Type.Object(
  { name: Name, on: On, conditions: Conditions, actions: RuleActions, active: Type.Optional(Active), position: Type.Optional(Position) },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Urgent tickets: tag and tell the assignee',
        on: ['ticket.created', 'ticket.updated'],
        conditions: { all: [{ field: 'priority', operator: 'is', value: 'urgent' }], any: [] },
        actions: EXAMPLE_ACTIONS.slice(1),
      },
    ],
  },
);
export type CreateTriggerBody = Static<typeof CreateTriggerBody>;

export const UpdateTriggerBody = Type.Object(
  {
    name: Type.Optional(Name),
    on: Type.Optional(On),
    conditions: Type.Optional(Conditions),
    actions: Type.Optional(RuleActions),
    active: Type.Optional(Active),
    position: Type.Optional(Position),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ active: false }] },
);
export type UpdateTriggerBody = Static<typeof UpdateTriggerBody>;

export const Automation = named(
  'Automation',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    conditions: StoredConditions,
    actions: Type.Array(RuleAction),
    active: Type.Boolean(),
    created_at: DateTime(),
    updated_at: DateTime(),
  }),
);
export type Automation = Static<typeof Automation>;

export const CreateAutomationBody = Type.Object(
  { name: Name, conditions: Conditions, actions: RuleActions, active: Type.Optional(Active) },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Pending for 5 days: close with a note',
        conditions: { all: [{ field: 'status', operator: 'is', value: 'pending' }, { field: 'hours_since_status_change', operator: 'at_least', value: 120 }], any: [] },
        actions: [{ field: 'status', value: 'closed' }, { field: 'comment', value: { body: 'Closed after 5 days without an answer.', is_internal: true } }],
      },
    ],
  },
);
export type CreateAutomationBody = Static<typeof CreateAutomationBody>;

export const UpdateAutomationBody = Type.Object(
  { name: Type.Optional(Name), conditions: Type.Optional(Conditions), actions: Type.Optional(RuleActions), active: Type.Optional(Active) },
  { additionalProperties: false, minProperties: 1, examples: [{ active: false }] },
);
export type UpdateAutomationBody = Static<typeof UpdateAutomationBody>;

export const TriggerParams = Type.Object({ trigger_id: Uuid() });
export const AutomationParams = Type.Object({ automation_id: Uuid() });
export const ListRulesQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
