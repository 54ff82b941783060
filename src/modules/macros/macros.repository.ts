import type { Insertable, Selectable, Updateable } from 'kysely';
import type { MacrosTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';

export type MacroRow = Selectable<MacrosTable>;

const COLUMNS = ['id', 'organization_id', 'name', 'description', 'actions', 'created_at', 'updated_at'] as const;

export async function insertMacro(db: Executor, row: Insertable<MacrosTable>): Promise<void> {
  await db.insertInto('macros').values(row).execute();
}

export function findMacro(db: Executor, organizationId: string, id: string): Promise<MacroRow | undefined> {
  return db.selectFrom('macros').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function countMacros(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('macros').select((eb) => eb.fn.countAll<number | string>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The organization's macros, oldest first. */
export function listMacros(db: Executor, organizationId: string, page: Page): Promise<MacroRow[]> {
  return db.selectFrom('macros').select(COLUMNS).where('organization_id', '=', organizationId).$call(paged(page, CREATED_ASC)).execute();
}

export async function updateMacro(db: Executor, organizationId: string, id: string, changes: Updateable<MacrosTable>): Promise<void> {
  await db.updateTable('macros').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Whether a macro was deleted. */
export async function deleteMacro(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('macros').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
