import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';
import { Condition, Conditions } from '../views/conditions.js';

export const TARGET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
/** A year of minutes: no target reaches further. */
export const MAX_TARGET_MINUTES = 525_600;

const Minutes = (description: string) => Nullable(Type.Integer({ minimum: 1, maximum: MAX_TARGET_MINUTES, description }));

export const SlaTarget = Type.Object(
  {
    priority: StringEnum(TARGET_PRIORITIES),
    first_response_minutes: Type.Optional(Minutes('Business minutes to the first public agent comment; null: no first-response clock')),
    next_response_minutes: Type.Optional(Minutes("Business minutes from a customer's reply to the agent's next public comment; null: none")),
    resolution_minutes: Type.Optional(Minutes('Business minutes to resolved (or closed); null: no resolution clock')),
    warning_minutes: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_TARGET_MINUTES, default: 0, description: 'sla.warning fires this many business minutes before each due time; 0: no warning' }),
    ),
  },
  { additionalProperties: false },
);
export type SlaTargetInput = Static<typeof SlaTarget>;

const StoredTarget = Type.Object({
  priority: StringEnum(TARGET_PRIORITIES),
  first_response_minutes: Nullable(Type.Integer()),
  next_response_minutes: Nullable(Type.Integer()),
  resolution_minutes: Nullable(Type.Integer()),
  warning_minutes: Type.Integer(),
});

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Position = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'Policies are tried in ascending position (ties: oldest first); the first whose conditions match applies' });
const BusinessHoursId = Nullable(Uuid({ description: 'A business-hours calendar (GET /v1/business-hours): time counts only within its hours; null: every minute counts' }));
const Targets = Type.Array(SlaTarget, { minItems: 1, maxItems: 4, description: 'One per priority; a ticket of a priority without a target has no clocks under this policy' });

export const SlaPolicy = named(
  'SlaPolicy',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    position: Type.Integer(),
    conditions: Type.Object({ all: Type.Array(Condition), any: Type.Array(Condition) }),
    business_hours_id: Nullable(Uuid()),
    targets: Type.Array(StoredTarget),
    created_at: DateTime(),
    updated_at: DateTime(),
  }),
);
export type SlaPolicy = Static<typeof SlaPolicy>;

const EXAMPLE = {
  name: 'Urgent tickets',
  position: 0,
  conditions: { all: [{ field: 'priority', operator: 'in', value: ['high', 'urgent'] }], any: [] },
  business_hours_id: null,
  targets: [
    { priority: 'urgent', first_response_minutes: 30, next_response_minutes: 60, resolution_minutes: 240, warning_minutes: 10 },
    { priority: 'high', first_response_minutes: 120, next_response_minutes: 240, resolution_minutes: 1440, warning_minutes: 30 },
  ],
};

export const CreateSlaPolicyBody = Type.Object(
  {
    name: Name,
    position: Type.Optional(Position),
    conditions: Conditions,
    business_hours_id: Type.Optional(BusinessHoursId),
    targets: Targets,
  },
  { additionalProperties: false, examples: [EXAMPLE] },
);
export type CreateSlaPolicyBody = Static<typeof CreateSlaPolicyBody>;

export const UpdateSlaPolicyBody = Type.Object(
  {
    name: Type.Optional(Name),
    position: Type.Optional(Position),
    conditions: Type.Optional(Conditions),
    business_hours_id: Type.Optional(BusinessHoursId),
    targets: Type.Optional(Targets),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ position: 1 }] },
);
export type UpdateSlaPolicyBody = Static<typeof UpdateSlaPolicyBody>;

export const SlaPolicyParams = Type.Object({ sla_policy_id: Uuid() });
export const ListSlaPoliciesQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });

const Metric = StringEnum(['first_response', 'next_response', 'resolution'] as const);

/** The `sla` block of a ticket answer. */
export const TicketSla = Nullable(
  Type.Object(
    {
      policy_id: Uuid({ description: 'The SLA policy that applies (the first whose conditions the ticket met at its last change)' }),
      first_response_due_at: Nullable(DateTime({ description: 'Null when fulfilled, paused, or without a target' })),
      next_response_due_at: Nullable(DateTime({ description: "Running from a customer's reply until the agent's next public comment" })),
      resolution_due_at: Nullable(DateTime()),
      paused: Type.Boolean({ description: 'True while no clock runs: the ticket is pending (or resolved, closed)' }),
      breaches: Type.Array(Type.Object({ metric: Metric, due_at: DateTime(), breached_at: DateTime() })),
    },
    { description: "The ticket's SLA clocks (docs/api-behaviour.md, SLA policies); null when no policy applies" },
  ),
);
