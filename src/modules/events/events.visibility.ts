import type { AuthContext } from '../../auth/authenticate.js';
import { RESOURCE_TYPES, type ResourceType } from './events.schemas.js';

/**
 * Who may see which events (docs/api-behaviour.md#who-sees-which-events): an event only to a key
 * that could read its resource directly. The change feed, ticket histories and webhook endpoints
 * all filter by the resource types this gives.
 */

/**
 * What reading each resource takes. API keys have no scope of their own: an admin key reads every
 * key of its organization, a read-only key only itself and its holder's, so their events are for
 * admin keys.
 */
export const READ_ACCESS_OF: Record<ResourceType, string> = {
  ticket: 'tickets:read',
  comment: 'comments:read',
  attachment: 'attachments:read',
  customer: 'customers:read',
  team: 'teams:read',
  user: 'users:read',
  api_key: 'an admin key',
};

function mayRead(auth: Pick<AuthContext, 'role' | 'scopes'>, resource: ResourceType): boolean {
  return resource === 'api_key' ? auth.role === 'admin' : auth.scopes.has(READ_ACCESS_OF[resource]);
}

/** The resource types whose events the key may see. */
export function visibleResourceTypes(auth: Pick<AuthContext, 'role' | 'scopes'>): ResourceType[] {
  return RESOURCE_TYPES.filter((resource) => mayRead(auth, resource));
}

/** Event types named otherwise than their resource: a ticket's SLA deadlines (docs/api-behaviour.md, SLA policies). */
const RESOURCE_OF_PREFIX: Partial<Record<string, ResourceType>> = { sla: 'ticket' };

/** `ticket` of `ticket.updated`: an event type names its resource type first (`sla.*` are a ticket's). */
export function resourceTypeOf(eventType: string): string {
  const prefix = eventType.slice(0, eventType.indexOf('.'));
  return RESOURCE_OF_PREFIX[prefix] ?? prefix;
}

/**
 * Fields that are credentials and never go into an event (the store, the feed, histories, webhook
 * payloads): a ticket's tracking_token opens the ticket in the customer portal.
 */
const SECRET_FIELDS: Partial<Record<string, readonly string[]>> = { ticket: ['tracking_token'] };

/**
 * An event's object and changes without its resource's secret fields: the field is left out of
 * the object, and a change of it is recorded as `{ changed: true }`, without the old or new value.
 */
export function withoutSecrets<T extends { object: object; changes?: Record<string, unknown> | null }>(resourceType: string, event: T): T {
  const fields = SECRET_FIELDS[resourceType];
  if (!fields || !fields.some((f) => f in event.object || (event.changes != null && f in event.changes))) return event;
  const object = { ...(event.object as Record<string, unknown>) };
  const changes = event.changes == null ? event.changes : { ...event.changes };
  for (const field of fields) {
    delete object[field];
    if (changes != null && field in changes) changes[field] = { changed: true };
  }
  return { ...event, object, changes };
}

/** The command line's view (`ticketing events`): the operator sees every event. */
export const OPERATOR_VIEW: Pick<AuthContext, 'role' | 'scopes'> = { role: 'admin', scopes: new Set(Object.values(READ_ACCESS_OF)) };
