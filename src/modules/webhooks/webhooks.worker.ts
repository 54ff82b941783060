import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookConfig } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { Updateable } from 'kysely';
import type { WebhookDeliveriesTable, WebhookDeliveryRow, WebhookEndpointRow, WebhookEndpointsTable } from '../../db/types.js';
import { nowIso, toIso } from '../../shared/time.js';
import { onEventsCommitted } from '../events/events.log.js';
import { eventAt, eventTypesAfter } from '../events/events.repository.js';
import { presentEvent } from '../events/events.service.js';
import {
  advanceCursor,
  claimEndpoints,
  dueBy,
  earliestPendingDue,
  endLease,
  insertDeliveries,
  lockEndpoint,
  oldestPending,
  renewLease,
  updateDelivery,
  updateEndpoint,
} from './webhooks.repository.js';
import { endpointResourceTypes, subscribedTypes, subscribes } from './webhooks.service.js';
import { deliveryHeaders } from './webhooks.signing.js';
import { answerProblem, describeFailure, postToTarget, vettedAgents } from './webhooks.target.js';
import { logFailure } from '../../http/error-handler.js';

/**
 * The delivery job: sends events to webhook endpoints, at least once, in order per endpoint.
 *
 * The outbox is the event log itself. Each endpoint has a cursor (the last event handed to it);
 * an event it subscribes to becomes a delivery row (the log entry) when it is the endpoint's turn,
 * and is attempted until a 2xx answer or until the retry schedule is used up, after which the
 * delivery has failed and the endpoint is disabled (a receiver that failed for about a day). The
 * next event waits meanwhile, so an endpoint receives events in the order they were committed.
 *
 * Any process may deliver: a process leases an endpoint (PostgreSQL: `for update skip locked`, so
 * processes never wait for each other) and delivers to it until it has nothing due, for at most a
 * slice of time, then releases it. An attempt is recorded before the request is sent; a process
 * that dies mid-delivery leaves its lease to run out (attempt timeout + 5 s), after which any
 * process retries the delivery, so nothing is lost, and the receiver may see it twice (use the
 * webhook-id to drop repeats). A process that stops normally aborts what it is sending and
 * releases its endpoints at once. Each claim is a lease of its own, and an attempt's result (and
 * the disabling of an endpoint) is written only while that lease is still held: a process that
 * outlived its lease, frozen mid-attempt while another delivered, changes nothing.
 */

export interface WebhookWorkerDeps {
  store: Store;
  config: { webhooks: WebhookConfig };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
  /** Told the outcome of every attempt (the metrics, when on). */
  onOutcome?: (outcome: DeliveryOutcome) => void;
}

/** What became of one attempt: delivered, due again later, failed for good, or cut short by a shutdown. */
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'interrupted';

export interface WebhookWorker {
  /** Looks for work now rather than at the next poll. */
  wake(): void;
  /** Stops claiming, aborts attempts in flight (they are retried soon, by any process), releases its endpoints. */
  stop(): Promise<void>;
}

/** How long one process keeps an endpoint before giving others a turn (it may claim it again). */
const SLICE_MS = 10_000;
/** Events read at a time when looking for the next ones an endpoint subscribes to. */
const SCAN_BATCH = 200;
/**
 * Events handed to an endpoint at a time (queued as pending deliveries, then sent one by one in
 * order): one transaction for many deliveries while an endpoint has a backlog.
 */
const HAND_OVER = 50;
/** After a commit in this process, the soonest the next look for work (so a burst of commits is one look). */
const WAKE_GAP_MS = 20;
const FAILURE_LOG_INTERVAL_MS = 30_000;

const iso = (ms: number): string => new Date(ms).toISOString();

export function startWebhookWorker(deps: WebhookWorkerDeps): WebhookWorker {
  const { db } = deps.store;
  const settings = deps.config.webhooks;
  const owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  // Longer than any attempt, so a live process never loses an endpoint in the middle of one.
  const leaseMs = settings.timeoutMs + 5_000;
  const agents = vettedAgents(settings.allowPrivate);
  const stopping = new AbortController();
  const active = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Number.POSITIVE_INFINITY;
  let running = false;
  let again = false;
  let lastRunAt = 0;
  let lastFailureLog = 0;

  const schedule = (delay: number): void => {
    if (stopping.signal.aborted) return;
    const at = Date.now() + delay;
    if (timer !== undefined && dueAt <= at) return;
    clearTimeout(timer);
    dueAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      dueAt = Number.POSITIVE_INFINITY;
      void run();
    }, delay).unref();
  };

  async function run(): Promise<void> {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    lastRunAt = Date.now();
    let full = false;
    try {
      const free = settings.concurrency - active.size;
      if (free > 0) {
        const now = Date.now();
        // A lease of its own for each claim: a holder that outlived its lease (and whose endpoint was
        // claimed again since, even by this process) can tell, and its late writes change nothing.
        const lease = `${owner}:${randomUUID()}`;
        const claimed = await claimEndpoints(db, { owner: lease, now: iso(now), until: iso(now + leaseMs), limit: free });
        full = claimed.length === free;
        for (const endpoint of claimed) {
          const work: Promise<void> = deliverTo(endpoint)
            .catch((error: unknown) => logFailure(deps.log, error, 'webhook delivery failed unexpectedly', { webhook: endpoint.id }))
            .finally(() => {
              active.delete(work);
              schedule(0);
            });
          active.add(work);
        }
      }
    } catch (error) {
      // Once per 30 s at most: with the store unreachable this fails at every poll.
      if (Date.now() - lastFailureLog > FAILURE_LOG_INTERVAL_MS) {
        lastFailureLog = Date.now();
        logFailure(deps.log, error, 'webhook delivery: looking for due deliveries failed (retrying at every poll)');
      }
    } finally {
      running = false;
    }
    const soon = again || full;
    again = false;
    schedule(soon ? 0 : settings.pollIntervalMs);
  }

  /** Delivers to one leased endpoint until it has nothing due, for one slice at most; then releases it. */
  async function deliverTo(claimed: WebhookEndpointRow): Promise<void> {
    const deadline = Date.now() + SLICE_MS;
    const lease = claimed.lease_owner!;
    try {
      while (!stopping.signal.aborted && Date.now() < deadline) {
        // Read afresh each time: the endpoint may have been paused, changed or rotated meanwhile.
        const endpoint = await renewLease(db, claimed.id, lease, iso(Date.now() + leaseMs));
        if (!endpoint || endpoint.status !== 'active') return;
        const next = await nextDelivery(endpoint);
        if (next === 'scanned') continue;
        if (next === null) return;
        if (next.next_attempt_at !== null && Date.parse(toIso(next.next_attempt_at)) > Date.now()) return;
        if (!(await attempt(endpoint, lease, next))) return;
      }
    } finally {
      await release(claimed.id, lease).catch((error: unknown) =>
        logFailure(deps.log, error, 'webhook delivery: releasing an endpoint failed', { webhook: claimed.id }),
      );
    }
  }

  /**
   * Gives the endpoint up: due again when its earliest pending delivery is, or, with none, when new
   * events arrive; the lease's end stays (as now) so claims take turns. The row is locked before the
   * pending deliveries are read, so a delivery queued again by hand at the same moment (which locks
   * the row too) is either seen here or makes the endpoint due after this.
   */
  async function release(id: string, lease: string): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const endpoint = await lockEndpoint(trx, id);
      if (!endpoint || endpoint.lease_owner !== lease) return;
      await endLease(trx, id, nowIso(), await earliestPendingDue(trx, endpoint.organization_id, id));
    });
  }

  /**
   * The endpoint's oldest pending delivery; else the next events it subscribes to (up to a batch)
   * are handed over as new pending deliveries and the oldest of them is returned; `scanned` when a
   * batch of events held none it subscribes to (the cursor moved on); null when it has nothing left.
   */
  async function nextDelivery(endpoint: WebhookEndpointRow): Promise<WebhookDeliveryRow | 'scanned' | null> {
    const org = endpoint.organization_id;
    const pending = await oldestPending(db, org, endpoint.id);
    if (pending) return pending;
    const batch = await eventTypesAfter(db, org, Number(endpoint.cursor_position), SCAN_BATCH);
    if (batch.length === 0) return null;
    const types = subscribedTypes(endpoint);
    // Never an event of a resource the endpoint's creating key could not read, whatever it subscribes to.
    const limit = endpointResourceTypes(endpoint);
    const matches = batch.filter((e) => subscribes(types, e.type) && limit.includes(e.resource_type));
    const events = matches.slice(0, HAND_OVER);
    // Past the last event taken when there were more matches than it takes, else past the batch.
    const through = Number((events.length < matches.length ? events[events.length - 1]! : batch[batch.length - 1]!).position);
    if (events.length === 0) {
      await advanceCursor(db, endpoint.id, through);
      return 'scanned';
    }
    const now = nowIso();
    await db.transaction().execute(async (trx) => {
      await insertDeliveries(
        trx,
        events.map((event) => ({
          id: randomUUID(),
          organization_id: org,
          endpoint_id: endpoint.id,
          event_id: event.id,
          event_position: Number(event.position),
          event_type: event.type,
          status: 'pending' as const,
          manual: 0,
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
        })),
      );
      await advanceCursor(trx, endpoint.id, through);
      // Due in the endpoint's own row too: should this process die before they are delivered, the
      // next claim (once the lease has run out) finds the endpoint by it.
      await dueBy(trx, org, endpoint.id, now);
    });
    return (await oldestPending(db, org, endpoint.id)) ?? 'scanned';
  }

  /**
   * One attempt, recorded before it is sent (a crash mid-attempt leaves it due again) and after.
   * Both writes need the lease still held (see writeLeased): false when it was lost, and then
   * nothing is sent, or the result (whatever it was) is dropped.
   */
  async function attempt(endpoint: WebhookEndpointRow, lease: string, delivery: WebhookDeliveryRow): Promise<boolean> {
    const schedule = settings.retryDelaysMs;
    const manual = Number(delivery.manual) === 1;
    const attempts = Number(delivery.attempts) + 1;
    const started = Date.now();
    const [held, event] = await Promise.all([
      writeLeased(endpoint, lease, delivery.id, {
        attempts,
        last_attempt_at: iso(started),
        // Should this process die now, the delivery is due again once the lease has run out.
        next_attempt_at: iso(started + (manual ? 0 : (schedule[attempts - 1] ?? 0))),
      }),
      eventAt(db, endpoint.organization_id, Number(delivery.event_position)),
    ]);
    if (!held) return false;

    let status: number | null = null;
    let answer: string | null = null;
    let error: string | null = null;
    let latency: number | null = null;
    if (!event) {
      error = 'The event is no longer kept (EVENTS_RETENTION_DAYS)';
    } else {
      const body = JSON.stringify({ type: event.type, timestamp: toIso(event.occurred_at), data: presentEvent(event) });
      const headers = deliveryHeaders(endpoint, event.id, body, new Date(started));
      const t0 = performance.now();
      try {
        ({ status, body: answer } = await postToTarget(endpoint.url, body, headers, {
          timeoutMs: settings.timeoutMs,
          allowPrivate: settings.allowPrivate,
          signal: stopping.signal,
          agents,
        }));
        error = answerProblem(status);
      } catch (e) {
        error = describeFailure(e);
      }
      latency = Math.round(performance.now() - t0);
    }

    const finished = Date.now();
    const outcome = { response_status: status, response_body: answer, response_latency_ms: latency, last_error: error };
    if (error === null) {
      return reported('succeeded', await writeLeased(endpoint, lease, delivery.id, { ...outcome, status: 'succeeded', next_attempt_at: null, completed_at: iso(finished) }));
    }
    if (stopping.signal.aborted) {
      // Cut short by a shutdown, not the receiver's fault: due again at once, for any process.
      return reported('interrupted', await writeLeased(endpoint, lease, delivery.id, { ...outcome, next_attempt_at: iso(finished) }));
    }
    if (manual || attempts > schedule.length) {
      const failed = { ...outcome, status: 'failed' as const, next_attempt_at: null, completed_at: iso(finished) };
      if (manual) return reported('failed', await writeLeased(endpoint, lease, delivery.id, failed));
      // After every retry failed: the endpoint stops until someone makes it active again.
      const reason = `The delivery of event ${delivery.event_id} (${delivery.event_type}) failed ${attempts} times; the last error: ${error}`;
      const disabled = { status: 'disabled' as const, disabled_at: iso(finished), disabled_reason: reason, updated_at: iso(finished) };
      const written = await writeLeased(endpoint, lease, delivery.id, failed, disabled);
      if (written) deps.log.warn({ webhook: endpoint.id, organization: endpoint.organization_id }, 'webhook endpoint disabled after repeated failures');
      return reported('failed', written);
    }
    const delay = schedule[attempts - 1]!;
    // Up to 10% later, so receivers that failed together are not retried all at the same instant.
    const jitter = Math.floor(Math.random() * delay * 0.1);
    return reported('retrying', await writeLeased(endpoint, lease, delivery.id, { ...outcome, next_attempt_at: iso(finished + delay + jitter) }));
  }

  /** Counts an attempt's outcome (metrics) once its record is written by the lease's holder. */
  function reported(outcome: DeliveryOutcome, written: boolean): boolean {
    if (written) deps.onOutcome?.(outcome);
    return written;
  }

  /**
   * Writes a delivery's record (and, after its last retry, disables the endpoint) only while this
   * claim still holds the endpoint's lease, checked under the endpoint's row lock in the same
   * transaction. A holder that outlived its lease, say frozen mid-attempt while another process
   * claimed the endpoint and delivered, thus changes nothing: false, and the caller stops.
   */
  function writeLeased(
    endpoint: WebhookEndpointRow,
    lease: string,
    deliveryId: string,
    changes: Updateable<WebhookDeliveriesTable>,
    endpointChanges?: Updateable<WebhookEndpointsTable>,
  ): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      const row = await lockEndpoint(trx, endpoint.id);
      if (row?.lease_owner !== lease) return false;
      await updateDelivery(trx, deliveryId, changes);
      if (endpointChanges) await updateEndpoint(trx, endpoint.organization_id, endpoint.id, endpointChanges);
      return true;
    });
  }

  const unsubscribe = onEventsCommitted(() => worker.wake());
  const worker: WebhookWorker = {
    wake: () => schedule(Math.max(0, lastRunAt + WAKE_GAP_MS - Date.now())),
    async stop() {
      unsubscribe();
      stopping.abort();
      clearTimeout(timer);
      await Promise.allSettled([...active]);
      agents.http.destroy();
      agents.https.destroy();
    },
  };
  schedule(0);
  return worker;
}
