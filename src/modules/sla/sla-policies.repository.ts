import type { Insertable, Selectable, Updateable } from 'kysely';
import type { SlaPoliciesTable } from '../../db/types.sla.js';
import type { Executor } from '../../shared/executor.js';
import { paged, type Page, type SortKey } from '../../shared/pagination.js';

export type SlaPolicyRow = Selectable<SlaPoliciesTable>;

const COLUMNS = ['id', 'organization_id', 'name', 'position', 'conditions', 'business_hours_id', 'targets', 'created_at', 'updated_at'] as const;

/** The order policies are tried in: position, then oldest first. */
export const POSITION_ORDER: SortKey<{ position: number; created_at: string; id: string }> = {
  columns: ['position', 'created_at', 'id'],
  types: ['number', 'text', 'text'],
  direction: 'asc',
  of: (p) => [p.position, p.created_at, p.id],
};

export async function insertSlaPolicy(db: Executor, row: Insertable<SlaPoliciesTable>): Promise<void> {
  await db.insertInto('sla_policies').values(row).execute();
}

export function findSlaPolicy(db: Executor, organizationId: string, id: string): Promise<SlaPolicyRow | undefined> {
  return db.selectFrom('sla_policies').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function countSlaPolicies(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('sla_policies').select((eb) => eb.fn.countAll<number | string>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page of the organization's policies in the order they are tried. */
export function listSlaPolicies(db: Executor, organizationId: string, page: Page): Promise<SlaPolicyRow[]> {
  return db.selectFrom('sla_policies').select(COLUMNS).where('organization_id', '=', organizationId).$call(paged(page, POSITION_ORDER)).execute();
}

/** Every policy of the organization in the order they are tried (at most the organization's cap). */
export function allSlaPolicies(db: Executor, organizationId: string): Promise<SlaPolicyRow[]> {
  return db
    .selectFrom('sla_policies')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function updateSlaPolicy(db: Executor, organizationId: string, id: string, changes: Updateable<SlaPoliciesTable>): Promise<void> {
  await db.updateTable('sla_policies').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteSlaPolicy(db: Executor, organizationId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sla_policies').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
