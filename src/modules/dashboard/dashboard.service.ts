import type { Store } from '../../db/store.js';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../tickets/tickets.schemas.js';
import {
  countByStatusAndPriority,
  countCreatedSince,
  countOpenByAssignee,
  countOverdue,
  countResolvedSince,
  listAgentNames,
  listTeamNames,
  resolutionSecondsAt,
} from './dashboard.repository.js';
import { OPEN_STATUSES, type AgentLoad, type Dashboard, type PriorityCounts, type StatusCounts, type TeamLoad } from './dashboard.schemas.js';

export interface DashboardDeps {
  store: Store;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const zeros = <K extends string>(keys: readonly K[]): Record<K, number> =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

const isOpen = (status: string): boolean => (OPEN_STATUSES as readonly string[]).includes(status);

/** Most open tickets first, then by name, then by id, so the order is stable. */
function byLoad<T extends { id: string; open: number }>(name: (item: T) => string) {
  return (a: T, b: T): number => b.open - a.open || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0) || (a.id < b.id ? -1 : 1);
}

/**
 * The organization's figures at one instant. All queries run in one repeatable-read transaction,
 * so the figures agree with each other even while tickets change (SQLite: one read snapshot).
 */
export async function getDashboard(deps: DashboardDeps, organizationId: string): Promise<Dashboard> {
  const { db, dialect } = deps.store;
  const now = Date.now();
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();
  const generatedAt = at(0);
  const since = { since24h: at(DAY_MS), since7d: at(7 * DAY_MS), since30d: at(30 * DAY_MS) };

  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const byStatus: StatusCounts = zeros(TICKET_STATUSES);
      const byPriority: PriorityCounts = zeros(TICKET_PRIORITIES);
      const openByPriority: PriorityCounts = zeros(TICKET_PRIORITIES);
      for (const row of await countByStatusAndPriority(trx, organizationId)) {
        const n = Number(row.count);
        byStatus[row.status] += n;
        byPriority[row.priority] += n;
        if (isOpen(row.status)) openByPriority[row.priority] += n;
      }

      const agentCounts = new Map<string | null, number>();
      const teamCounts = new Map<string | null, number>();
      for (const row of await countOpenByAssignee(trx, organizationId)) {
        const n = Number(row.count);
        agentCounts.set(row.assigned_user_id, (agentCounts.get(row.assigned_user_id) ?? 0) + n);
        teamCounts.set(row.assigned_team_id, (teamCounts.get(row.assigned_team_id) ?? 0) + n);
      }
      const overdue = await countOverdue(trx, organizationId, generatedAt);
      const created = await countCreatedSince(trx, organizationId, since.since24h, since.since7d);
      const resolved = await countResolvedSince(trx, organizationId, since);

      // The median of n sorted values: the middle one, or the mean of the middle two when n is even.
      const n = resolved.last_30_days;
      let median: number | null = null;
      if (n > 0) {
        const middle = await resolutionSecondsAt(trx, dialect, organizationId, since.since30d, Math.floor((n - 1) / 2), 2 - (n % 2));
        if (middle.length > 0) median = Math.round((middle.reduce((a, b) => a + b, 0) / middle.length) * 1000) / 1000;
      }

      const teams: TeamLoad[] = (await listTeamNames(trx, organizationId))
        .map((t) => ({ id: t.id, name: t.name, open: teamCounts.get(t.id) ?? 0 }))
        .sort(byLoad((t) => t.name));
      const agents: AgentLoad[] = (await listAgentNames(trx, organizationId))
        .map((u) => ({ id: u.id, full_name: u.full_name, open: agentCounts.get(u.id) ?? 0, active: Boolean(u.is_active) }))
        .filter((u) => u.active || u.open > 0)
        .map(({ id, full_name, open }) => ({ id, full_name, open }))
        .sort(byLoad((u) => u.full_name));

      return {
        generated_at: generatedAt,
        tickets: {
          total: Object.values(byStatus).reduce((a, b) => a + b, 0),
          by_status: byStatus,
          by_priority: byPriority,
        },
        open: {
          total: OPEN_STATUSES.reduce((sum, s) => sum + byStatus[s], 0),
          by_priority: openByPriority,
          unassigned: agentCounts.get(null) ?? 0,
          without_team: teamCounts.get(null) ?? 0,
          overdue,
        },
        created,
        resolved: { last_24_hours: resolved.last_24_hours, last_7_days: resolved.last_7_days },
        resolution_last_30_days: { resolved: n, median_seconds: median },
        open_by_team: teams,
        open_by_agent: agents,
      };
    });
}
