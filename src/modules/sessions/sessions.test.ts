import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

interface UserBody {
  id: string;
  email: string;
  role: string;
}
interface SessionBody {
  user: UserBody;
  expires_at: string;
  csrf_token: string;
}

const PASSWORD = 'correct horse battery staple';
const HOUR = 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
const uniqueEmail = () => `agent${++seq}-${Date.now()}@example.com`;

async function createUser(app: TestApp, overrides: Record<string, unknown> = {}, key?: string): Promise<UserBody> {
  const res = await app.request({ method: 'POST', url: '/v1/users', key, body: { email: uniqueEmail(), full_name: 'Grace Hopper', password: PASSWORD, ...overrides } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<UserBody>();
}

const signInRequest = (app: TestApp, email: string, password: string, remoteAddress = '127.0.0.1') =>
  app.app.inject({ method: 'POST', url: '/v1/sessions', remoteAddress, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email, password }) });

/** A signed-in session: its cookie header value and CSRF token. */
interface Signed {
  cookie: string;
  csrf: string;
  body: SessionBody;
  setCookie: string;
}

async function signIn(app: TestApp, email: string, password = PASSWORD): Promise<Signed> {
  const res = await signInRequest(app, email, password);
  expect(res.statusCode, res.body).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  return { cookie: setCookie.split(';')[0]!, csrf: res.json<SessionBody>().csrf_token, body: res.json<SessionBody>(), setCookie };
}

/** A request with the session cookie (and no Authorization), with the CSRF token when given. */
function asSession(app: TestApp, s: Signed, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, csrf: string | null = s.csrf) {
  const headers: Record<string, string> = { cookie: s.cookie };
  if (csrf !== null) headers['x-csrf-token'] = csrf;
  return app.request({ method, url, key: null, headers, ...(body === undefined ? {} : { body }) });
}

const newTicket = { subject: 'Printer on fire', description: 'Smoke everywhere', customer_email: 'c@example.com', customer_name: 'C' };

describe('sessions: sign in and out', () => {
  it('signs in with a cookie, answers the session, and signs out', async () => {
    const user = await createUser(t, { role: 'agent' });
    const s = await signIn(t, user.email.toUpperCase());
    expect(s.body.user).toMatchObject({ id: user.id, email: user.email, role: 'agent' });
    expect(s.body.user).not.toHaveProperty('password');
    expect(s.body.csrf_token.length).toBeGreaterThanOrEqual(32);
    expect(Date.parse(s.body.expires_at) - Date.now()).toBeGreaterThan(11 * HOUR);
    expect(Date.parse(s.body.expires_at) - Date.now()).toBeLessThanOrEqual(12 * HOUR);
    // The cookie: HttpOnly, SameSite=Strict, Path=/, not Secure on a plain-http PUBLIC_URL.
    expect(s.setCookie).toMatch(/^ticketing_session=[A-Za-z0-9_-]{43}; /);
    expect(s.setCookie).toContain('HttpOnly');
    expect(s.setCookie).toContain('SameSite=Strict');
    expect(s.setCookie).toContain('Path=/');
    expect(s.setCookie).toContain(`Max-Age=${7 * 24 * 3600}`);
    expect(s.setCookie).not.toContain('Secure');

    const current = await asSession(t, s, 'GET', '/v1/sessions/current', undefined, null);
    expect(current.statusCode, current.body).toBe(200);
    expect(current.json()).toMatchObject({ user: { id: user.id }, csrf_token: s.csrf });
    const check = await asSession(t, s, 'GET', '/v1/test', undefined, null);
    expect(check.json()).toMatchObject({ status: 'ok', message: 'Session is valid', key_prefix: null });
    expect(check.json<{ scopes: string[] }>().scopes).toContain('tickets:write');

    expect((await asSession(t, s, 'DELETE', '/v1/sessions/current', undefined, null)).statusCode).toBe(403);
    const out = await asSession(t, s, 'DELETE', '/v1/sessions/current');
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^ticketing_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/);
    const after = await asSession(t, s, 'GET', '/v1/sessions/current', undefined, null);
    expect(after.statusCode).toBe(401);
    expect(after.json<{ detail: string }>().detail).toMatch(/session/i);
  });

  it('marks the cookie Secure when PUBLIC_URL is https; CORS never allows credentials', async () => {
    const https = await buildTestApp({ PUBLIC_URL: 'https://support.example.com', CORS_ORIGINS: 'https://other.example.com' });
    try {
      const user = await createUser(https);
      const s = await signIn(https, user.email);
      expect(s.setCookie).toMatch(/; Secure$/);
      const crossOrigin = await https.request({ method: 'GET', url: '/v1/tickets', key: null, headers: { cookie: s.cookie, origin: 'https://other.example.com' } });
      expect(crossOrigin.headers['access-control-allow-origin']).toBe('https://other.example.com');
      expect(crossOrigin.headers['access-control-allow-credentials']).toBeUndefined();
    } finally {
      await https.close();
    }
  });

  it('answers a wrong password, an unknown email, a user without password and an inactive user alike', async () => {
    const user = await createUser(t);
    const noPassword = await createUser(t, { password: undefined });
    const inactive = await createUser(t, { is_active: false });
    const answers = await Promise.all([
      signInRequest(t, user.email, 'wrong password, long enough'),
      signInRequest(t, `nobody-${Date.now()}@example.com`, PASSWORD),
      signInRequest(t, noPassword.email, PASSWORD),
      signInRequest(t, inactive.email, PASSWORD),
    ]);
    const shape = (r: LightMyRequestResponse) => ({ status: r.statusCode, body: r.body, cookie: r.headers['set-cookie'] });
    expect(shape(answers[0])).toEqual({ status: 401, body: JSON.stringify({ detail: 'Wrong email or password' }), cookie: undefined });
    for (const answer of answers.slice(1)) expect(shape(answer)).toEqual(shape(answers[0]));
  });

  it('signs in to the oldest organization of a shared email, or the one named; a key has no session', async () => {
    const email = uniqueEmail();
    const first = await createUser(t, { email });
    const other = await t.newOrg('Second');
    const second = await createUser(t, { email }, other.adminKey);
    expect((await signIn(t, email)).body.user.id).toBe(first.id);
    const named = await t.app.inject({
      method: 'POST',
      url: '/v1/sessions',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email, password: PASSWORD, organization_id: other.id }),
    });
    expect(named.statusCode).toBe(201);
    expect(named.json<SessionBody>().user.id).toBe(second.id);
    expect((await t.request({ method: 'GET', url: '/v1/sessions/current' })).statusCode).toBe(404);
  });

  it('refuses a malformed or unknown cookie with 401', async () => {
    for (const cookie of ['ticketing_session=short', `ticketing_session=${'A'.repeat(43)}`]) {
      const res = await t.request({ method: 'GET', url: '/v1/tickets', key: null, headers: { cookie } });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('sessions: failed sign-ins are limited', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: '3', RATE_LIMIT_SIGN_IN_FAILURES_PER_ADDRESS: '5' });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('per account, known or not: 429 with Retry-After, even for the right password, and the same for an unknown email', async () => {
    const user = await createUser(limited);
    const unknown = `ghost-${Date.now()}@example.com`;
    for (let i = 0; i < 3; i++) {
      expect((await signInRequest(limited, user.email, 'wrong password, long enough', `10.0.1.${i}`)).statusCode).toBe(401);
      expect((await signInRequest(limited, unknown, 'wrong password, long enough', `10.0.2.${i}`)).statusCode).toBe(401);
    }
    const known = await signInRequest(limited, user.email.toUpperCase(), PASSWORD, '10.0.1.9');
    const ghost = await signInRequest(limited, unknown, PASSWORD, '10.0.2.9');
    for (const res of [known, ghost]) {
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(800);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // The same words (the seconds left may differ by one between the two).
    expect(known.body.replace(/\d+/g, 'N')).toBe(ghost.body.replace(/\d+/g, 'N'));
  });

  it('per client address, across accounts; other addresses are not affected', async () => {
    const user = await createUser(limited);
    for (let i = 0; i < 5; i++) {
      expect((await signInRequest(limited, `guess${i}-${Date.now()}@example.com`, 'wrong password, long enough', '10.9.9.9')).statusCode).toBe(401);
    }
    const blocked = await signInRequest(limited, user.email, PASSWORD, '10.9.9.9');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signInRequest(limited, user.email, PASSWORD, '10.9.9.10')).statusCode).toBe(201);
  });
});

describe('sessions: every route accepts a session as a key with the same scopes', () => {
  it('needs X-CSRF-Token on changes (missing or wrong: 403), not on reads', async () => {
    const s = await signIn(t, (await createUser(t, { role: 'agent' })).email);
    const missing = await asSession(t, s, 'POST', '/v1/tickets', newTicket, null);
    expect(missing.statusCode).toBe(403);
    expect(missing.json<{ detail: string }>().detail).toMatch(/^Missing X-CSRF-Token/);
    const wrong = await asSession(t, s, 'POST', '/v1/tickets', newTicket, `${s.csrf.slice(0, -1)}x`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json<{ detail: string }>().detail).toMatch(/^Wrong X-CSRF-Token/);
    const created = await asSession(t, s, 'POST', '/v1/tickets', newTicket);
    expect(created.statusCode, created.body).toBe(201);
    const read = await asSession(t, s, 'GET', `/v1/tickets/${created.json<{ id: string }>().id}`, undefined, null);
    expect(read.statusCode).toBe(200);
    // A session counts against the admin budget, per user.
    expect(read.headers['ratelimit-limit']).toBe(String(t.config.rateLimit.adminPerMinute));
  });

  it('gives agents the agent scopes and admins every scope', async () => {
    const agent = await signIn(t, (await createUser(t, { role: 'agent' })).email);
    const admin = await signIn(t, (await createUser(t, { role: 'admin' })).email);
    const victim = await createUser(t);
    for (const [method, url, scope] of [
      ['DELETE', `/v1/users/${victim.id}`, 'users:delete'],
      ['POST', '/v1/teams', 'teams:write'],
      ['DELETE', `/v1/customers/${victim.id}`, 'customers:delete'],
      ['GET', '/v1/webhooks', 'webhooks:read'],
    ] as const) {
      const res = await asSession(t, agent, method, url, method === 'POST' ? { name: 'Team' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json<{ detail: string }>().detail).toBe(`Insufficient permissions: requires ${scope}`);
    }
    // Key management is for admin keys, and admin users.
    expect((await asSession(t, agent, 'POST', '/v1/api-keys', { name: 'mine', role: 'readonly' })).statusCode).toBe(403);
    const key = await asSession(t, admin, 'POST', '/v1/api-keys', { name: 'from the console', role: 'admin' });
    expect(key.statusCode, key.body).toBe(201);
    expect((await asSession(t, agent, 'GET', '/v1/users', undefined, null)).statusCode).toBe(200);
    expect((await asSession(t, agent, 'POST', '/v1/customers', { name: 'N', email: uniqueEmail() })).statusCode).toBe(201);
    expect((await asSession(t, admin, 'DELETE', `/v1/users/${victim.id}`)).statusCode).toBe(204);
  });

  it('keeps the check order: a bad Authorization is 401 even with a good cookie; the header wins', async () => {
    const s = await signIn(t, (await createUser(t, { role: 'admin' })).email);
    const bad = await t.request({ method: 'GET', url: '/v1/tickets', key: 'key_admin_nope', headers: { cookie: s.cookie } });
    expect(bad.statusCode).toBe(401);
    const other = await t.newOrg('Other');
    const keyWins = await t.request({ method: 'GET', url: '/v1/test', key: other.adminKey, headers: { cookie: s.cookie } });
    expect(keyWins.json()).toMatchObject({ message: 'API key is valid' });
    // An agent without CSRF deleting a user: the CSRF 403 comes before validation and existence.
    const agent = await signIn(t, (await createUser(t, { role: 'agent' })).email);
    expect((await asSession(t, agent, 'DELETE', '/v1/users/not-a-uuid', undefined, null)).statusCode).toBe(403);
  });

  it("a session sees only its user's organization: another organization's ticket is 404", async () => {
    const other = await t.newOrg('Elsewhere');
    const foreign = await t.request({ method: 'POST', url: '/v1/tickets', key: other.adminKey, body: newTicket });
    const s = await signIn(t, (await createUser(t, { role: 'admin' })).email);
    const res = await asSession(t, s, 'GET', `/v1/tickets/${foreign.json<{ id: string }>().id}`, undefined, null);
    expect(res.statusCode).toBe(404);
  });

  it("acts as the user: events' actor, comment author and attachment uploader", async () => {
    const user = await createUser(t, { role: 'agent' });
    const s = await signIn(t, user.email);
    const ticket = (await asSession(t, s, 'POST', '/v1/tickets', newTicket)).json<{ id: string }>();
    const comment = await asSession(t, s, 'POST', `/v1/tickets/${ticket.id}/comments`, { body: 'On it' });
    expect(comment.json()).toMatchObject({ author_user_id: user.id });
    const upload = await t.app.inject({
      method: 'POST',
      url: `/v1/tickets/${ticket.id}/attachments`,
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n',
    });
    expect(upload.statusCode, upload.body).toBe(201);
    expect(upload.json()).toMatchObject({ uploaded_by_user_id: user.id });
    const events = await t.request({ method: 'GET', url: `/v1/tickets/${ticket.id}/events` });
    const actors = events.json<{ actor: unknown }[]>().map((e) => e.actor);
    expect(actors.length).toBeGreaterThanOrEqual(3);
    for (const actor of actors) expect(actor).toEqual({ type: 'user', api_key_id: null, user_id: user.id, customer_id: null });
  });
});

describe('sessions: expiry and ending', () => {
  const setSession = (userId: string, changes: { last_seen_at?: string; expires_at?: string }) =>
    t.store.db.updateTable('sessions').set(changes).where('user_id', '=', userId).execute();

  it('ends after 12 hours idle and after 7 days at most; use within a minute is not written', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    await setSession(user.id, { last_seen_at: ago(11 * HOUR) });
    expect((await asSession(t, s, 'GET', '/v1/tickets', undefined, null)).statusCode).toBe(200);
    // That request recorded its use: the session is fresh again.
    const row = await t.store.db.selectFrom('sessions').select('last_seen_at').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(Date.now() - Date.parse(String(row.last_seen_at))).toBeLessThan(60_000);
    await setSession(user.id, { last_seen_at: ago(12 * HOUR + 1000) });
    expect((await asSession(t, s, 'GET', '/v1/tickets', undefined, null)).statusCode).toBe(401);

    const again = await signIn(t, user.email);
    await setSession(user.id, { expires_at: ago(1000) });
    expect((await asSession(t, again, 'GET', '/v1/tickets', undefined, null)).statusCode).toBe(401);
  });

  it('ends when the password changes, and the new password signs in', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    const short = await t.request({ method: 'PATCH', url: `/v1/users/${user.id}`, body: { password: 'too short' } });
    expect(short.statusCode).toBe(422);
    expect(short.json<{ errors: { field: string }[] }>().errors[0]!.field).toBe('body.password');
    const changed = await t.request({ method: 'PATCH', url: `/v1/users/${user.id}`, body: { password: 'a brand new passphrase' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toMatch(/password|scrypt/);
    expect((await asSession(t, s, 'GET', '/v1/tickets', undefined, null)).statusCode).toBe(401);
    expect((await signInRequest(t, user.email, PASSWORD)).statusCode).toBe(401);
    await signIn(t, user.email, 'a brand new passphrase');
    // The event says the password changed, and nothing of it.
    const feed = await t.request({ method: 'GET', url: '/v1/events?types=user.updated' });
    const text = feed.body;
    expect(text).toContain('"password":{"changed":true}');
    expect(text).not.toContain('scrypt$');
    expect(text).not.toContain('brand new');
  });

  it('ends when the user is deactivated or deleted', async () => {
    const user = await createUser(t);
    const s = await signIn(t, user.email);
    await t.request({ method: 'PATCH', url: `/v1/users/${user.id}`, body: { is_active: false } });
    expect((await asSession(t, s, 'GET', '/v1/tickets', undefined, null)).statusCode).toBe(401);
    expect((await signInRequest(t, user.email, PASSWORD)).statusCode).toBe(401);
    await t.request({ method: 'PATCH', url: `/v1/users/${user.id}`, body: { is_active: true } });
    const again = await signIn(t, user.email);
    expect((await t.request({ method: 'DELETE', url: `/v1/users/${user.id}` })).statusCode).toBe(204);
    expect((await asSession(t, again, 'GET', '/v1/tickets', undefined, null)).statusCode).toBe(401);
  });
});
