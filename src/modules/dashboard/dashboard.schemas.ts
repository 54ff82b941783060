import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, Uuid } from '../../shared/schemas.js';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../tickets/tickets.schemas.js';

/** Statuses that count as open on the dashboard: every status but resolved and closed. */
export const OPEN_STATUSES = ['new', 'open', 'pending'] as const;

const Count = Type.Integer({ minimum: 0 });

const keyedCounts = (keys: readonly string[], description: string) =>
  Type.Object(Object.fromEntries(keys.map((k) => [k, Count])), { description, additionalProperties: false });

export const StatusCounts = keyedCounts(TICKET_STATUSES, 'One entry per status, 0 when there is none');
export type StatusCounts = Record<(typeof TICKET_STATUSES)[number], number>;
export const PriorityCounts = keyedCounts(TICKET_PRIORITIES, 'One entry per priority, 0 when there is none');
export type PriorityCounts = Record<(typeof TICKET_PRIORITIES)[number], number>;

const Windows = (what: string) =>
  Type.Object({
    last_24_hours: Type.Integer({ minimum: 0, description: `${what} in the 24 hours before generated_at` }),
    last_7_days: Type.Integer({ minimum: 0, description: `${what} in the 7 days before generated_at` }),
  });

export const TeamLoad = named('TeamLoad', Type.Object({ id: Uuid(), name: Type.String(), open: Count }));
export type TeamLoad = Static<typeof TeamLoad>;
export const AgentLoad = named('AgentLoad', Type.Object({ id: Uuid(), full_name: Type.String(), open: Count }));
export type AgentLoad = Static<typeof AgentLoad>;

export const Dashboard = named('Dashboard', Type.Object(
  {
    generated_at: DateTime({ description: 'The instant every time window is measured back from' }),
    tickets: Type.Object({
      total: Count,
      by_status: StatusCounts,
      by_priority: PriorityCounts,
    }),
    open: Type.Object(
      {
        total: Count,
        by_priority: PriorityCounts,
        unassigned: Type.Integer({ minimum: 0, description: 'Open tickets with no agent (assigned_user_id null)' }),
        without_team: Type.Integer({ minimum: 0, description: 'Open tickets with no team (assigned_team_id null)' }),
        overdue: Type.Integer({ minimum: 0, description: 'Open tickets whose due_date is before generated_at' }),
      },
      { description: 'Tickets with status new, open or pending' },
    ),
    created: Windows('Tickets created'),
    resolved: Windows('Tickets whose resolved_at falls'),
    resolution_last_30_days: Type.Object({
      resolved: Type.Integer({ minimum: 0, description: 'Tickets whose resolved_at is in the 30 days before generated_at' }),
      median_seconds: Nullable(
        Type.Number({ minimum: 0, description: 'Median of resolved_at - created_at over those tickets, in seconds (millisecond precision); null when there are none' }),
      ),
    }),
    open_by_team: Type.Array(TeamLoad, { description: 'Every team of the organization, most open tickets first, then by name' }),
    open_by_agent: Type.Array(AgentLoad, {
      description: 'Every active user, and any inactive one still holding open tickets; most open tickets first, then by name',
    }),
  },
  { description: 'Figures for one organization' },
));
export type Dashboard = Static<typeof Dashboard>;

/** The dashboard takes no parameters; any query parameter is a 422 like on every other route. */
export const DashboardQuery = Type.Object({}, { additionalProperties: false });
