import type { Executor } from '../../shared/executor.js';

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
