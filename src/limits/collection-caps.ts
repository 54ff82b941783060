import type { Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import { errors } from '../errors.js';
import { lockCollection } from '../modules/organizations/organizations.repository.js';
import type { Executor } from '../shared/executor.js';

/**
 * Bounded collections: every collection one organization can grow (API keys, webhook endpoints;
 * later mailboxes, views, macros, triggers) has a cap, set by an environment variable, and a create
 * past it is 422 naming the cap and the variable (docs/api-behaviour.md#bounded-collections).
 *
 * To bound a collection:
 *   1. add `MAX_<THINGS>_PER_ORG` to src/config.ts (`config.caps.<things>`), README and
 *      docs/operations.md;
 *   2. write a counting function in its repository, `(db, organizationId) => Promise<number>`,
 *      counting exactly what the cap bounds (e.g. only active keys);
 *   3. in the creating service, inside the create's transaction and before the insert:
 *        await assertBelowCap(trx, organizationId, { collection: 'webhooks', max: config.caps.webhooks,
 *          setting: 'MAX_WEBHOOKS_PER_ORG', noun: 'webhook endpoints', remedy: 'delete one first' }, countEndpoints);
 *
 * The count is taken under a lock of that collection in that organization held until the
 * transaction ends, so concurrent creates (any number of processes) cannot overshoot the cap.
 */
export interface CollectionCap {
  /** The collection's lock name: one per collection, e.g. `api_keys`. */
  collection: string;
  /** The most the organization may hold. */
  max: number;
  /** The environment variable that sets `max`, named in the error. */
  setting: string;
  /** What is counted, plural: `active API keys`. */
  noun: string;
  /** How to make room: `revoke some first`. */
  remedy: string;
}

/** Throws 422 when the organization already holds `cap.max`; call inside the creating transaction. */
export async function assertBelowCap(
  trx: Transaction<Database>,
  organizationId: string,
  cap: CollectionCap,
  count: (db: Executor, organizationId: string) => Promise<number>,
): Promise<void> {
  await lockCollection(trx, organizationId, cap.collection);
  const held = await count(trx, organizationId);
  if (held >= cap.max) throw errors.collectionFull(held, cap);
}
