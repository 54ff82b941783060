import type { Insertable, Updateable } from 'kysely';
import type { CommentRow, CommentsTable } from '../../db/types.js';
import { forUpdate, type Executor } from '../../shared/executor.js';
import { CREATED_ASC, paged, type Page } from '../../shared/pagination.js';

const COLUMNS = [
  'id', 'organization_id', 'ticket_id', 'body', 'is_internal', 'author_user_id', 'author_customer_id', 'created_at',
  'updated_at', 'channel', 'email', 'delivery', 'attachment_ids',
] as const;

export async function insertComment(db: Executor, row: Insertable<CommentsTable>): Promise<void> {
  await db.insertInto('comments').values(row).execute();
}

/** The comment, only when it belongs to this ticket of this organization; with `lock`, locked (see forUpdate). */
export function findComment(db: Executor, organizationId: string, ticketId: string, id: string, lock = false): Promise<CommentRow | undefined> {
  const query = db
    .selectFrom('comments')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('id', '=', id);
  return forUpdate(db, query, lock).executeTakeFirst();
}

/** One page of a ticket's comments, oldest first; served by the (organization, ticket, created_at, id) index. */
export function listComments(db: Executor, organizationId: string, ticketId: string, page: Page): Promise<CommentRow[]> {
  return db
    .selectFrom('comments')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .$call(paged(page, CREATED_ASC))
    .execute();
}

export async function updateComment(
  db: Executor,
  organizationId: string,
  ticketId: string,
  id: string,
  changes: Updateable<CommentsTable>,
): Promise<void> {
  await db
    .updateTable('comments')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('id', '=', id)
    .execute();
}

export async function deleteComment(db: Executor, organizationId: string, ticketId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('comments')
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Takes a deleted attachment's id out of the comments of its ticket that carry it (the LIKE finds
 * candidates through the ticket's comments; the JSON is filtered here, exactly).
 */
export async function dropAttachmentFromComments(db: Executor, organizationId: string, ticketId: string, attachmentId: string): Promise<void> {
  const rows = await db
    .selectFrom('comments')
    .select(['id', 'attachment_ids'])
    .where('organization_id', '=', organizationId)
    .where('ticket_id', '=', ticketId)
    .where('attachment_ids', 'like', `%${attachmentId}%`)
    .execute();
  for (const row of rows) {
    const kept = (JSON.parse(row.attachment_ids ?? '[]') as string[]).filter((id) => id !== attachmentId);
    await db
      .updateTable('comments')
      .set({ attachment_ids: kept.length === 0 ? null : JSON.stringify(kept) })
      .where('organization_id', '=', organizationId)
      .where('id', '=', row.id)
      .execute();
  }
}
