let last = 0;

/**
 * Like `nowIso()`, but strictly increasing within the process. Lists ordered "oldest first" sort by
 * `created_at`; two records made in the same millisecond would otherwise tie and fall back to their
 * random ids, breaking creation order. Under a burst of more than one record per millisecond the
 * value runs ahead of the wall clock by at most the size of the burst, then catches up.
 */
export function creationTimeIso(): string {
  const now = Math.max(Date.now(), last + 1);
  last = now;
  return new Date(now).toISOString();
}
