/**
 * `GET /v1/views/counts` from memory: each process keeps, per organization, the counts of its
 * shared views (the same for every caller) and, per user, those of the user's personal views and of
 * views naming "me", each part with the time it was counted, for at most VIEWS_COUNTS_MAX_AGE_MS
 * (0: no cache). Ticket writes do not clear it (counts are allowed to be that old); a view's create,
 * change or delete clears its organization's parts. A view changed through another process is seen
 * by its `updated_at`: a part that does not hold every view it should, at the version it has, is
 * counted again. Deleting this file (and its two calls) leaves exact, slower counts.
 */

export interface CountedView {
  id: string;
  updatedAt: string;
  /** null: over its time budget, or the view names "me"; undefined: refused (its organization's counts busy), not kept. */
  count: number | null | undefined;
}

export interface CountsPart {
  /** When the counts were taken (ms since the epoch). */
  countedAt: number;
  views: Map<string, CountedView>;
}

/** The shared part's key: no user. */
export const SHARED = '';
/** Beyond this many users' parts in one organization, expired ones are dropped on the next store. */
const SWEEP_AT = 500;

export class ViewCountsCache {
  private readonly orgs = new Map<string, Map<string, CountsPart>>();

  constructor(readonly maxAgeMs: number) {}

  get enabled(): boolean {
    return this.maxAgeMs > 0;
  }

  /** The part (SHARED, or a user's) if it is fresh and holds exactly `wanted` at their versions. */
  get(organizationId: string, part: string, wanted: Array<{ id: string; updatedAt: string }>, now: number): CountsPart | undefined {
    const found = this.orgs.get(organizationId)?.get(part);
    if (!found || now - found.countedAt >= this.maxAgeMs || found.views.size !== wanted.length) return undefined;
    return wanted.every((w) => found.views.get(w.id)?.updatedAt === w.updatedAt) ? found : undefined;
  }

  set(organizationId: string, part: string, counts: CountsPart): void {
    if (!this.enabled) return;
    let parts = this.orgs.get(organizationId);
    if (!parts) this.orgs.set(organizationId, (parts = new Map<string, CountsPart>()));
    if (parts.size >= SWEEP_AT) {
      for (const [key, p] of parts) if (counts.countedAt - p.countedAt >= this.maxAgeMs) parts.delete(key);
    }
    parts.set(part, counts);
  }

  /** A view of the organization was created, changed or deleted. */
  clear(organizationId: string): void {
    this.orgs.delete(organizationId);
  }
}
