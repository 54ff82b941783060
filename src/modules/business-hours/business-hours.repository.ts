import type { Insertable, Selectable, Updateable } from 'kysely';
import type { BusinessHoursTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';

export type BusinessHoursRow = Selectable<BusinessHoursTable>;

const COLUMNS = ['id', 'organization_id', 'name', 'time_zone', 'weekly', 'holidays', 'created_at', 'updated_at'] as const;

export async function insertBusinessHours(db: Executor, row: Insertable<BusinessHoursTable>): Promise<void> {
  await db.insertInto('business_hours').values(row).execute();
}

export function findBusinessHours(db: Executor, organizationId: string, id: string): Promise<BusinessHoursRow | undefined> {
  return db.selectFrom('business_hours').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function countBusinessHours(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('business_hours')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The organization's calendars, oldest first. */
export function listBusinessHours(db: Executor, organizationId: string, page: Page): Promise<BusinessHoursRow[]> {
  return db.selectFrom('business_hours').select(COLUMNS).where('organization_id', '=', organizationId).$call(paged(page, CREATED_ASC)).execute();
}

export async function updateBusinessHours(db: Executor, organizationId: string, id: string, changes: Updateable<BusinessHoursTable>): Promise<void> {
  await db.updateTable('business_hours').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteBusinessHours(db: Executor, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('business_hours').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Whether an SLA policy counts time in this calendar; deleting one in use is 409. */
export async function businessHoursInUse(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const row = await db.selectFrom('sla_policies').select('id').where('organization_id', '=', organizationId).where('business_hours_id', '=', id).limit(1).executeTakeFirst();
  return row !== undefined;
}
