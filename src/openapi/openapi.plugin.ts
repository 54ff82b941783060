import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ComponentCollector } from './components.js';
import { finishDocument, type OpenApiDocument } from './finish.js';
import { SESSION_COOKIE } from '../auth/session-cookie.js';
import { BEARER_SCHEME, documentRoute, isDocumentationRoute, SESSION_SCHEME } from './operations.js';
import { packageInfo } from './package-info.js';

export interface OpenApiOptions {
  /** The address clients use (PUBLIC_URL): the document's only server. */
  publicUrl: string;
  /** Serve /openapi.json and the interactive documentation at /docs. */
  enabled: boolean;
}

export const DOCS_PREFIX = '/docs';

const DESCRIPTION = `A customer-support ticketing service with a JSON HTTP API.

**Authentication.** Send \`Authorization: Bearer <API key>\`, or, from the agent console, the session
cookie that \`POST /v1/sessions\` sets (with \`X-CSRF-Token\` on changes). Admin keys start with \`key_admin_\`,
read-only keys with \`key_ro_\`. Each operation names the scope it needs (\`x-required-scope\`);
a valid key without it gets 403. A missing, malformed, expired or revoked key gets 401; its
\`detail\` says whether the header is missing, not Bearer, or the token malformed, and gives one
answer for a key that is unknown, revoked or expired.

**Clients.** Every operation has a stable \`operationId\`; the repository's \`sdk/\` is a typed
TypeScript client generated from this document. With \`CORS_ORIGINS\` set, browsers on those origins
may call the API.

**Errors.** Every error body is \`{"detail": "..."}\`; validation errors (422) add
\`errors: [{"field": "body.priority", "message": "..."}]\`. Unknown paths are 404, a known path
with another method is 405 with \`Allow\`. Unknown query parameters on /v1 are 422. Requests the HTTP
parser cannot read get the same body: 400, or 431 when the headers exceed 16 KiB. Every JSON answer
carries \`Cache-Control: no-store\` and \`X-Content-Type-Options: nosniff\`.

**Pagination.** Lists take \`limit\` and \`offset\` (or \`skip\`, the same parameter, at most 100,000:
narrow the list with filters to reach further) and return a bare array; a page shorter than
\`limit\` is the last one.

**Rate limits.** Per key and minute (by default 2,000 for admin keys, 200 for read-only keys). Authenticated
responses carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 carries
\`Retry-After\`.

Every \`GET\` also answers \`HEAD\`. Timestamps are ISO 8601 in UTC with milliseconds; ids are UUIDs.`;

/**
 * The Content-Security-Policy of the documentation pages: everything is served from this
 * service (no CDN), and "Try it out" may call only this service.
 */
function docsCsp(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The OpenAPI 3.1 document (`GET /openapi.json`) and the interactive documentation (`GET /docs`).
 * Must be called before any route is registered: @fastify/swagger collects routes with an
 * onRoute hook, so every route added afterwards, by any module, is documented without a list.
 */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  if (!options.enabled) return;
  const { version } = packageInfo();
  let named = new ComponentCollector();

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Ticketing API', version, description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
      servers: [{ url: options.publicUrl }],
      components: {
        securitySchemes: {
          [BEARER_SCHEME]: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key: `key_admin_...` or `key_ro_...`. The scopes an operation needs are listed in its security requirement.',
          },
          [SESSION_SCHEME]: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description:
              "A signed-in user's session (POST /v1/sessions), for the agent console. Its scopes follow the user's role (`x-required-scope` names the one an operation needs). A request that changes anything (POST, PUT, PATCH, DELETE) must also send the session's `X-CSRF-Token`, else 403. An Authorization header, when sent, wins over the cookie.",
          },
        },
      },
    },
    // A PUBLIC_URL with a path must not be cut off the documented paths.
    stripBasePath: false,
    // A subschema with an $id that is not `named()` is emitted under its $id instead of `def-N`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      if (isDocumentationRoute(url, DOCS_PREFIX)) return { schema: { ...schema, hide: true }, url };
      return { url, schema: documentRoute(route, schema ?? {}, named) };
    },
    transformObject: (documentObject) => {
      const document = ('openapiObject' in documentObject ? documentObject.openapiObject : {}) as OpenApiDocument;
      document.components = { ...document.components, schemas: { ...document.components?.schemas, ...named.components() } };
      named = new ComponentCollector();
      return finishDocument(document);
    },
  });

  // The service's root leads a visitor to the documentation. Relative, so it also works behind a
  // proxy that serves the service under a path of its own.
  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('./docs', 302));

  app.get('/openapi.json', {
    schema: { hide: true },
    handler: async (_request, reply) => {
      // Public and harmless: tools in other origins (editors, client generators) may fetch it.
      void reply.header('access-control-allow-origin', '*');
      return app.swagger();
    },
  });

  const csp = docsCsp(options.publicUrl);
  await app.register(async (docs) => {
    docs.addHook('onSend', async (_request: FastifyRequest, reply: FastifyReply, payload) => {
      void reply.headers({ 'content-security-policy': csp, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
      return payload;
    });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      // BaseLayout: no top bar, whose "explore another URL" box is of no use here and whose logo
      // is an inline <style> the CSP (rightly) refuses.
      uiConfig: { layout: 'BaseLayout', deepLinking: true, docExpansion: 'list', tryItOutEnabled: false, persistAuthorization: false },
      theme: { title: 'Ticketing API' },
    });
  });
}

