import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Store } from '../../db/store.js';
import type { TeamsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
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
async function getTeamRow(db: Executor, organizationId: string, id: string): Promise<TeamColumns> {
  const row = await findTeam(db, organizationId, id);
  if (!row) throw errors.notFound('Team');
  return row;
}

async function presentTeam(db: Executor, organizationId: string, id: string): Promise<Team> {
  const row = await getTeamRow(db, organizationId, id);
  const members = await listMembers(db, organizationId, id);
  return { ...presentTeamSummary(row), members: members.map((m) => ({ id: m.id, email: m.email, full_name: m.full_name })) };
}

export async function listTeams(deps: TeamDeps, organizationId: string, page: Page): Promise<TeamSummary[]> {
  return (await listTeamRows(deps.store.db, organizationId, page)).map(presentTeamSummary);
}

export function getTeam(deps: TeamDeps, organizationId: string, id: string): Promise<Team> {
  return presentTeam(deps.store.db, organizationId, id);
}

export async function createTeam(deps: TeamDeps, organizationId: string, body: CreateTeamBody): Promise<Team> {
  const { db } = deps.store;
  const id = randomUUID();
  const now = creationTimeIso();
  await insertTeam(db, {
    id,
    organization_id: organizationId,
    name: body.name,
    description: body.description ?? null,
    created_at: now,
    updated_at: now,
  });
  return presentTeam(db, organizationId, id);
}

export async function updateTeam(deps: TeamDeps, organizationId: string, id: string, body: UpdateTeamBody): Promise<Team> {
  const { db } = deps.store;
  const current = await getTeamRow(db, organizationId, id);
  const changes: Updateable<TeamsTable> = {};
  if (body.name !== undefined && body.name !== current.name) changes.name = body.name;
  if (body.description !== undefined && body.description !== current.description) changes.description = body.description;
  if (Object.keys(changes).length > 0) {
    changes.updated_at = nowIso();
    await updateTeamRow(db, organizationId, id, changes);
  }
  return presentTeam(db, organizationId, id);
}

/** Deletes the team and, in the same transaction, unassigns its tickets (touching `updated_at`). */
export async function deleteTeam(deps: TeamDeps, organizationId: string, id: string): Promise<void> {
  await deps.store.db.transaction().execute(async (trx) => {
    await getTeamRow(trx, organizationId, id);
    await unassignTickets(trx, organizationId, 'assigned_team_id', id, nowIso());
    if (!(await deleteTeamRow(trx, organizationId, id))) throw errors.notFound('Team');
  });
}

/** Adds a user to the team; true on a first add, false when they already were a member. */
export async function addMember(deps: TeamDeps, organizationId: string, teamId: string, userId: string): Promise<boolean> {
  const { db } = deps.store;
  return db.transaction().execute(async (trx) => {
    await getTeamRow(trx, organizationId, teamId);
    if (!(await userExists(trx, organizationId, userId))) throw errors.notFound('User');
    return addMemberRow(trx, organizationId, teamId, userId, creationTimeIso());
  });
}

export async function removeMember(deps: TeamDeps, organizationId: string, teamId: string, userId: string): Promise<void> {
  const { db } = deps.store;
  await getTeamRow(db, organizationId, teamId);
  if (!(await removeMemberRow(db, organizationId, teamId, userId))) throw errors.notFound('Team member');
}
