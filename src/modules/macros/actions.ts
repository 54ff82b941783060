import { AppError, errors } from '../../errors.js';
import type { IfMatch } from '../../http/conditional.js';
import type { Executor } from '../../shared/executor.js';
import { toIso } from '../../shared/time.js';
import { addComment } from '../comments/comments.service.js';
import type { Comment } from '../comments/comments.schemas.js';
import type { Actor, EventLog } from '../events/events.log.js';
import type { Mailer } from '../mail/mail.outbox.js';
import { normalizeTags } from '../tags/tags.service.js';
import { teamExists } from '../teams/teams.repository.js';
import { ticketFieldsByKey, type TicketFieldRow } from '../ticket-fields/ticket-fields.repository.js';
import { checkValue } from '../ticket-fields/ticket-fields.values.js';
import { TICKET_PRIORITIES, TICKET_STATUSES, type Ticket, type UpdateTicketBody } from '../tickets/tickets.schemas.js';
import { getTicketRow, updateTicketIn } from '../tickets/tickets.service.js';
import { userExists } from '../users/users.repository.js';
import { ACTION_FIELDS, CUSTOM_FIELD_ACTION, type Action, type Actions } from './actions.schemas.js';

/**
 * The one action list of macros, bulk changes and triggers (docs/api-behaviour.md, "Macros and
 * actions"). Three exports do the work:
 *
 *   Actions                  the TypeBox schema of a list (actions.schemas.ts), for a route's body
 *   checkActions(db, ...)    checks a list against the organization's users, teams and custom
 *                            fields; 422 naming the action (`body.actions[2].value`); the stored form
 *   applyActions(trx, ...)   applies a list to one ticket inside the caller's transaction, through
 *                            the ticket service's own update and comment paths (same rules, same
 *                            `ticket.updated` / `comment.created` events, with the caller's actor)
 *
 * A list naming a record that no longer exists (a user, team, field or dropdown option deleted
 * since it was saved) fails as a whole when applied: applyActions checks it again first, in the
 * same transaction, and throws before anything is written.
 */

export { Action, Actions } from './actions.schemas.js';

/** What applyActions needs from its caller besides the ticket and the actions. */
export interface ActionsContext {
  organizationId: string;
  /** The event log of the caller's transaction (withEvents); its actor is the `actor` applying. */
  events: EventLog;
  /** Mails a public comment to the customer, as POST /v1/tickets/{id}/comments does; absent: no mail. */
  mailer?: Mailer | undefined;
  /** Where the list is, for a 422's field: `body.actions` (the default) or `macro.actions`. */
  at?: string;
  /** The If-Match of the request, checked against the ticket as it is locked. */
  ifMatch?: IfMatch | undefined;
}

/** What an application changed: the ticket after it, and the comment it wrote (if any). */
export interface AppliedActions {
  ticket: Ticket;
  comment: Comment | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

const fail = (at: string, message: string): never => {
  throw errors.invalidField(at, message);
};

/** The user an actor acts as: "me" of an action, the author of its comment; null for none (system, a customer, a key without holder). */
export function actingUserOf(actor: Actor): string | null {
  return actor.type === 'api_key' || actor.type === 'user' ? actor.userId : null;
}

/** The scopes, beyond `tickets:write`, that applying the list needs: `comments:write` for a comment. */
export function scopesOfActions(actions: Actions): Array<'comments:write'> {
  return actions.some((a) => a.field === 'comment') ? ['comments:write'] : [];
}

function oneOf(value: unknown, allowed: readonly string[], at: string, what: string): string {
  return typeof value === 'string' && allowed.includes(value) ? value : fail(at, `must be a ${what}: one of ${allowed.join(', ')}`);
}

function tagList(value: unknown, at: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((t) => typeof t !== 'string')) return fail(at, 'must be a list of 1 or more tags');
  return normalizeTags(value as string[], at);
}

/** One action checked, in its stored form. */
async function checkAction(db: Executor, organizationId: string, action: Action, at: string, fields: () => Promise<Map<string, TicketFieldRow>>): Promise<Action> {
  const { field, value } = action;
  const v = `${at}.value`;
  const custom = CUSTOM_FIELD_ACTION.exec(field);
  if (custom) {
    const definition = (await fields()).get(custom[1]!);
    if (!definition) return fail(`${at}.field`, `'${custom[1]}' is not a custom field of this organization (see GET /v1/ticket-fields)`);
    if (value === null) return definition.required === 1 ? fail(v, `cannot be null: ${custom[1]} is a required field`) : action;
    return { field, value: checkValue(definition, value, v) };
  }
  switch (field as (typeof ACTION_FIELDS)[number]) {
    case 'status':
      return { field, value: oneOf(value, TICKET_STATUSES, v, 'status') };
    case 'priority':
      return { field, value: oneOf(value, TICKET_PRIORITIES, v, 'priority') };
    case 'assigned_user_id':
      if (value === null || value === 'me') return action;
      if (typeof value !== 'string' || !UUID.test(value.toLowerCase())) return fail(v, 'must be a user id, "me" (the one applying the actions) or null (unassigned)');
      if (!(await userExists(db, organizationId, value.toLowerCase()))) return fail(v, 'does not name a user of this organization');
      return { field, value: value.toLowerCase() };
    case 'assigned_team_id':
      if (value === null) return action;
      if (typeof value !== 'string' || !UUID.test(value.toLowerCase())) return fail(v, 'must be a team id or null (no team)');
      if (!(await teamExists(db, organizationId, value.toLowerCase()))) return fail(v, 'does not name a team of this organization');
      return { field, value: value.toLowerCase() };
    case 'category':
      if (value === null) return action;
      return typeof value === 'string' && value.length <= 100 ? action : fail(v, 'must be a category (text of at most 100 characters) or null');
    case 'due_date':
      if (value === null) return action;
      if (typeof value !== 'string' || !ISO_DATETIME.test(value) || Number.isNaN(Date.parse(value))) return fail(v, 'must be an ISO 8601 date-time (2026-01-31T17:00:00Z) or null');
      return { field, value: toIso(value) };
    case 'add_tags':
    case 'remove_tags':
      return { field, value: tagList(value, v) };
    case 'comment': {
      const c = value as { body?: unknown; is_internal?: unknown } | null;
      if (c === null || typeof c !== 'object' || Array.isArray(c)) return fail(v, 'must be { "body", "is_internal" }');
      if (typeof c.body !== 'string' || c.body.length === 0) return fail(`${v}.body`, 'must be the text of the comment');
      if (c.is_internal !== undefined && typeof c.is_internal !== 'boolean') return fail(`${v}.is_internal`, 'must be true or false');
      return { field, value: { body: c.body, is_internal: c.is_internal ?? false } };
    }
    default:
      return fail(`${at}.field`, `'${field}' is not an action field; use one of ${ACTION_FIELDS.join(', ')} or custom_fields.<key>`);
  }
}

/**
 * Checks a list of actions against the organization's records: each field known and given once,
 * each value of its field's type, each user, team, custom field and option existing. Throws 422
 * naming the action (`${at}[2].value`); resolves to the list as stored (tags normalized, times in
 * UTC, ids lower-case, `is_internal` given). "me" stays "me": applyActions reads it as the actor's user.
 */
export async function checkActions(db: Executor, organizationId: string, actions: Actions, at = 'body.actions'): Promise<Actions> {
  let fields: Promise<Map<string, TicketFieldRow>> | undefined;
  const fieldsOnce = () => (fields ??= ticketFieldsByKey(db, organizationId));
  const seen = new Set<string>();
  const checked: Actions = [];
  for (const [i, action] of actions.entries()) {
    if (seen.has(action.field)) fail(`${at}[${i}].field`, `'${action.field}' is given twice: each field at most once`);
    seen.add(action.field);
    checked.push(await checkAction(db, organizationId, action, `${at}[${i}]`, fieldsOnce));
  }
  return checked;
}

/** The body of the ticket service's update that the actions make, and where each of its fields came from. */
function updateOf(actions: Actions, me: string | null, at: string): { body: UpdateTicketBody; origin: Map<string, string> } {
  const body: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  const origin = new Map<string, string>();
  actions.forEach(({ field, value }, i) => {
    const key = CUSTOM_FIELD_ACTION.exec(field)?.[1];
    if (key !== undefined) {
      custom[key] = value;
      origin.set(`body.custom_fields.${key}`, `${at}[${i}].value`);
    } else if (field !== 'comment') {
      if (field === 'assigned_user_id' && value === 'me') {
        if (me === null) fail(`${at}[${i}].value`, '"me" needs a user applying the actions: sign in, or use an API key with a holder user');
        body[field] = me;
      } else {
        body[field] = value;
      }
      origin.set(`body.${field}`, `${at}[${i}].value`);
    }
  });
  if (Object.keys(custom).length > 0) body.custom_fields = custom;
  return { body: body, origin };
}

/** A 422 of the ticket service (naming `body.<field>`) renamed to the action it came from. */
function asActionError(error: unknown, origin: Map<string, string>, at: string): unknown {
  if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) return error;
  return errors.validation(error.errors.map((e) => ({ field: origin.get(e.field) ?? at, message: e.message })));
}

/**
 * Applies a list of actions to one ticket of `ctx.organizationId`, inside the caller's
 * transaction `trx` whose event log is `ctx.events`: the list is checked again first (a record
 * deleted since it was saved is a 422 naming the action, and nothing is written), then the ticket
 * is changed through the ticket service's update (one `ticket.updated` event, if anything changed)
 * and the comment, if any, written through the comment service's path (`comment.created`, mail to
 * the customer when public and `ctx.mailer` is given). `actor` is the event log's actor; its user
 * is "me" and the comment's author. 404 when the ticket is not the organization's; 412 on a stale
 * `ctx.ifMatch`. On any error the caller's transaction must roll back (withEvents does).
 */
export async function applyActions(trx: Executor, ctx: ActionsContext, ticketId: string, actions: Actions, actor: Actor): Promise<AppliedActions> {
  if (JSON.stringify(ctx.events.actor) !== JSON.stringify(actor)) throw new Error('applyActions: the event log must be opened with the actor applying the actions');
  const at = ctx.at ?? 'body.actions';
  // A ticket that is not the organization's is 404 whatever the actions.
  await getTicketRow(trx, ctx.organizationId, ticketId);
  const checked = await checkActions(trx, ctx.organizationId, actions, at);
  const me = actingUserOf(actor);
  const { body, origin } = updateOf(checked, me, at);
  let ticket: Ticket;
  try {
    ticket = await updateTicketIn(trx, ctx.events, ctx.organizationId, ticketId, body, ctx.ifMatch);
  } catch (error) {
    throw asActionError(error, origin, at);
  }
  const commentAction = checked.find((a) => a.field === 'comment');
  if (!commentAction) return { ticket, comment: null };
  const value = commentAction.value as { body: string; is_internal: boolean };
  const comment = await addComment(trx, ctx.events, ctx.mailer, ctx.organizationId, ticket.id, { ...value, author_user_id: me });
  return { ticket, comment };
}
