import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Store } from '../../db/store.js';
import type { TeamsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { changesBetween, withEvents, type Actor } from '../events/events.log.js';
import { insertTicketsUnassignedEvents } from '../events/events.repository.js';
import { unassignTickets } from '../tickets/tickets.repository.js';
import { userExists } from '../users/users.repository.js';
import type { CreateTeamBody, Team, TeamSummary, UpdateTeamBody } from './teams.schemas.js';
import {
  addMember as addMemberRow,
  deleteTeam as deleteTeamRow,
  findTeam,
  insertTeam,
  listMembers,
  listTeams as listTeamRows,
  removeMember as removeMemberRow,
  updateTeam as updateTeamRow,
  type TeamColumns,
} from './teams.repository.js';

export interface TeamDeps {
  store: Store;
}

export function presentTeamSummary(row: TeamColumns): TeamSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** The team, or a 404 that looks the same whether it is missing or another organization's. */
async function getTeamRow(db: Executor, organizationId: string, id: string, lock = false): Promise<TeamColumns> {
  const row = await findTeam(db, organizationId, id, lock);
  if (!row) throw errors.notFound('Team');
  return row;
}

async function presentTeam(db: Executor, organizationId: string, id: string): Promise<Team> {
  return presentTeamRow(db, organizationId, await getTeamRow(db, organizationId, id));
}

/** The team as GET shows it, members included (what its ETag is made of). */
async function presentTeamRow(db: Executor, organizationId: string, row: TeamColumns): Promise<Team> {
  const members = await listMembers(db, organizationId, row.id);
  return { ...presentTeamSummary(row), members: members.map((m) => ({ id: m.id, email: m.email, full_name: m.full_name })) };
}

export async function listTeams(deps: TeamDeps, organizationId: string, page: Page): Promise<TeamSummary[]> {
  return (await listTeamRows(deps.store.db, organizationId, page)).map(presentTeamSummary);
}

export function getTeam(deps: TeamDeps, organizationId: string, id: string): Promise<Team> {
  return presentTeam(deps.store.db, organizationId, id);
}

export async function createTeam(deps: TeamDeps, organizationId: string, body: CreateTeamBody, actor: Actor): Promise<Team> {
  const id = randomUUID();
  const now = creationTimeIso();
  const row = { id, name: body.name, description: body.description ?? null, created_at: now, updated_at: now };
  await withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    await insertTeam(trx, { ...row, organization_id: organizationId });
    events.add({ type: 'team.created', resourceType: 'team', resourceId: id, object: presentTeamSummary(row), occurredAt: now });
  });
  return { ...presentTeamSummary(row), members: [] };
}

export async function updateTeam(
  deps: TeamDeps,
  organizationId: string,
  id: string,
  body: UpdateTeamBody,
  actor: Actor,
  ifMatch?: IfMatch,
): Promise<Team> {
  const { db } = deps.store;
  await withEvents(db, organizationId, actor, async (trx, events) => {
    const current = await getTeamRow(trx, organizationId, id, true);
    if (ifMatch !== undefined) assertIfMatch(ifMatch, await presentTeamRow(trx, organizationId, current), 'The team');
    const changes: Updateable<TeamsTable> = {};
    if (body.name !== undefined && body.name !== current.name) changes.name = body.name;
    if (body.description !== undefined && body.description !== current.description) changes.description = body.description;
    if (Object.keys(changes).length === 0) return;
    const now = nowIso();
    changes.updated_at = now;
    await updateTeamRow(trx, organizationId, id, changes);
    const before = presentTeamSummary(current);
    const team = presentTeamSummary({ ...current, ...changes });
    events.add({ type: 'team.updated', resourceType: 'team', resourceId: id, object: team, changes: changesBetween(before, team), occurredAt: now });
  });
  return presentTeam(db, organizationId, id);
}

/**
 * Deletes the team and, in the same transaction, unassigns its tickets (touching `updated_at`):
 * `ticket.updated` for each (one statement), then `team.deleted`. The memberships go with the team
 * and have no events of their own.
 */
export async function deleteTeam(deps: TeamDeps, organizationId: string, id: string, actor: Actor, ifMatch?: IfMatch): Promise<void> {
  await withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    const current = await getTeamRow(trx, organizationId, id, true);
    if (ifMatch !== undefined) assertIfMatch(ifMatch, await presentTeamRow(trx, organizationId, current), 'The team');
    const now = nowIso();
    await events.addSelected(now, (stamp) => insertTicketsUnassignedEvents(trx, stamp, 'assigned_team_id', id));
    await unassignTickets(trx, organizationId, 'assigned_team_id', id, now);
    if (!(await deleteTeamRow(trx, organizationId, id))) throw errors.notFound('Team');
    events.add({ type: 'team.deleted', resourceType: 'team', resourceId: id, object: presentTeamSummary(current), occurredAt: now });
  });
}

/** Adds a user to the team; true on a first add, false when they already were a member. */
export async function addMember(deps: TeamDeps, organizationId: string, teamId: string, userId: string, actor: Actor): Promise<boolean> {
  return withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    await getTeamRow(trx, organizationId, teamId);
    if (!(await userExists(trx, organizationId, userId))) throw errors.notFound('User');
    const now = creationTimeIso();
    const added = await addMemberRow(trx, organizationId, teamId, userId, now);
    if (added) {
      events.add({ type: 'team.member_added', resourceType: 'team', resourceId: teamId, object: { team_id: teamId, user_id: userId }, occurredAt: now });
    }
    return added;
  });
}

export async function removeMember(deps: TeamDeps, organizationId: string, teamId: string, userId: string, actor: Actor): Promise<void> {
  await withEvents(deps.store.db, organizationId, actor, async (trx, events) => {
    await getTeamRow(trx, organizationId, teamId);
    if (!(await removeMemberRow(trx, organizationId, teamId, userId))) throw errors.notFound('Team member');
    events.add({ type: 'team.member_removed', resourceType: 'team', resourceId: teamId, object: { team_id: teamId, user_id: userId } });
  });
}
