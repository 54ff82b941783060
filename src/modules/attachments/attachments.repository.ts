import type { Insertable } from 'kysely';
import type { AttachmentRow, AttachmentsTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';

const COLUMNS = ['id', 'organization_id', 'ticket_id', 'filename', 'content_type', 'size_bytes', 'uploaded_by_user_id', 'created_at'] as const;

export async function insertAttachment(db: Executor, row: Insertable<AttachmentsTable>): Promise<void> {
  await db.insertInto('attachments').values(row).execute();
}

/** An attachment of a ticket of the organization; undefined when any of the three do not match. With `lock`, locked (see forUpdate). */
export function findAttachment(db: Executor, organizationId: string, ticketId: string, id: string, lock = false): Promise<AttachmentRow | undefined> {
  const query = db
    .selectFrom('attachments')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

/** An attachment by id alone, for signed downloads: the signature has already proved access. */
export function findAttachmentById(db: Executor, id: string): Promise<AttachmentRow | undefined> {
  return db.selectFrom('attachments').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** A ticket's attachments, oldest first (served by attachments_org_ticket_created_idx). */
export function listAttachments(db: Executor, organizationId: string, ticketId: string, page: Page): Promise<AttachmentRow[]> {
  return db
    .selectFrom('attachments')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .$call(paged(page, CREATED_ASC))
    .execute();
}

export async function deleteAttachment(db: Executor, organizationId: string, ticketId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('attachments')
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Which of these ids are attachments of the ticket. */
export async function attachmentIdsOfTicket(db: Executor, organizationId: string, ticketId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('attachments')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Ids of the attachments of some tickets, so their stored bytes can be removed after the rows. */
export async function attachmentIdsOfTickets(db: Executor, organizationId: string, ticketIds: string[]): Promise<string[]> {
  if (ticketIds.length === 0) return [];
  const rows = await db
    .selectFrom('attachments')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('ticket_id', 'in', ticketIds)
    .execute();
  return rows.map((r) => r.id);
}

/** Which of these ids have an attachment row (any organization); used by the start-up sweep. */
export async function existingAttachmentIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('attachments').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
