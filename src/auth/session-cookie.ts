import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The session cookie of a signed-in agent (docs/api-behaviour.md, "Signing in"): the token is 32
 * random bytes; the store keeps only its SHA-256, like API keys (a random token needs no slow hash).
 */
export const SESSION_COOKIE = 'ticketing_session';

/** A new session token (43 base64url characters). */
export const newSessionToken = (): string => randomBytes(32).toString('base64url');

export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The session token a Cookie header carries, if any (a malformed one counts as none sent). */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (cookieHeader === undefined) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (TOKEN.test(value)) return value;
  }
  return undefined;
}

/** True when a Cookie header names the session cookie at all (well-formed or not). */
export const hasSessionCookie = (cookieHeader: string | undefined): boolean =>
  cookieHeader !== undefined && cookieHeader.split(';').some((part) => part.split('=')[0]!.trim() === SESSION_COOKIE);

/**
 * The CSRF token of a session: an HMAC keyed by the session's own token, so it is bound to the
 * session, needs no secret of the service and no storage, and cannot be derived without the cookie.
 */
export const csrfTokenOf = (sessionToken: string): string => createHmac('sha256', sessionToken).update('csrf').digest('base64url');

/** Compares a sent X-CSRF-Token with the session's, in constant time. */
export function csrfMatches(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Set-Cookie value that holds a session for `maxAgeSeconds`, or (0) clears it. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${token}`, `Max-Age=${maxAgeSeconds}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', ...(secure ? ['Secure'] : [])].join('; ');
}
