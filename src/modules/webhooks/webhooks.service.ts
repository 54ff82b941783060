import type { Config } from '../../config.js';
import { assertBelowCap, type CollectionCap } from '../../limits/collection-caps.js';
import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { WebhookConfig } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { WebhookDeliveryRow, WebhookEndpointRow, WebhookEndpointsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso, toIsoOrNull } from '../../shared/time.js';
import type { AuthContext } from '../../auth/authenticate.js';
import { feedHead } from '../events/events.repository.js';
import { READ_ACCESS_OF, resourceTypeOf, visibleResourceTypes } from '../events/events.visibility.js';
import type { ResourceType } from '../events/events.schemas.js';
import { announceCommitted } from '../events/events.log.js';
import { deliveryHeaders, newWebhookSecret } from './webhooks.signing.js';
import { answerProblem, describeFailure, postToTarget, urlProblem } from './webhooks.target.js';
import {
  countEndpoints,
  deleteEndpoint,
  dueBy,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  listDeliveries as listDeliveryRows,
  listEndpoints,
  updateDelivery,
  updateEndpoint,
} from './webhooks.repository.js';
import type {
  CreatedWebhook,
  CreateWebhookBody,
  Delivery,
  ListDeliveriesQuery,
  TestDelivery,
  UpdatedWebhook,
  UpdateWebhookBody,
  Webhook,
} from './webhooks.schemas.js';

export interface WebhookDeps {
  store: Store;
  config: { webhooks: Pick<WebhookConfig, 'allowPrivate' | 'timeoutMs'>; caps: Pick<Config['caps'], 'webhooks'> };
}

/** Endpoints per organization (MAX_WEBHOOKS_PER_ORG): each one multiplies the deliveries every change causes. */
const webhooksCap = (max: number): CollectionCap => ({
  collection: 'webhook_endpoints',
  max,
  setting: 'MAX_WEBHOOKS_PER_ORG',
  noun: 'webhook endpoints',
  remedy: 'delete one first',
});

/** How long the previous secret keeps signing deliveries after a rotation. */
export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

/** The endpoint's subscribed types: a list, or `["*"]` for all. */
export const subscribedTypes = (row: Pick<WebhookEndpointRow, 'event_types'>): string[] => JSON.parse(row.event_types) as string[];

export function subscribes(types: readonly string[], type: string): boolean {
  return types.includes('*') || types.includes(type);
}

/** The resource types whose events the endpoint may receive: what its creating key could read. */
export const endpointResourceTypes = (row: Pick<WebhookEndpointRow, 'resource_types'>): string[] => JSON.parse(row.resource_types) as string[];

/** Who asks: what its key may read decides which events an endpoint it creates or changes may carry. */
export type Viewer = Pick<AuthContext, 'role' | 'scopes'>;

/**
 * 422 on `field` unless every type the endpoint would deliver is one the key may read (and, for an
 * existing endpoint, within the limit it was created with). docs/api-behaviour.md#who-sees-which-events
 */
function checkReadable(field: string, types: readonly string[], readable: readonly string[], limit: readonly string[] | null): void {
  const kinds = types.includes('*') ? (limit ?? []) : [...new Set(types.map(resourceTypeOf))];
  for (const kind of kinds) {
    if (!readable.includes(kind)) {
      throw errors.invalidField(field, `includes ${kind}.* events, which need ${READ_ACCESS_OF[kind as ResourceType]}; this key lacks it`);
    }
    if (limit !== null && !limit.includes(kind)) {
      throw errors.invalidField(field, `includes ${kind}.* events, which this endpoint may not receive: the key that created it could not read them`);
    }
  }
}

export function presentWebhook(row: WebhookEndpointRow): Webhook {
  const rotation = toIsoOrNull(row.previous_secret_expires_at);
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: subscribedTypes(row),
    status: row.status,
    disabled_at: toIsoOrNull(row.disabled_at),
    disabled_reason: row.disabled_reason,
    // A grace period that has ended is no longer worth showing.
    previous_secret_expires_at: rotation !== null && Date.parse(rotation) > Date.now() ? rotation : null,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

export function presentDelivery(row: WebhookDeliveryRow): Delivery {
  return {
    id: row.id,
    webhook_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    event_cursor: String(row.event_position),
    status: row.status,
    attempts: Number(row.attempts),
    next_attempt_at: row.status === 'pending' ? toIsoOrNull(row.next_attempt_at) : null,
    last_attempt_at: toIsoOrNull(row.last_attempt_at),
    response_status: row.response_status === null ? null : Number(row.response_status),
    response_latency_ms: row.response_latency_ms === null ? null : Number(row.response_latency_ms),
    response_body: row.response_body,
    error: row.last_error,
    created_at: toIso(row.created_at),
    completed_at: toIsoOrNull(row.completed_at),
  };
}

/** The URL as stored (normalized), or a 422 on `body.url` saying what is wrong with it. */
function checkUrl(deps: WebhookDeps, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw errors.invalidField('body.url', 'must be an absolute URL');
  }
  const problem = urlProblem(url, deps.config.webhooks.allowPrivate);
  if (problem !== null) throw errors.invalidField('body.url', problem);
  return url.href;
}

/** `["*"]` when it names everything, else the types without repeats, in the order given. */
function normalizeTypes(types: readonly string[]): string {
  return JSON.stringify(types.includes('*') ? ['*'] : [...new Set(types)]);
}

async function getEndpointRow(db: Executor, organizationId: string, id: string, lock = false): Promise<WebhookEndpointRow> {
  const row = await findEndpoint(db, organizationId, id.toLowerCase(), lock);
  if (!row) throw errors.notFound('Webhook');
  return row;
}

/**
 * Creates an endpoint. It receives the events committed after it exists: its cursor starts at the
 * feed's head (every position up to the head is committed, so nothing later is missed).
 */
export async function createWebhook(deps: WebhookDeps, organizationId: string, body: CreateWebhookBody, viewer: Viewer): Promise<CreatedWebhook> {
  const url = checkUrl(deps, body.url);
  const readable = visibleResourceTypes(viewer);
  checkReadable('body.events', body.events, readable, null);
  const { db } = deps.store;
  return db.transaction().execute(async (trx) => {
    await assertBelowCap(trx, organizationId, webhooksCap(deps.config.caps.webhooks), countEndpoints);
    const now = creationTimeIso();
    const secret = newWebhookSecret();
    const row = {
      id: randomUUID(),
      organization_id: organizationId,
      url,
      description: body.description ?? null,
      event_types: normalizeTypes(body.events),
      // The endpoint keeps its creator's limit: never an event of a resource that key could not read.
      resource_types: JSON.stringify(readable),
      status: 'active' as const,
      secret,
      previous_secret: null,
      previous_secret_expires_at: null,
      disabled_at: null,
      disabled_reason: null,
      cursor_position: await feedHead(trx, organizationId),
      next_attempt_at: null,
      lease_owner: null,
      lease_expires_at: null,
      created_at: now,
      updated_at: now,
    };
    await insertEndpoint(trx, row);
    return { ...presentWebhook(row), secret };
  });
}

export async function listWebhooks(deps: WebhookDeps, organizationId: string, page: Page): Promise<Webhook[]> {
  return (await listEndpoints(deps.store.db, organizationId, page)).map(presentWebhook);
}

export async function getWebhook(deps: WebhookDeps, organizationId: string, id: string): Promise<Webhook> {
  return presentWebhook(await getEndpointRow(deps.store.db, organizationId, id));
}

/**
 * Changes an endpoint. Pausing holds its deliveries (events wait, in order); making it active again
 * resumes them, also after the service disabled it. Rotating the secret answers with the new one
 * once; for 24 hours deliveries are signed with both, so receivers can switch without a gap.
 */
export async function updateWebhook(
  deps: WebhookDeps,
  organizationId: string,
  id: string,
  body: UpdateWebhookBody,
  ifMatch: IfMatch | undefined,
  viewer: Viewer,
): Promise<UpdatedWebhook> {
  const url = body.url === undefined ? undefined : checkUrl(deps, body.url);
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await getEndpointRow(trx, organizationId, id, true);
    assertIfMatch(ifMatch, presentWebhook(current), 'The webhook');
    // Who points the endpoint elsewhere or changes what it receives must be able to read all of it.
    const limit = endpointResourceTypes(current);
    if (body.events !== undefined) checkReadable('body.events', body.events, visibleResourceTypes(viewer), limit);
    else if (url !== undefined && url !== current.url) checkReadable('body.url', subscribedTypes(current), visibleResourceTypes(viewer), limit);
    const changes: Updateable<WebhookEndpointsTable> = {};
    if (url !== undefined && url !== current.url) changes.url = url;
    if (body.events !== undefined && normalizeTypes(body.events) !== current.event_types) changes.event_types = normalizeTypes(body.events);
    if (body.description !== undefined && body.description !== current.description) changes.description = body.description;
    if (body.status !== undefined && body.status !== current.status) {
      changes.status = body.status;
      if (body.status === 'active') {
        changes.disabled_at = null;
        changes.disabled_reason = null;
      }
    }
    let secret: string | undefined;
    const now = nowIso();
    if (body.rotate_secret === true) {
      secret = newWebhookSecret();
      changes.secret = secret;
      changes.previous_secret = current.secret;
      changes.previous_secret_expires_at = new Date(Date.parse(now) + ROTATION_GRACE_MS).toISOString();
    }
    if (Object.keys(changes).length > 0) {
      changes.updated_at = now;
      await updateEndpoint(trx, organizationId, current.id, changes);
    }
    const updated = presentWebhook({ ...current, ...changes });
    return secret === undefined ? updated : { ...updated, secret };
  });
}

export async function deleteWebhook(deps: WebhookDeps, organizationId: string, id: string, ifMatch?: IfMatch): Promise<void> {
  if (ifMatch === undefined) {
    if (!(await deleteEndpoint(deps.store.db, organizationId, id.toLowerCase()))) throw errors.notFound('Webhook');
    return;
  }
  // Checked against the endpoint as read under its lock, so nothing changes it in between.
  await deps.store.db.transaction().execute(async (trx) => {
    const current = await getEndpointRow(trx, organizationId, id, true);
    assertIfMatch(ifMatch, presentWebhook(current), 'The webhook');
    if (!(await deleteEndpoint(trx, organizationId, current.id))) throw errors.notFound('Webhook');
  });
}

export async function listDeliveries(
  deps: WebhookDeps,
  organizationId: string,
  webhookId: string,
  query: ListDeliveriesQuery,
  page: Page,
): Promise<Delivery[]> {
  const { db } = deps.store;
  const endpoint = await getEndpointRow(db, organizationId, webhookId);
  return (await listDeliveryRows(db, organizationId, endpoint.id, query.status, page)).map(presentDelivery);
}

/**
 * Queues a delivery again, to be sent now (once the endpoint is active): a failed one (after fixing
 * the receiver) or a successful one (to send it again) gets one more attempt; a pending one
 * waiting for its next retry is tried now instead, its retry schedule going on from there.
 */
export async function retryDelivery(deps: WebhookDeps, organizationId: string, webhookId: string, deliveryId: string): Promise<Delivery> {
  const queued = await deps.store.db.transaction().execute(async (trx) => {
    const endpoint = await getEndpointRow(trx, organizationId, webhookId, true);
    const delivery = await findDelivery(trx, organizationId, endpoint.id, deliveryId.toLowerCase(), true);
    if (!delivery) throw errors.notFound('Delivery');
    const now = nowIso();
    const changes =
      delivery.status === 'pending'
        ? { next_attempt_at: now }
        : { status: 'pending' as const, manual: 1, next_attempt_at: now, completed_at: null };
    await updateDelivery(trx, delivery.id, changes);
    await dueBy(trx, organizationId, endpoint.id, now);
    return presentDelivery({ ...delivery, ...changes });
  });
  // This process's worker looks for work now rather than at its next poll.
  announceCommitted(organizationId);
  return queued;
}

/**
 * Sends a signed `webhook.test` event to the endpoint now, whatever its status, and answers with
 * how the receiver answered. Signed, checked (SSRF) and limited in time exactly like a delivery,
 * but not one: it is no change in the event feed, so it is not in the delivery log either.
 */
export async function sendTest(deps: WebhookDeps, organizationId: string, webhookId: string): Promise<TestDelivery> {
  const endpoint = await getEndpointRow(deps.store.db, organizationId, webhookId);
  const id = randomUUID();
  const at = new Date();
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: at.toISOString(),
    data: { webhook_id: endpoint.id, message: 'A test event, sent on request: no record changed' },
  });
  const settings = deps.config.webhooks;
  const t0 = performance.now();
  let answer: { status: number; body: string } | null = null;
  let error: string | null = null;
  try {
    answer = await postToTarget(endpoint.url, body, deliveryHeaders(endpoint, id, body, at), { timeoutMs: settings.timeoutMs, allowPrivate: settings.allowPrivate });
    error = answerProblem(answer.status);
  } catch (e) {
    error = describeFailure(e);
  }
  return {
    webhook_id: endpoint.id,
    event_id: id,
    event_type: 'webhook.test',
    status: error === null ? 'succeeded' : 'failed',
    attempted_at: at.toISOString(),
    response_status: answer?.status ?? null,
    response_latency_ms: Math.round(performance.now() - t0),
    response_body: answer?.body ?? null,
    error,
  };
}
