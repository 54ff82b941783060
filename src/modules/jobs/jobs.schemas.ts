import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';
import { Actions } from '../macros/actions.js';

/** The most tickets one bulk change may name (or a view may match). */
export const MAX_BULK_TICKETS = 1_000;

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export const JOB_ITEM_STATUSES = ['pending', 'applied', 'failed'] as const;

export const BulkBody = Type.Object(
  {
    ids: Type.Optional(
      Type.Array(Uuid(), {
        minItems: 1,
        maxItems: MAX_BULK_TICKETS,
        description: `The tickets to change, at most ${MAX_BULK_TICKETS.toLocaleString('en-US')} (a repeated id counts once); or give view_id`,
      }),
    ),
    view_id: Type.Optional(Uuid({ description: "A view the caller sees: the tickets it matches when the job is created (at most 1,000); or give ids" })),
    actions: Actions,
  },
  { additionalProperties: false },
);
export type BulkBody = Static<typeof BulkBody>;

export const JobAccepted = named('JobAccepted', Type.Object({ job_id: Uuid() }));
export type JobAccepted = Static<typeof JobAccepted>;

export const JobItem = Type.Object({
  ticket_id: Uuid(),
  status: StringEnum(JOB_ITEM_STATUSES, { description: 'pending: not yet done; applied: the actions changed the ticket (in one transaction, with its events); failed: see detail' }),
  detail: Type.Optional(Type.String({ description: 'Why the ticket failed' })),
});

const jobFields = {
  id: Uuid(),
  kind: Type.Literal('ticket_bulk'),
  status: StringEnum(JOB_STATUSES, {
    description: 'queued: nothing done yet; running; completed: every ticket done (some may have failed); failed: every ticket failed',
  }),
  total: Type.Integer({ description: 'Tickets in the job' }),
  done: Type.Integer({ description: 'Tickets done so far: applied or failed' }),
  failed: Type.Integer({ description: 'Tickets that failed (counted in done)' }),
  created_at: DateTime(),
  started_at: Nullable(DateTime()),
  finished_at: Nullable(DateTime()),
};

/** A job in a list: its progress without the per-ticket results (GET the job for those). */
export const JobSummary = named('JobSummary', Type.Object(jobFields));
export type JobSummary = Static<typeof JobSummary>;

export const Job = named(
  'Job',
  Type.Object({
    ...jobFields,
    results: Type.Array(JobItem, { description: 'One per ticket, in the order given (a view: its order)' }),
  }),
);
export type Job = Static<typeof Job>;

export const ListJobsQuery = Type.Object(pageQuery(50, 100), { additionalProperties: false });
export type ListJobsQuery = Static<typeof ListJobsQuery>;

export const JobParams = Type.Object({ job_id: Uuid() });
