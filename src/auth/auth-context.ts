/**
 * Who is calling: an API key, or a signed-in user's session (src/modules/sessions/). Shared by the
 * requests of a cached key: never change it.
 */
export interface AuthContext {
  kind: 'api_key' | 'session';
  /** The API key's id; null for a session. */
  keyId: string | null;
  /**
   * Whose budget a request counts against and whose Idempotency-Keys it shares: the key's id, or
   * `user:<id>` for a session (all of a user's sessions share one budget).
   */
  principalId: string;
  organizationId: string;
  /** A key's role; for a session, the user's role (`admin` users act with admin authority). */
  role: 'admin' | 'readonly' | 'agent';
  scopes: ReadonlySet<string>;
  /** The key's prefix; null for a session. */
  keyPrefix: string | null;
  /** The user behind the request: the key's holder (when it has one) or the session's user. */
  holderUserId: string | null;
  /** When the key expires (null: never), or when the session does if it stays idle. */
  expiresAt: string | null;
  /** The session's id and the CSRF token it expects on changes; null for a key. */
  session: { id: string; csrfToken: string } | null;
}
