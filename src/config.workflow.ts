import { Type, type Static } from 'typebox';

/**
 * The settings of the work beside requests that organizes tickets — the live stream and presence,
 * views' counts, bulk jobs, automations, their retention and the SLA sweeper: their part of the environment schema
 * (config.ts spreads it into its own) and their typed shape in Config. The caps on what a tenant
 * can grow stay with the others in config.ts.
 */
export const WorkflowEnv = {
  // The live stream and presence (docs/api-behaviour.md#live-stream-and-presence).
  LIVE_STREAMS_PER_PRINCIPAL: Type.Integer({ minimum: 1, maximum: 1000, default: 8 }),
  LIVE_STREAMS_PER_ORG: Type.Integer({ minimum: 1, maximum: 100_000, default: 500 }),
  LIVE_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 250 }),
  LIVE_HEARTBEAT_MS: Type.Integer({ minimum: 100, maximum: 300_000, default: 15_000 }),
  LIVE_PRESENCE_TTL_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 45_000 }),
  VIEWS_COUNTS_MAX_AGE_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 30_000 }),
  VIEWS_COUNT_TIMEOUT_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 10_000 }),
  // Automations (docs/api-behaviour.md#triggers-and-automations): how often they are checked.
  AUTOMATIONS_INTERVAL_MS: Type.Integer({ minimum: 1_000, maximum: 86_400_000, default: 60_000 }),
  SLA_SWEEP_INTERVAL_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 1_000 }),
  // Bulk jobs (docs/api-behaviour.md#bulk-changes-and-jobs): idle look-ups, and a dead process's lease.
  JOBS_POLL_INTERVAL_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 500 }),
  JOBS_LEASE_MS: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: 30_000 }),
  // Retention (hourly, 0 keeps everything): finished bulk jobs with their items; trigger and automation runs.
  JOBS_RETENTION_DAYS: Type.Integer({ minimum: 0, maximum: 36_500, default: 30 }),
  AUTOMATION_RUNS_RETENTION_DAYS: Type.Integer({ minimum: 0, maximum: 36_500, default: 30 }),
};

export interface WorkflowConfig {
  /** Bulk jobs: how often an idle process looks for items, and how long a claimed batch stays its own. */
  jobs: { pollIntervalMs: number; leaseMs: number; retentionDays: number };
  /** Open streams per key or user and per organization (per process); how often other processes' events are looked for; heartbeat and presence lifetimes. */
  live: { streamsPerPrincipal: number; streamsPerOrg: number; pollIntervalMs: number; heartbeatMs: number; presenceTtlMs: number };
  /** How old `GET /v1/views/counts` may answer from each process's memory; 0: counted on every request. */
  viewsCountsMaxAgeMs: number;
  /** How long one view's count may take (on a worker thread or pool connection); past it the view's count is null. */
  viewsCountTimeoutMs: number;
  /** How often automations are checked (automations.job.ts). */
  automationsIntervalMs: number;
  /** Days trigger_runs and automation_runs rows are kept, as far as pruning cannot run a rule twice (automations.retention.ts); 0: forever. */
  automationRunsRetentionDays: number;
  /** How often the SLA sweeper looks for due deadlines (src/modules/sla/sla.sweeper.ts). */
  slaSweepIntervalMs: number;
}

type WorkflowEnvValues = Static<ReturnType<typeof Type.Object<typeof WorkflowEnv>>>;

/** The workflow settings from the validated environment. */
export function workflowConfig(e: WorkflowEnvValues): WorkflowConfig {
  return {
    jobs: { pollIntervalMs: e.JOBS_POLL_INTERVAL_MS, leaseMs: e.JOBS_LEASE_MS, retentionDays: e.JOBS_RETENTION_DAYS },
    live: { streamsPerPrincipal: e.LIVE_STREAMS_PER_PRINCIPAL, streamsPerOrg: e.LIVE_STREAMS_PER_ORG, pollIntervalMs: e.LIVE_POLL_INTERVAL_MS, heartbeatMs: e.LIVE_HEARTBEAT_MS, presenceTtlMs: e.LIVE_PRESENCE_TTL_MS },
    automationsIntervalMs: e.AUTOMATIONS_INTERVAL_MS,
    automationRunsRetentionDays: e.AUTOMATION_RUNS_RETENTION_DAYS,
    viewsCountsMaxAgeMs: e.VIEWS_COUNTS_MAX_AGE_MS,
    viewsCountTimeoutMs: e.VIEWS_COUNT_TIMEOUT_MS,
    slaSweepIntervalMs: e.SLA_SWEEP_INTERVAL_MS,
  };
}
