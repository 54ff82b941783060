import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../../auth/auth-context.js';
import { verifyPassword } from '../../auth/passwords.js';
import { ROLE_SCOPES } from '../../auth/scopes.js';
import { csrfTokenOf, hashSessionToken, newSessionToken } from '../../auth/session-cookie.js';
import type { Store } from '../../db/store.js';
import { errors } from '../../errors.js';
import type { SignInLimiter } from '../../limits/sign-in-limits.js';
import { toIso } from '../../shared/time.js';
import { normalizeEmail } from '../customers/customers.repository.js';
import { findSignInCandidates } from '../users/users.repository.js';
import { getUser, presentUser } from '../users/users.service.js';
import type { Session, SignInBody } from './sessions.schemas.js';
import {
  deleteEndedSessionsOfUser,
  deleteSession,
  findSessionByTokenHash,
  insertSession,
  touchSession,
} from './sessions.repository.js';

/** A session ends after 12 hours unused, and 7 days after sign-in at the latest. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most once a minute: a read must not become a write every time. */
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionDeps {
  store: Store;
  limiter: SignInLimiter;
  failuresPerAccount: number;
  failuresPerAddress: number;
}

/** A new session: its token (for the cookie, shown only here) and its answer. */
export interface SignedIn {
  token: string;
  session: Session;
}

const idleEnd = (lastSeenMs: number, absoluteEndMs: number): string => new Date(Math.min(lastSeenMs + SESSION_IDLE_MS, absoluteEndMs)).toISOString();

/**
 * Signs a user in. A wrong email and a wrong password are one answer (401, same words, a scrypt
 * either way); failures count per account (the email, known or not) and per client address, and
 * once either is over its limit every attempt is 429 until its window ends, right password or not.
 */
export async function signIn(deps: SessionDeps, body: SignInBody, address: string): Promise<SignedIn> {
  const email = normalizeEmail(body.email);
  const counters = [
    { key: `account:${email}`, max: deps.failuresPerAccount },
    { key: `address:${address}`, max: deps.failuresPerAddress },
  ];
  const wait = await deps.limiter.retryAfter(counters);
  if (wait !== null) throw errors.rateLimited(wait);

  const { db } = deps.store;
  const candidates = (await findSignInCandidates(db, email, body.organization_id)).filter((c) => c.password_hash !== null);
  let user = undefined;
  if (candidates.length === 0) await verifyPassword(body.password, null);
  for (const candidate of candidates) {
    if (await verifyPassword(body.password, candidate.password_hash)) {
      user = candidate;
      break;
    }
  }
  if (user === undefined) {
    await deps.limiter.fail(counters);
    throw errors.signInFailed();
  }

  const token = newSessionToken();
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const absoluteEndMs = nowMs + SESSION_LIFETIME_MS;
  await deleteEndedSessionsOfUser(db, user.organization_id, user.id, now, new Date(nowMs - SESSION_IDLE_MS).toISOString());
  await insertSession(db, {
    id: randomUUID(),
    organization_id: user.organization_id,
    user_id: user.id,
    token_hash: hashSessionToken(token),
    created_at: now,
    last_seen_at: now,
    expires_at: new Date(absoluteEndMs).toISOString(),
  });
  return { token, session: { user: presentUser(user), expires_at: idleEnd(nowMs, absoluteEndMs), csrf_token: csrfTokenOf(token) } };
}

/**
 * The context of a live session by its token, or undefined when it is unknown, idle for 12 hours,
 * past its 7 days, or its user is deactivated (a deleted user's sessions went with them). A
 * session ended by time is deleted when it is found so.
 */
export async function sessionContext(store: Store, token: string): Promise<AuthContext | undefined> {
  const row = await findSessionByTokenHash(store.db, hashSessionToken(token));
  if (row === undefined) return undefined;
  const nowMs = Date.now();
  let lastSeenMs = Date.parse(toIso(row.last_seen_at));
  const absoluteEndMs = Date.parse(toIso(row.expires_at));
  if (nowMs >= absoluteEndMs || nowMs - lastSeenMs >= SESSION_IDLE_MS) {
    await deleteSession(store.db, row.id);
    return undefined;
  }
  if (!row.is_active) return undefined;
  if (nowMs - lastSeenMs > TOUCH_INTERVAL_MS) {
    lastSeenMs = nowMs;
    await touchSession(store.db, row.id, new Date(nowMs).toISOString());
  }
  return {
    kind: 'session',
    keyId: null,
    principalId: `user:${row.user_id}`,
    organizationId: row.organization_id,
    role: row.role,
    scopes: ROLE_SCOPES[row.role],
    keyPrefix: null,
    holderUserId: row.user_id,
    expiresAt: idleEnd(lastSeenMs, absoluteEndMs),
    session: { id: row.id, csrfToken: csrfTokenOf(token) },
  };
}

/** The caller's session as its sign-in answered it (a request by API key has none: 404). */
export async function currentSession(store: Store, auth: AuthContext): Promise<Session> {
  if (auth.session === null) throw errors.notFound('Session (this request is authenticated by an API key, not a session cookie)');
  const user = await getUser({ store }, auth.organizationId, auth.holderUserId!);
  return { user, expires_at: auth.expiresAt!, csrf_token: auth.session.csrfToken };
}

/** Signs the caller's session out (a request by API key has none: 404). */
export async function signOut(store: Store, auth: AuthContext): Promise<void> {
  if (auth.session === null) throw errors.notFound('Session (this request is authenticated by an API key, not a session cookie)');
  await deleteSession(store.db, auth.session.id);
}
