import type { AuthContext } from '../../auth/auth-context.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import { errors } from '../../errors.js';
import { UUID_PATTERN } from '../../shared/validation.js';
import { feedHead } from '../events/events.repository.js';
import { getTicketRow } from '../tickets/tickets.service.js';
import type { LiveHub } from './live.hub.js';
import type { PresenceRegistry, PresenceState } from './live.presence.js';
import { apiKeyNameOf, eventPositionOf, userNameOf } from './live.repository.js';

export interface LiveDeps {
  store: Store;
  config: Config;
  hub: LiveHub;
  presence: PresenceRegistry;
  streams: StreamCounts;
}

/**
 * Where a new stream starts: after the event named by Last-Event-ID (an event of the caller's
 * organization that is still kept), else at the feed's current end. `resync` says that an ID was
 * given but names no such event (pruned, or another store's): the client missed something and
 * should reload what it shows.
 */
export async function streamStart(deps: Pick<LiveDeps, 'store'>, organizationId: string, lastEventId: string | undefined): Promise<{ position: number; resync: boolean }> {
  const id = lastEventId?.trim();
  if (id) {
    const position = UUID_PATTERN.test(id) ? await eventPositionOf(deps.store.db, organizationId, id.toLowerCase()) : undefined;
    if (position !== undefined) return { position, resync: false };
  }
  return { position: await feedHead(deps.store.db, organizationId), resync: Boolean(id) };
}

/**
 * Records the caller on a ticket of its organization (404 for any other) and tells the streams.
 * A signed-in user appears with their id and full name; an API key with its id and its name.
 */
export async function setPresence(deps: Pick<LiveDeps, 'store' | 'presence'>, auth: AuthContext, ticketId: string, state: PresenceState | 'gone'): Promise<void> {
  const { db } = deps.store;
  await getTicketRow(db, auth.organizationId, ticketId);
  const user =
    auth.keyId === null
      ? { id: auth.holderUserId!, type: 'user' as const, name: (await userNameOf(db, auth.organizationId, auth.holderUserId!)) ?? '' }
      : { id: auth.keyId, type: 'api_key' as const, name: (await apiKeyNameOf(db, auth.organizationId, auth.keyId)) ?? '' };
  deps.presence.set(auth.organizationId, ticketId, user, state);
}

/** Open streams of this process per key (or user) and per organization, each capped. */
export class StreamCounts {
  private readonly byPrincipal = new Map<string, number>();
  private readonly byOrganization = new Map<string, number>();

  constructor(private readonly limits: Config['live']) {}

  /** Counts one more stream, or 429 when a cap is reached; returns what counts it off (once). */
  open(auth: Pick<AuthContext, 'principalId' | 'organizationId' | 'kind'>): () => void {
    const mine = this.byPrincipal.get(auth.principalId) ?? 0;
    const org = this.byOrganization.get(auth.organizationId) ?? 0;
    if (mine >= this.limits.streamsPerPrincipal) {
      throw errors.tooManyStreams(auth.kind === 'session' ? 'this user' : 'this API key', this.limits.streamsPerPrincipal, 'LIVE_STREAMS_PER_PRINCIPAL');
    }
    if (org >= this.limits.streamsPerOrg) throw errors.tooManyStreams('this organization', this.limits.streamsPerOrg, 'LIVE_STREAMS_PER_ORG');
    this.byPrincipal.set(auth.principalId, mine + 1);
    this.byOrganization.set(auth.organizationId, org + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      decrement(this.byPrincipal, auth.principalId);
      decrement(this.byOrganization, auth.organizationId);
    };
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
