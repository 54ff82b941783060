import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';
import { Condition, Conditions } from './conditions.js';

export const SORT_BY = ['created_at', 'updated_at', 'priority', 'due_date', 'ticket_number', 'sla_next_due_at'] as const;
export const SORT_ORDER = ['asc', 'desc'] as const;

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Sort = Type.Object(
  {
    by: StringEnum(SORT_BY, { description: 'priority sorts low < medium < high < urgent; tickets without a due date (due_date) or a running SLA clock (sla_next_due_at) sort after those with one (asc)' }),
    order: StringEnum(SORT_ORDER),
  },
  { additionalProperties: false, description: "The order of the view's tickets; ties broken by ticket_number in the same order" },
);
const Shared = Type.Boolean({ description: 'true: everyone of the organization with views:read sees it; false: only its owner (the caller) does' });

export const View = named(
  'View',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    shared: Type.Boolean(),
    owner_user_id: Nullable(Uuid({ description: 'The user a personal view belongs to; null for a shared view' })),
    conditions: Type.Object({ all: Type.Array(Condition), any: Type.Array(Condition) }),
    sort: Sort,
    created_at: DateTime(),
    updated_at: DateTime(),
  }),
);
export type View = Static<typeof View>;

export const CreateViewBody = Type.Object(
  {
    name: Name,
    shared: Shared,
    conditions: Conditions,
    sort: Type.Optional(Sort),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Open urgent tickets',
        shared: true,
        conditions: { all: [{ field: 'status', operator: 'in', value: ['new', 'open'] }, { field: 'priority', operator: 'is', value: 'urgent' }], any: [] },
        sort: { by: 'created_at', order: 'desc' },
      },
    ],
  },
);
export type CreateViewBody = Static<typeof CreateViewBody>;

export const UpdateViewBody = Type.Object(
  {
    name: Type.Optional(Name),
    shared: Type.Optional(Shared),
    conditions: Type.Optional(Conditions),
    sort: Type.Optional(Sort),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Urgent tickets' }] },
);
export type UpdateViewBody = Static<typeof UpdateViewBody>;

export const ViewParams = Type.Object({ view_id: Uuid() });
export const ListViewsQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
export const ViewTicketsQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });

export const ViewCounts = named(
  'ViewCounts',
  Type.Object({
  counted_at: DateTime({ description: 'When the counts were taken: they may be up to VIEWS_COUNTS_MAX_AGE_MS (default 30 seconds) old' }),
  age_seconds: Type.Integer({ minimum: 0, description: 'How old the counts are, in whole seconds (also the Age header)' }),
  views: Type.Array(
    Type.Object({
      id: Uuid(),
      name: Type.String(),
      count: Nullable(Type.Integer({ description: 'null when the view names "me" and the caller has no user, or counting it took longer than VIEWS_COUNT_TIMEOUT_MS (or found the organization\'s counts busy)' })),
    }),
  ),
  }),
);
export type ViewCounts = Static<typeof ViewCounts>;
