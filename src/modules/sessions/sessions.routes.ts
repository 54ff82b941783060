import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { sessionCookie } from '../../auth/session-cookie.js';
import type { SignInLimiter } from '../../limits/sign-in-limits.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { Session, SignInBody } from './sessions.schemas.js';
import * as sessions from './sessions.service.js';

export interface SessionsRouteDeps extends AppDeps {
  limiter: SignInLimiter;
}

/** Agents sign in (docs/api-behaviour.md, "Signing in"): a session cookie for the console. */
export async function sessionsRoutes(fastify: FastifyInstance, deps: SessionsRouteDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Sessions'];
  // The cookie is Secure when the service is reached over https (PUBLIC_URL), so a plain-http
  // local installation can still sign in.
  const secure = deps.config.publicUrl.startsWith('https:');
  const lifetimeSeconds = sessions.SESSION_LIFETIME_MS / 1000;
  const serviceDeps = {
    store: deps.store,
    limiter: deps.limiter,
    failuresPerAccount: deps.config.rateLimit.signInFailuresPerAccount,
    failuresPerAddress: deps.config.rateLimit.signInFailuresPerAddress,
  };

  app.post('/v1/sessions', {
    schema: {
      tags,
      summary: 'Sign in with email and password: sets the session cookie',
      description:
        'Sets an HttpOnly, SameSite=Strict session cookie (Secure when the service is served over https). A wrong email and a wrong password get the same 401; failed sign-ins are limited per account and per client address (429 with Retry-After).',
      body: SignInBody,
      response: responses({ 201: Session }, [400, 413, 415]),
    },
    handler: async (request, reply) => {
      const { token, session } = await sessions.signIn(serviceDeps, request.body, request.ip);
      void reply.header('set-cookie', sessionCookie(token, lifetimeSeconds, secure));
      return reply.code(201).send(session);
    },
  });

  app.get('/v1/sessions/current', {
    config: { auth: {} },
    schema: {
      tags,
      summary: 'The signed-in session: its user, when it ends if left idle, and its CSRF token',
      response: responses({ 200: Session, 404: ErrorBody }),
    },
    handler: (request) => sessions.currentSession(deps.store, authOf(request)),
  });

  app.delete('/v1/sessions/current', {
    config: { auth: {} },
    schema: {
      tags,
      summary: 'Sign out: ends the session and clears its cookie',
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await sessions.signOut(deps.store, authOf(request));
      void reply.header('set-cookie', sessionCookie('', 0, secure));
      return reply.code(204).send(null);
    },
  });
}
