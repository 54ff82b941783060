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
import { feedHead } from '../events/events.repository.js';
import { newWebhookSecret } from './webhooks.signing.js';
import { urlProblem } from './webhooks.target.js';
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
  UpdatedWebhook,
  UpdateWebhookBody,
  Webhook,
} from './webhooks.schemas.js';

export interface WebhookDeps {
  store: Store;
  config: { webhooks: Pick<WebhookConfig, 'allowPrivate'>; caps: Pick<Config['caps'], 'webhooks'> };
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
export async function createWebhook(deps: WebhookDeps, organizationId: string, body: CreateWebhookBody): Promise<CreatedWebhook> {
  const url = checkUrl(deps, body.url);
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
  ifMatch?: IfMatch,
): Promise<UpdatedWebhook> {
  const url = body.url === undefined ? undefined : checkUrl(deps, body.url);
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await getEndpointRow(trx, organizationId, id, true);
    assertIfMatch(ifMatch, presentWebhook(current), 'The webhook');
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
 * Queues a delivery again, for one more attempt as soon as the endpoint is active: a failed one
 * (after fixing the receiver) or a successful one (to send it again). A pending delivery is
 * already queued and stays as it is.
 */
export async function retryDelivery(deps: WebhookDeps, organizationId: string, webhookId: string, deliveryId: string): Promise<Delivery> {
  return deps.store.db.transaction().execute(async (trx) => {
    const endpoint = await getEndpointRow(trx, organizationId, webhookId, true);
    const delivery = await findDelivery(trx, organizationId, endpoint.id, deliveryId.toLowerCase(), true);
    if (!delivery) throw errors.notFound('Delivery');
    if (delivery.status === 'pending') return presentDelivery(delivery);
    const now = nowIso();
    const changes = { status: 'pending' as const, manual: 1, next_attempt_at: now, completed_at: null };
    await updateDelivery(trx, delivery.id, changes);
    await dueBy(trx, organizationId, endpoint.id, now);
    return presentDelivery({ ...delivery, ...changes });
  });
}
