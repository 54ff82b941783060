import type { Insertable, Selectable, Updateable } from 'kysely';
import type { TicketFieldsTable, TicketFieldValuesTable } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { paged, CREATED_ASC, type Page } from '../../shared/pagination.js';

export type TicketFieldRow = Selectable<TicketFieldsTable>;

const COLUMNS = ['id', 'organization_id', 'key', 'label', 'type', 'options', 'required', 'created_at', 'updated_at'] as const;

export async function insertTicketField(db: Executor, row: Insertable<TicketFieldsTable>): Promise<void> {
  await db.insertInto('ticket_fields').values(row).execute();
}

export function findTicketField(db: Executor, organizationId: string, id: string): Promise<TicketFieldRow | undefined> {
  return db.selectFrom('ticket_fields').select(COLUMNS).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export async function ticketFieldKeyTaken(db: Executor, organizationId: string, key: string): Promise<boolean> {
  return (await db.selectFrom('ticket_fields').select('id').where('organization_id', '=', organizationId).where('key', '=', key).executeTakeFirst()) !== undefined;
}

export async function countTicketFields(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('ticket_fields').select((eb) => eb.fn.countAll<number | string>().as('n')).where('organization_id', '=', organizationId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every definition of the organization (at most MAX_FIELDS_PER_ORGANIZATION), by key. */
export async function ticketFieldsByKey(db: Executor, organizationId: string): Promise<Map<string, TicketFieldRow>> {
  const rows = await db.selectFrom('ticket_fields').select(COLUMNS).where('organization_id', '=', organizationId).execute();
  return new Map(rows.map((r) => [r.key, r]));
}

/** Whether one of the organizations has a required field (a create without custom fields must then be checked). */
export async function hasRequiredTicketField(db: Executor, organizationIds: string[]): Promise<boolean> {
  const row = await db.selectFrom('ticket_fields').select('id').where('organization_id', 'in', organizationIds).where('required', '=', 1).limit(1).executeTakeFirst();
  return row !== undefined;
}

export function listTicketFields(db: Executor, organizationId: string, page: Page): Promise<TicketFieldRow[]> {
  return db.selectFrom('ticket_fields').select(COLUMNS).where('organization_id', '=', organizationId).$call(paged(page, CREATED_ASC)).execute();
}

export async function updateTicketField(db: Executor, organizationId: string, id: string, changes: Updateable<TicketFieldsTable>): Promise<void> {
  await db.updateTable('ticket_fields').set(changes).where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

export async function deleteTicketField(db: Executor, organizationId: string, id: string): Promise<void> {
  await db.deleteFrom('ticket_field_values').where('organization_id', '=', organizationId).where('field_id', '=', id).execute();
  await db.deleteFrom('ticket_fields').where('organization_id', '=', organizationId).where('id', '=', id).execute();
}

/** Ids of the tickets that have a value of the field. */
export async function ticketIdsWithField(db: Executor, organizationId: string, fieldId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('ticket_field_values')
    .select('ticket_id')
    .distinct()
    .where('organization_id', '=', organizationId)
    .where('field_id', '=', fieldId)
    .execute();
  return rows.map((r) => r.ticket_id);
}

/** Replaces a ticket's indexed values of some fields. */
export async function replaceFieldValues(
  db: Executor,
  organizationId: string,
  ticketId: string,
  fieldIds: string[],
  rows: Array<Insertable<TicketFieldValuesTable>>,
): Promise<void> {
  if (fieldIds.length > 0) {
    await db.deleteFrom('ticket_field_values').where('organization_id', '=', organizationId).where('ticket_id', '=', ticketId).where('field_id', 'in', fieldIds).execute();
  }
  if (rows.length > 0) await db.insertInto('ticket_field_values').values(rows).execute();
}
