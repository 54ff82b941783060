import type { TicketRow } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';
import { paged, CREATED_ASC, type SortKey, type Page } from '../../shared/pagination.js';

/** What the portal reads of a ticket: never the assignee, team, category or due date. */
export type PortalTicketRow = Pick<
  TicketRow,
  | 'id'
  | 'organization_id'
  | 'ticket_number'
  | 'tracking_token'
  | 'customer_id'
  | 'subject'
  | 'description'
  | 'status'
  | 'priority'
  | 'created_at'
  | 'updated_at'
  | 'resolved_at'
  | 'closed_at'
>;

const TICKET_COLUMNS = [
  'id', 'organization_id', 'ticket_number', 'tracking_token', 'customer_id', 'subject', 'description', 'status',
  'priority', 'created_at', 'updated_at', 'resolved_at', 'closed_at',
] as const;

/**
 * The ticket holding a tracking token, whichever organization it belongs to: tokens are unique
 * across the store (the unique index on `tickets.tracking_token` serves this lookup).
 */
export function findTicketByToken(db: Executor, token: string): Promise<PortalTicketRow | undefined> {
  return db.selectFrom('tickets').select(TICKET_COLUMNS).where('tracking_token', '=', token).executeTakeFirst();
}

/**
 * Re-reads a ticket inside a transaction after a no-op write to its row. The write comes first so
 * the transaction holds the ticket (SQLite: the write lock; PostgreSQL: the row lock) before its
 * status is read: an agent closing the ticket meanwhile waits, and is never overtaken by a reply.
 */
export async function lockTicket(trx: Executor, organizationId: string, id: string): Promise<PortalTicketRow | undefined> {
  await trx
    .updateTable('tickets')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
  return trx
    .selectFrom('tickets')
    .select(TICKET_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A public comment with the display name of its agent author, if any. Never the agent's email. */
export interface PublicCommentRow {
  id: string;
  body: string;
  author_user_id: string | null;
  author_customer_id: string | null;
  author_name: string | null;
  /** JSON: ids of the ticket's files the comment carries, or null. */
  attachment_ids: string | null;
  created_at: string | Date;
}

function publicComments(db: Executor, organizationId: string, ticketId: string) {
  return db
    .selectFrom('comments')
    .where('comments.organization_id', '=', organizationId)
    .where('comments.ticket_id', '=', ticketId)
    .where('comments.is_internal', '=', 0);
}

/** The same, with the agent author's name (a user of the same organization). */
function publicCommentsWithAuthors(db: Executor, organizationId: string, ticketId: string) {
  return publicComments(db, organizationId, ticketId).leftJoin('users', (join) =>
    join.onRef('users.organization_id', '=', 'comments.organization_id').onRef('users.id', '=', 'comments.author_user_id'),
  );
}

const COMMENT_COLUMNS = [
  'comments.id', 'comments.body', 'comments.author_user_id', 'comments.author_customer_id', 'users.full_name as author_name',
  'comments.attachment_ids', 'comments.created_at',
] as const;

/** Oldest first, ties broken by id (the comments may be joined with their authors). */
export const PORTAL_COMMENTS_ORDER: SortKey<{ created_at: string; id: string }> = { ...CREATED_ASC, columns: ['comments.created_at', 'comments.id'] };

/** One page of a ticket's public comments, oldest first (the comments index orders them). */
export function listPublicComments(db: Executor, organizationId: string, ticketId: string, page: Page): Promise<PublicCommentRow[]> {
  return publicCommentsWithAuthors(db, organizationId, ticketId)
    .select(COMMENT_COLUMNS)
    .$call(paged(page, PORTAL_COMMENTS_ORDER))
    .execute();
}

/** The latest `limit` public comments, newest first. */
export function latestPublicComments(db: Executor, organizationId: string, ticketId: string, limit: number): Promise<PublicCommentRow[]> {
  return publicCommentsWithAuthors(db, organizationId, ticketId)
    .select(COMMENT_COLUMNS)
    .orderBy('comments.created_at', 'desc')
    .orderBy('comments.id', 'desc')
    .limit(limit)
    .execute();
}

export async function countPublicComments(db: Executor, organizationId: string, ticketId: string): Promise<number> {
  const row = await publicComments(db, organizationId, ticketId)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
