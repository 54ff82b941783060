import type { Executor } from '../../shared/executor.js';

/** True when the user exists in the organization. */
export async function userExists(db: Executor, organizationId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
