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
import { actorOf, changesBetween, withEvents, type Actor } from '../events/events.log.js';
import { replyTouchesSla, slaOnReply } from '../sla/sla.replies.js';
import { slaPoliciesOf } from '../sla/sla.policy-cache.js';
import { getTicketRow } from '../tickets/tickets.service.js';
import { userExists } from '../users/users.repository.js';
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
export function presentComment(row: Omit<CommentRow, 'delivery'> & { delivery?: string | null }): Comment {
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
): Promise<Comment> {
  const { db } = deps.store;
  const { organizationId } = caller;
  const ticket = await getTicketRow(db, organizationId, ticketId);
  const policies = await slaPoliciesOf(db, organizationId);
  if (body.author_user_id && !(await userExists(db, organizationId, body.author_user_id))) {
    throw errors.invalidField('body.author_user_id', 'does not name a user of this organization');
  }
  // Strictly increasing, so comments made in the same millisecond still list in creation order.
  const now = creationTimeIso();
  const row = {
    id: randomUUID(),
    organization_id: organizationId,
    ticket_id: ticketId,
    body: body.body,
    is_internal: body.is_internal ? 1 : 0,
    author_user_id: body.author_user_id === undefined ? caller.holderUserId : body.author_user_id,
    author_customer_id: null,
    created_at: now,
    updated_at: now,
    channel: 'api' as const,
    email: null,
  } satisfies Insertable<CommentsTable>;
  const mailer = deps.mailer;
  return withEvents(db, organizationId, actorOf(caller), async (trx, events) => {
    // The write first (on SQLite it takes the write lock at once); the mail is queued in the same
    // transaction, so the comment is never written without it.
    await insertComment(trx, row);
    const delivery = mailer && row.is_internal === 0 ? await mailCommentToCustomer(trx, mailer, organizationId, ticketId, row) : null;
    const comment = presentComment({ ...row, delivery: delivery === null ? null : JSON.stringify(delivery) });
    events.add({ type: 'comment.created', resourceType: 'comment', resourceId: row.id, ticketId, object: comment, occurredAt: now });
    // A public agent comment is a response: first response, or the next one a customer waits for.
    if (row.is_internal === 0 && replyTouchesSla(policies, ticket)) await slaOnReply(trx, events, policies, organizationId, ticketId, 'agent_reply', now);
    return comment;
  });
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
