import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Insertable, Updateable } from 'kysely';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { CommentsTable, TicketsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { toIso, toIsoOrNull } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { SignedUrl, UrlSigner } from '../../storage/signed-urls.js';
import { recordAttachment } from '../attachments/attachments.service.js';
import { findAttachment, listAttachments } from '../attachments/attachments.repository.js';
import { insertComment } from '../comments/comments.repository.js';
import { presentComment } from '../comments/comments.service.js';
import { changesBetween, withEvents } from '../events/events.log.js';
import { findTicket, updateTicket } from '../tickets/tickets.repository.js';
import { logSlaEvents, slaAfterChange } from '../sla/sla.hooks.js';
import { slaPoliciesOf } from '../sla/sla.policy-cache.js';
import { presentTicket, statusTimestamps } from '../tickets/tickets.service.js';
import {
  countPublicComments,
  findTicketByToken,
  latestPublicComments,
  listPublicComments,
  lockTicket,
  type PortalTicketRow,
  type PublicCommentRow,
} from './portal.repository.js';
import type { StagedFile } from './portal.uploads.js';
import { REPLY_MAX_CHARS, type PortalComment, type PortalTicket } from './portal.schemas.js';
import { LOWER_CASE_UUID } from '../../shared/validation.js';

export interface PortalDeps {
  store: Store;
  signer: UrlSigner;
  blobs: BlobStore;
  config: Pick<Config, 'publicUrl' | 'storageQuotaBytes'>;
}

/** How many comments and attachments the ticket view carries; the comments list pages through the rest. */
export const THREAD_LIMIT = 500;

/** Tokens are UUIDs, written lower-case; another spelling of the same UUID opens the same ticket. */
export function canonicalToken(token: string): string {
  return token.toLowerCase();
}

/** Root-relative path of a ticket's portal page, under PUBLIC_URL's own path if it has one. */
export function portalPagePath(config: Pick<Config, 'publicUrl'>, token: string): string {
  const base = new URL(config.publicUrl).pathname.replace(/\/+$/, '');
  return `${base}/portal/${encodeURIComponent(token)}`;
}

function sameToken(stored: string, given: string): boolean {
  const a = Buffer.from(stored, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The ticket a tracking token opens. A malformed token and an unknown one get the very same 404,
 * so an answer tells nothing about what exists. The token is found through its unique index (an
 * equality lookup of a 122-bit random value, which reveals nothing usable through timing) and then
 * confirmed with a constant-time comparison.
 */
export async function ticketOfToken(db: Executor, token: string): Promise<PortalTicketRow> {
  const given = canonicalToken(token);
  if (!LOWER_CASE_UUID.test(given)) throw errors.notFound('Ticket');
  const row = await findTicketByToken(db, given);
  if (!row || !sameToken(row.tracking_token, given)) throw errors.notFound('Ticket');
  return row;
}

export function presentPortalComment(row: PublicCommentRow): PortalComment {
  const byCustomer = row.author_customer_id !== null;
  return {
    id: row.id,
    body: row.body,
    author_type: byCustomer ? 'customer' : 'agent',
    author_name: byCustomer ? null : row.author_name,
    attachment_ids: row.attachment_ids ? (JSON.parse(row.attachment_ids) as string[]) : [],
    created_at: toIso(row.created_at),
  };
}

/** What the token holder sees of the ticket: never assignees, internal notes or agent emails. */
export async function getPortalTicket(deps: PortalDeps, token: string): Promise<PortalTicket> {
  const { db } = deps.store;
  const ticket = await ticketOfToken(db, token);
  const org = ticket.organization_id;
  const [count, latest, files] = await Promise.all([
    countPublicComments(db, org, ticket.id),
    latestPublicComments(db, org, ticket.id, THREAD_LIMIT),
    listAttachments(db, org, ticket.id, { limit: THREAD_LIMIT, offset: 0 }),
  ]);
  const number = Number(ticket.ticket_number);
  const page = portalPagePath(deps.config, ticket.tracking_token);
  const origin = new URL(deps.config.publicUrl).origin;
  // "Last updated" moves with the conversation: a reply or a file does not change the ticket itself.
  const activity = [ticket.updated_at, latest[0]?.created_at, ...files.map((f) => f.created_at)].filter((v) => v != null).map((v) => toIso(v));
  return {
    ticket_number: number,
    ticket_display_id: `TKT-${number}`,
    subject: ticket.subject,
    description: ticket.description,
    status: ticket.status,
    priority: ticket.priority,
    created_at: toIso(ticket.created_at),
    updated_at: activity.reduce((a, b) => (b > a ? b : a)),
    resolved_at: toIsoOrNull(ticket.resolved_at),
    closed_at: toIsoOrNull(ticket.closed_at),
    accepts_replies: ticket.status !== 'closed',
    comment_count: count,
    comments: latest.reverse().map(presentPortalComment),
    attachments: files.map((row) => ({
      id: row.id,
      filename: row.filename,
      content_type: row.content_type,
      size_bytes: Number(row.size_bytes),
      created_at: toIso(row.created_at),
      download_url: `${origin}${page}/attachments/${row.id}`,
    })),
  };
}

export async function listPortalComments(deps: PortalDeps, token: string, page: Page): Promise<PortalComment[]> {
  const { db } = deps.store;
  const ticket = await ticketOfToken(db, token);
  const rows = await listPublicComments(db, ticket.organization_id, ticket.id, page);
  return rows.map(presentPortalComment);
}

/** A reply's text: 1 to 10,000 characters (code points, as the JSON schema counts), not only white space. */
function checkReplyText(text: string): void {
  const length = [...text].length;
  if (length === 0) throw errors.invalidField('body.body', 'must not be empty');
  if (length > REPLY_MAX_CHARS) throw errors.invalidField('body.body', `must NOT have more than ${REPLY_MAX_CHARS} characters`);
  if (!/\S/u.test(text)) throw errors.invalidField('body.body', 'must contain some text, not only white space');
}

/**
 * The customer's reply, authored by the ticket's customer. A reply to a pending or resolved
 * ticket reopens it (status open; resolved_at and closed_at cleared); a closed ticket takes no
 * replies (409). The status check and the insert happen under the ticket's lock, so an agent
 * closing the ticket at the same moment is never overtaken.
 */
export async function addCustomerReply(deps: PortalDeps, token: string, text: string, files: readonly StagedFile[] = []): Promise<PortalComment> {
  checkReplyText(text);
  const { db } = deps.store;
  const ticket = await ticketOfToken(db, token);
  const org = ticket.organization_id;
  const now = creationTimeIso();
  const row = {
    id: randomUUID(),
    organization_id: org,
    ticket_id: ticket.id,
    body: text,
    is_internal: 0,
    author_user_id: null,
    author_customer_id: ticket.customer_id,
    created_at: now,
    updated_at: now,
    channel: 'portal' as const,
    email: null,
    attachment_ids: files.length > 0 ? JSON.stringify(files.map((f) => f.id)) : null,
  } satisfies Insertable<CommentsTable>;
  const policies = await slaPoliciesOf(db, org);
  // The customer is the actor of both the reply and the reopening.
  const committed = withEvents(db, org, { type: 'customer', customerId: ticket.customer_id }, async (trx, events) => {
    const current = await lockTicket(trx, org, ticket.id);
    // Deleted, or its token rotated, since it was looked up: the token no longer opens it.
    if (!current || current.tracking_token !== ticket.tracking_token) throw errors.notFound('Ticket');
    if (current.status === 'closed') {
      throw errors.conflict('This ticket is closed and no longer accepts replies; please open a new ticket');
    }
    // The files first (each with its event and the exact quota check), then the comment carrying them.
    for (const file of files) {
      const attachment = { id: file.id, organization_id: org, ticket_id: ticket.id, filename: file.filename, content_type: file.contentType, size_bytes: file.size, uploaded_by_user_id: null, created_at: now };
      await recordAttachment(trx, events, attachment, deps.config.storageQuotaBytes);
    }
    await insertComment(trx, row);
    events.add({ type: 'comment.created', resourceType: 'comment', resourceId: row.id, ticketId: ticket.id, object: presentComment(row), occurredAt: now });
    // Then the reopening it causes, and the wait for the agent's next response (SLA clocks).
    const reopens = current.status === 'pending' || current.status === 'resolved';
    const before = await findTicket(trx, org, ticket.id);
    if (!before) return;
    const changes: Updateable<TicketsTable> = reopens ? { status: 'open' as const, ...statusTimestamps(current.status, 'open', now), updated_at: now } : {};
    const sla = slaAfterChange(policies, before, presentTicket({ ...before, ...changes }), 'customer_reply', new Date(now));
    if (sla.columns) Object.assign(changes, sla.columns);
    if (Object.keys(changes).length > 0) await updateTicket(trx, org, ticket.id, changes);
    const after = presentTicket({ ...before, ...changes });
    if (reopens) {
      events.add({ type: 'ticket.updated', resourceType: 'ticket', resourceId: ticket.id, ticketId: ticket.id, object: after, changes: changesBetween(presentTicket(before), after), occurredAt: now });
    }
    logSlaEvents(events, after, sla.events);
  });
  // Not committed (closed, over the quota, a failure): the reply's files are not kept either.
  await committed.catch(async (error: unknown) => {
    await Promise.all(files.map((f) => deps.blobs.discard(f.id)));
    throw error;
  });
  // Committed: the bytes move into place. A crash before this leaves staged bytes whose rows
  // exist, which the storage sweep publishes (src/storage/blob-store.ts).
  for (const file of files) await deps.blobs.publish(file.id);
  return presentPortalComment({ ...row, author_name: null });
}

/** A signed download address for an attachment of the token's ticket (404 for any other). */
export async function portalDownloadLink(deps: PortalDeps, token: string, attachmentId: string): Promise<SignedUrl> {
  const { db } = deps.store;
  const ticket = await ticketOfToken(db, token);
  const id = attachmentId.toLowerCase();
  const row = LOWER_CASE_UUID.test(id) ? await findAttachment(db, ticket.organization_id, ticket.id, id) : undefined;
  if (!row) throw errors.notFound('Attachment');
  return deps.signer.sign(row.id);
}
