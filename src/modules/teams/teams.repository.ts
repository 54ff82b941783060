import type { Insertable, Updateable } from 'kysely';
import type { TeamRow, TeamsTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';

export type TeamColumns = Omit<TeamRow, 'organization_id'>;

export interface MemberColumns {
  id: string;
  email: string;
  full_name: string;
}

const COLUMNS = ['id', 'name', 'description', 'created_at', 'updated_at'] as const;

/** True when the team exists in the organization. */
export async function teamExists(db: Executor, organizationId: string, teamId: string): Promise<boolean> {
  const row = await db
    .selectFrom('teams')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', teamId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The team; with `lock`, locked until the transaction ends (see forUpdate). */
export function findTeam(db: Executor, organizationId: string, id: string, lock = false): Promise<TeamColumns | undefined> {
  const query = db.selectFrom('teams').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

/** One page of the organization's teams, oldest first (served by teams_org_created_idx). */
export function listTeams(db: Executor, organizationId: string, page: Page): Promise<TeamColumns[]> {
  return db
    .selectFrom('teams')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .$call(paged(page, CREATED_ASC))
    .execute();
}

export async function insertTeam(db: Executor, row: Insertable<TeamsTable>): Promise<void> {
  await db.insertInto('teams').values(row).execute();
}

export async function updateTeam(db: Executor, organizationId: string, id: string, changes: Updateable<TeamsTable>): Promise<void> {
  await db.updateTable('teams').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Deletes a team; its membership rows go with it (the foreign key cascades). */
export async function deleteTeam(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('teams').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The team's members in the order they joined. */
export function listMembers(db: Executor, organizationId: string, teamId: string): Promise<MemberColumns[]> {
  return db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['users.id', 'users.email', 'users.full_name'])
    .where('team_members.organization_id', '=', organizationId)
    .where('team_members.team_id', '=', teamId)
    .orderBy('team_members.created_at', 'asc')
    .orderBy('users.id', 'asc')
    .execute();
}

/**
 * Adds a member; false when the user already was one. The primary key (organization, team, user)
 * decides, so two concurrent adds of the same user cannot both report a first add.
 */
export async function addMember(db: Executor, organizationId: string, teamId: string, userId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('team_members')
    .values({ organization_id: organizationId, team_id: teamId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(['organization_id', 'team_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeMember(db: Executor, organizationId: string, teamId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('team_members')
    .where('organization_id', '=', organizationId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Removes a user from every team of the organization. */
export async function removeUserFromTeams(db: Executor, organizationId: string, userId: string): Promise<void> {
  await db.deleteFrom('team_members').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}
