import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { ifMatchOf } from '../../http/conditional.js';
import { KEYS_ORDER } from './api-keys.repository.js';
import { toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { ApiKey, ApiKeyParams, CreateApiKeyBody, CreatedApiKey, ListApiKeysQuery, UpdateApiKeyBody } from './api-keys.schemas.js';
import * as keys from './api-keys.service.js';

/**
 * Key management (docs/api-behaviour.md#api-key-management-v1api-keys). No scope grants it for it, so access goes by the key's
 * role: any valid key may read (a read-only key sees only itself and its holder's keys), only an
 * admin key may create, edit or revoke, and a read-only key may revoke itself.
 */
export async function apiKeysRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Keys'];

  app.get('/v1/api-keys', {
    config: { auth: {} },
    schema: {
      tags,
      summary: 'List API keys, newest first',
      description: 'Any valid key. An admin key sees every key of its organization; a read-only key sees itself and the keys of its holder.',
      querystring: ListApiKeysQuery,
      response: responses({ 200: Type.Array(ApiKey) }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await keys.listApiKeys(deps, callerOf(request), request.query, page), KEYS_ORDER);
    },
  });

  app.get('/v1/api-keys/:key_id', {
    config: { auth: {} },
    schema: {
      tags,
      summary: 'Get an API key',
      description: 'Any valid key; a key a read-only key may not see is 404.',
      params: ApiKeyParams,
      response: responses({ 200: ApiKey, 404: ErrorBody }),
    },
    handler: (request) => keys.getApiKey(deps, callerOf(request), request.params.key_id),
  });

  app.post('/v1/api-keys', {
    config: { auth: { adminKey: true }, idempotency: { secretFields: ['key'] } },
    schema: {
      tags,
      summary: 'Create an API key; the answer carries the plain key, shown this once',
      description:
        'Admin keys only. Key authority: the new key must hold only scopes the calling key holds and expire no later than it (never expiring counts as latest); otherwise 403 naming what is missing. ' +
        'An organization holds at most MAX_API_KEYS_PER_ORG (default 1000) active keys: one more is 422 naming the cap.',
      body: CreateApiKeyBody,
      response: responses({ 201: CreatedApiKey }, [400, 413, 415]),
    },
    handler: async (request, reply) => {
      const created = await keys.createKey(deps, callerOf(request), request.body);
      return reply.code(201).send(created);
    },
  });

  app.patch('/v1/api-keys/:key_id', {
    config: { auth: { adminKey: true }, ifMatch: true },
    schema: {
      tags,
      summary: 'Update an API key (partial)',
      description:
        'Admin keys only. An admin key record may change name, scopes, expires_at and holder_user_id; a read-only key record only its name. Revoked and expired keys are 409. Key authority: the key, as it is and as it would become, must hold only scopes the calling key holds and expire no later than it, so no key can widen its own scopes or extend its own expiry; otherwise 403 naming what is missing.',
      params: ApiKeyParams,
      body: UpdateApiKeyBody,
      response: responses({ 200: ApiKey, 404: ErrorBody, 409: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) => keys.updateKey(deps, callerOf(request), request.params.key_id, request.body, ifMatchOf(request)),
  });

  app.delete('/v1/api-keys/:key_id', {
    config: { auth: { adminKey: true, ownKeyParam: 'key_id' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Revoke an API key: refused (401) from the next request on; the record stays',
      description:
        'Admin keys; a read-only key may revoke itself only. A key may always revoke itself; another key only if it holds no scope the calling key lacks and expires no later than it (else 403). Revoking a revoked key is a 204 that changes nothing.',
      params: ApiKeyParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await keys.revokeKey(deps, callerOf(request), request.params.key_id, ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });
}

/**
 * The caller as key management sees it. A signed-in admin user manages keys as an admin key with
 * the session's scopes and no expiry would (docs/api-behaviour.md, "Signing in"): a session's
 * short life says nothing about how long the keys it hands out may live.
 */
function callerOf(request: FastifyRequest): keys.Caller {
  const auth = authOf(request);
  return auth.session === null ? auth : { ...auth, expiresAt: null };
}
