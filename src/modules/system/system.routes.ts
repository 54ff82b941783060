import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf } from '../../auth/authenticate.js';
import { ALL_SCOPES } from '../../auth/scopes.js';
import { DateTime, named, Nullable, responses } from '../../shared/schemas.js';

const KeyTest = named('KeyCheck', Type.Object({
  status: Type.String({ examples: ['ok'] }),
  message: Type.String({ examples: ['API key is valid'], description: '`API key is valid`, or `Session is valid` for a signed-in session' }),
  key_prefix: Nullable(Type.String({ examples: ['key_admin_a1B2c3'], description: "The key's prefix; null for a session" })),
  scopes: Type.Array(Type.String()),
  expires_at: Nullable(DateTime({ description: 'When the key expires (null: never), or when the session does if left idle' })),
}));

export async function systemRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/v1/test', {
    config: { auth: {} },
    schema: { tags: ['Keys'], summary: 'Verify the API key or session (needs no particular scope)', response: responses({ 200: KeyTest }) },
    handler: (request) => {
      const auth = authOf(request);
      return {
        status: 'ok',
        message: auth.session ? 'Session is valid' : 'API key is valid',
        key_prefix: auth.keyPrefix,
        scopes: ALL_SCOPES.filter((s) => auth.scopes.has(s)),
        expires_at: auth.expiresAt,
      };
    },
  });
}
