import type { AuthContext } from './auth-context.js';

/** A key as the cache holds it: what a request needs, computed once. */
export interface CachedKey {
  context: AuthContext;
  /** Epoch milliseconds; Infinity for a key that never expires. */
  expiresAtMs: number;
  /** When last_used_at was last written (epoch milliseconds), so it is written at most once a minute. */
  touchedAtMs: number;
}

/** Distinct keys held; past it the cache starts over (a flood of distinct valid keys is unusual). */
const MAX_ENTRIES = 10_000;

/**
 * Valid API keys by their hash (entries are only made for well-formed keys whose hash was found
 * valid; the key itself is never held, so a heap dump holds no key), so a request with a known key
 * costs one SHA-256, no checksum and no store read. It is only ever used
 * with a version the store can read without a round trip (`Store.apiKeysVersion`, SQLite): the
 * version changes whenever any connection of any process may have changed a key, and then the
 * whole cache is forgotten before the lookup, so a revoked key is refused on the very next
 * request everywhere. Expiry is checked on every hit against the clock. Unknown, revoked and
 * expired keys are never cached: they are read (and refused) every time.
 */
export class ApiKeyCache {
  readonly #entries = new Map<string, CachedKey>();
  #version = Number.NaN;

  constructor(private readonly currentVersion: () => number) {}

  /** The current version, after forgetting everything if it moved; pass it to `set`. */
  refresh(): number {
    const version = this.currentVersion();
    if (version !== this.#version) {
      this.#entries.clear();
      this.#version = version;
    }
    return version;
  }

  get(key: string): CachedKey | undefined {
    return this.#entries.get(key);
  }

  /** The entry as held, without a freshness check: use it only after `holdsAt` says it still holds. */
  peek(key: string): CachedKey | undefined {
    return this.#entries.get(key);
  }

  /**
   * Whether the entries still hold at `version` (read by the caller with a record, in one read
   * transaction); if not, forgets everything, as `refresh` does.
   */
  holdsAt(version: number): boolean {
    if (version === this.#version) return true;
    this.#entries.clear();
    this.#version = version;
    return false;
  }

  /**
   * Keeps a key read from the store at `version` (taken before the read), unless a change came in
   * between: then the read may predate it, and the next request reads again.
   */
  set(key: string, entry: CachedKey, version: number): void {
    if (this.refresh() !== version) return;
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
    this.#entries.set(key, entry);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}
