import { randomUUID } from 'node:crypto';
import type { Insertable, Updateable } from 'kysely';
import type { AuthContext } from '../../auth/authenticate.js';
import type { Store } from '../../db/store.js';
import { mailCommentToCustomer, type Mailer } from '../mail/mail.outbox.js';
import type { CommentRow, CommentsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { creationTimeIso } from '../../shared/clock.js';
import { toIso } from '../../shared/time.js';
import { actorOf, changesBetween, withEvents, type Actor, type EventLog } from '../events/events.log.js';
import { slaOnReply } from '../sla/sla.replies.js';
import { slaPoliciesOf } from '../sla/sla.policy-cache.js';
import { findTicketForUpdate } from '../tickets/tickets.repository.js';
import { getTicketRow, presentTicket } from '../tickets/tickets.service.js';
import { userExists } from '../users/users.repository.js';
import { attachmentIdsOfTicket } from '../attachments/attachments.repository.js';
import type { Comment, CreateCommentBody, UpdateCommentBody } from './comments.schemas.js';
import {
  deleteComment as deleteCommentRow,
  findComment,
  insertComment,
  listComments as listCommentRows,
  updateComment as updateCommentRow,
} from './comments.repository.js';

export interface CommentDeps {
  store: Store;
  /** Public agent comments are mailed to the customer (docs/api-behaviour.md#email). */
  mailer?: Mailer | undefined;
}

/** Who is commenting: the organization, the key (the event's actor) and its holder, who authors by default. */
export type Commenter = Pick<AuthContext, 'organizationId' | 'holderUserId' | 'keyId'>;

/** The public shape of a comment row. */
export function presentComment(row: Omit<CommentRow, 'delivery' | 'attachment_ids'> & { delivery?: string | null; attachment_ids?: string | null }): Comment {
  return {
    id: row.id,
    ticket_id: row.ticket_id,
    body: row.body,
    is_internal: Boolean(row.is_internal),
    author_user_id: row.author_user_id,
    author_customer_id: row.author_customer_id,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    channel: row.channel,
    email: row.email === null ? null : (JSON.parse(row.email) as Comment['email']),
    delivery: row.delivery ? (JSON.parse(row.delivery) as Comment['delivery']) : null,
    attachment_ids: row.attachment_ids ? (JSON.parse(row.attachment_ids) as string[]) : [],
  };
}

/** The comment, or a 404 when it is missing or belongs to another ticket or organization. */
async function getCommentRow(db: Executor, organizationId: string, ticketId: string, id: string, lock = false): Promise<CommentRow> {
  const row = await findComment(db, organizationId, ticketId, id, lock);
  if (!row) throw errors.notFound('Comment');
  return row;
}

export async function listComments(deps: CommentDeps, organizationId: string, ticketId: string, page: Page): Promise<Comment[]> {
  const { db } = deps.store;
  await getTicketRow(db, organizationId, ticketId);
  const rows = await listCommentRows(db, organizationId, ticketId, page);
  return rows.map(presentComment);
}

export async function getComment(deps: CommentDeps, organizationId: string, ticketId: string, id: string): Promise<Comment> {
  const { db } = deps.store;
  await getTicketRow(db, organizationId, ticketId);
  return presentComment(await getCommentRow(db, organizationId, ticketId, id));
}

/**
 * Creates a comment. An absent `author_user_id` means the key's holder (possibly nobody); an
 * explicit one must name a user of the organization. `author_customer_id` is never set here: only
 * customer self-service writes it.
 */
export async function createComment(
  deps: CommentDeps,
  caller: Commenter,
  ticketId: string,
  body: CreateCommentBody,
  /** The ticket's ETag as the caller saw it (If-Match); with the caller's view of the ticket (tracking_token). */
  ifMatch?: { check: IfMatch | undefined; seesTrackingToken: boolean },
): Promise<Comment> {
  const { db } = deps.store;
  const { organizationId } = caller;
  await getTicketRow(db, organizationId, ticketId);
  if (body.author_user_id && !(await userExists(db, organizationId, body.author_user_id))) {
    throw errors.invalidField('body.author_user_id', 'does not name a user of this organization');
  }
  const attachmentIds = body.attachment_ids ?? [];
  if (attachmentIds.length > 0) {
    const found = await attachmentIdsOfTicket(db, organizationId, ticketId, attachmentIds);
    const missing = attachmentIds.findIndex((id) => !found.has(id));
    if (missing >= 0) throw errors.invalidField(`body.attachment_ids[${missing}]`, 'is not an attachment of this ticket: upload the file to the ticket first');
  }
  const author = body.author_user_id === undefined ? caller.holderUserId : body.author_user_id;
  return withEvents(db, organizationId, actorOf(caller), async (trx, events) => {
    const comment = await addComment(trx, events, deps.mailer, organizationId, ticketId, { body: body.body, is_internal: body.is_internal ?? false, author_user_id: author, attachment_ids: attachmentIds });
    // A reply written against a ticket that changed since is refused (412), and nothing is written:
    // checked after the write (which takes SQLite's write lock), under the ticket's lock.
    if (ifMatch?.check) {
      const ticket = presentTicket((await findTicketForUpdate(trx, organizationId, ticketId))!);
      assertIfMatch(ifMatch.check, ifMatch.seesTrackingToken ? ticket : { ...ticket, tracking_token: null }, 'The ticket');
    }
    return comment;
  });
}

/**
 * Writes an agent's comment on a ticket of the organization (checked by the caller) inside the
 * caller's transaction, with its `comment.created` event and, for a public one, the mail to the
 * customer: the one code path of a comment's creation, which macros, bulk changes and triggers
 * take too (src/modules/macros/actions.ts).
 */
export async function addComment(
  trx: Executor,
  events: EventLog,
  mailer: Mailer | undefined,
  organizationId: string,
  ticketId: string,
  comment: { body: string; is_internal: boolean; author_user_id: string | null; attachment_ids?: string[] },
): Promise<Comment> {
  // Strictly increasing, so comments made in the same millisecond still list in creation order.
  const now = creationTimeIso();
  const row = {
    id: randomUUID(),
    organization_id: organizationId,
    ticket_id: ticketId,
    body: comment.body,
    is_internal: comment.is_internal ? 1 : 0,
    author_user_id: comment.author_user_id,
    author_customer_id: null,
    created_at: now,
    updated_at: now,
    channel: 'api' as const,
    email: null,
    attachment_ids: comment.attachment_ids?.length ? JSON.stringify(comment.attachment_ids) : null,
  } satisfies Insertable<CommentsTable>;
  // The write first (on SQLite it takes the write lock at once); the mail is queued in the same
  // transaction, so the comment is never written without it.
  await insertComment(trx, row);
  const delivery = mailer && row.is_internal === 0 ? await mailCommentToCustomer(trx, mailer, organizationId, ticketId, row) : null;
  const created = presentComment({ ...row, delivery: delivery === null ? null : JSON.stringify(delivery) });
  events.add({ type: 'comment.created', resourceType: 'comment', resourceId: row.id, ticketId, object: created, occurredAt: now });
  // A public agent comment is a response: first response, or the next one a customer waits for.
  if (row.is_internal === 0) await slaOnReply(trx, events, await slaPoliciesOf(trx, organizationId), organizationId, ticketId, 'agent_reply', now);
  return created;
}

/** Changes `body` and `is_internal`; `updated_at` moves only when a value actually changes. */
export async function updateComment(
  deps: CommentDeps,
  organizationId: string,
  ticketId: string,
  id: string,
  body: UpdateCommentBody,
  actor: Actor,
  ifMatch?: IfMatch,
): Promise<Comment> {
  const { db } = deps.store;
  await getTicketRow(db, organizationId, ticketId);
  return withEvents(db, organizationId, actor, async (trx, events) => {
    const current = await getCommentRow(trx, organizationId, ticketId, id, true);
    assertIfMatch(ifMatch, presentComment(current), 'The comment');
    const changes: Updateable<CommentsTable> = {};
    if (body.body !== undefined && body.body !== current.body) changes.body = body.body;
    if (body.is_internal !== undefined && body.is_internal !== Boolean(current.is_internal)) {
      changes.is_internal = body.is_internal ? 1 : 0;
    }
    if (Object.keys(changes).length === 0) return presentComment(current);
    // Strictly increasing too, so a real change always moves updated_at past created_at.
    const now = creationTimeIso();
    changes.updated_at = now;
    await updateCommentRow(trx, organizationId, ticketId, id, changes);
    const before = presentComment(current);
    const comment = presentComment({ ...current, ...changes });
    events.add({ type: 'comment.updated', resourceType: 'comment', resourceId: id, ticketId, object: comment, changes: changesBetween(before, comment), occurredAt: now });
    return comment;
  });
}

export async function deleteComment(deps: CommentDeps, organizationId: string, ticketId: string, id: string, actor: Actor, ifMatch?: IfMatch): Promise<void> {
  const { db } = deps.store;
  await getTicketRow(db, organizationId, ticketId);
  await withEvents(db, organizationId, actor, async (trx, events) => {
    const current = await getCommentRow(trx, organizationId, ticketId, id, true);
    assertIfMatch(ifMatch, presentComment(current), 'The comment');
    if (!(await deleteCommentRow(trx, organizationId, ticketId, id))) throw errors.notFound('Comment');
    events.add({ type: 'comment.deleted', resourceType: 'comment', resourceId: id, ticketId, object: presentComment(current) });
  });
}
