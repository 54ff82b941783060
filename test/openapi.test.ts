import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALL_SCOPES } from '../src/auth/scopes.js';
import { ALLOWED_TYPES } from '../src/modules/attachments/file-types.js';
import { OPERATION_IDS } from '../src/openapi/operation-ids.js';
import { documentPath, DOCUMENT_PUBLIC_URL, generateOpenApiDocument, serializeDocument } from '../src/openapi/document.js';
import { UNAUTHORIZED_DETAILS } from '../src/errors.js';
import { documentAjv, validatorFor } from './helpers/openapi-document.js';
import { buildTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Every route each app registers, seen by an onRoute hook added the moment the app is created:
 * an account independent of @fastify/swagger's own, so the two can be compared.
 */
const created = vi.hoisted(() => [] as { app: unknown; routes: RouteOptions[] }[]);
vi.mock('fastify', async (importOriginal) => {
  const mod = await importOriginal<typeof import('fastify')>();
  const factory = (options?: Parameters<typeof mod.default>[0]) => {
    const app = mod.default(options);
    const routes: RouteOptions[] = [];
    created.push({ app, routes });
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
    return app;
  };
  return { ...mod, default: factory };
});

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  'x-required-scope'?: string;
  'x-admin-key-only'?: boolean;
  parameters?: { in: string; name: string; required?: boolean; schema: { type?: unknown; maximum?: number; default?: unknown } }[];
  requestBody?: { content: Record<string, { schema?: { $ref?: string }; example?: unknown }> };
  responses: Record<string, { $ref?: string; headers?: Record<string, unknown>; content?: Record<string, { schema?: { $ref?: string; items?: { $ref?: string } }; example?: unknown }> }>;
  tags?: string[];
}
interface Document {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { examples?: unknown[] }>;
    responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> }>;
    securitySchemes: Record<string, unknown>;
  };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
const toOpenApiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
// The documentation itself and the agent console's pages (/app) are not operations of the API.
const isDocsRoute = (url: string): boolean => url === '/' || url === '/app' || url.startsWith('/app/') || url === '/openapi.json' || url === '/docs' || url.startsWith('/docs/');

/** Every documented operation as "METHOD /path". */
function documentedOperations(doc: Document): Map<string, Operation> {
  const out = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (HTTP_METHODS.includes(method)) out.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return out;
}

/** Every registered route as "METHOD /path" (path in OpenAPI form), HEAD left out. */
function registeredRoutes(app: FastifyInstance): { key: string; route: RouteOptions; url: string; method: string }[] {
  const entry = created.find((c) => c.app === app);
  if (!entry) throw new Error('the app was not created through the mocked factory');
  return entry.routes.flatMap((route) =>
    (Array.isArray(route.method) ? route.method : [route.method]).map((method) => ({
      key: `${method} ${toOpenApiPath(route.url ?? '')}`,
      route,
      url: route.url ?? '',
      method,
    })),
  );
}

/** JSON pointers where two JSON values differ (the first 20), so a stale file names what changed. */
function differingPointers(a: unknown, b: unknown, at = '', out: string[] = []): string[] {
  if (out.length >= 20) return out;
  const isContainer = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      differingPointers(a[key], b[key], `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push(at || '/');
  }
  return out;
}

let t: TestApp;
let doc: Document;
let generated: Document;

beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.request({ method: 'GET', url: '/openapi.json', key: null });
  expect(res.statusCode).toBe(200);
  doc = res.json<Document>();
  generated = (await generateOpenApiDocument()) as unknown as Document;
});
afterAll(async () => {
  await t.close();
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is public JSON: no key needed, not rate limited, readable from other origins', async () => {
    const res = await t.request({ method: 'GET', url: '/openapi.json', key: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['ratelimit-limit']).toBeUndefined();
    // A bad key is not even looked at.
    expect((await t.request({ method: 'GET', url: '/openapi.json', key: 'key_admin_nonsense' })).statusCode).toBe(200);
  });

  it('names the service, its version from package.json, and PUBLIC_URL as its server', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(doc.info.title).toBe('Ticketing API');
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.info.description).toContain('Authorization: Bearer');
    expect(doc.servers).toEqual([{ url: 'http://localhost:8080' }]);
  });

  it('keeps the paths whole when PUBLIC_URL has a path of its own', async () => {
    const other = await buildTestApp({ PUBLIC_URL: 'https://support.example.com/v1' });
    try {
      const served = (await other.request({ method: 'GET', url: '/openapi.json', key: null })).json<Document>();
      expect(served.servers).toEqual([{ url: 'https://support.example.com/v1' }]);
      expect(Object.keys(served.paths)).toEqual(Object.keys(doc.paths));
    } finally {
      await other.close();
    }
  });

  it('declares the bearer security scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lists every tag its operations use', () => {
    const used = new Set([...documentedOperations(doc).values()].flatMap((op) => op.tags ?? []));
    expect(new Set(doc.tags.map((tag) => tag.name))).toEqual(used);
    for (const [key, operation] of documentedOperations(doc)) expect(operation.tags ?? [], key).not.toHaveLength(0);
  });
});

describe('the document lists every route exactly', () => {
  it('nothing undocumented and nothing documented that does not exist', () => {
    const routes = registeredRoutes(t.app).filter((r) => r.method !== 'HEAD' && !isDocsRoute(r.url));
    const registered = new Set(routes.map((r) => r.key));
    const documented = new Set(documentedOperations(doc).keys());
    expect([...registered].filter((key) => !documented.has(key)), 'registered but not documented').toEqual([]);
    expect([...documented].filter((key) => !registered.has(key)), 'documented but not registered').toEqual([]);
    expect(registered.size).toBeGreaterThan(30);
    expect(documented).toContain('GET /v1/tickets/{ticket_id}');
  });

  it('hides only the documentation itself: /openapi.json and the /docs pages and assets', () => {
    const all = registeredRoutes(t.app);
    const hidden = all.filter((r) => r.method !== 'HEAD' && !documentedOperations(doc).has(r.key));
    expect(hidden.map((r) => r.url).filter((url) => !isDocsRoute(url))).toEqual([]);
    expect(hidden.map((r) => r.key)).toEqual(expect.arrayContaining(['GET /openapi.json', 'GET /docs', 'GET /docs/static/*']));
  });

  it('leaves out only the HEAD twin of each GET', () => {
    const all = registeredRoutes(t.app);
    const gets = new Set(all.filter((r) => r.method === 'GET').map((r) => r.url));
    expect(all.filter((r) => r.method === 'HEAD' && !gets.has(r.url)).map((r) => r.url)).toEqual([]);
  });

  it('documents every path parameter of every operation', () => {
    for (const [key, operation] of documentedOperations(doc)) {
      const inPath = [...key.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
      expect(declared, key).toEqual(inPath);
    }
  });
});

describe('access: every operation states what it needs', () => {
  it('security and x-required-scope come from the route configuration the auth hook enforces', () => {
    const operations = documentedOperations(doc);
    const routes = registeredRoutes(t.app).filter((r) => operations.has(r.key));
    expect(routes.length).toBe(operations.size);
    for (const { key, route } of routes) {
      const operation = operations.get(key)!;
      const auth = route.config?.auth;
      if (!auth) {
        expect(operation.security, key).toEqual([]);
        expect(operation['x-required-scope'], key).toBeUndefined();
        continue;
      }
      // An API key or a signed-in session's cookie, with the same scope.
      expect(operation.security, key).toEqual([{ bearerAuth: auth.scope ? [auth.scope] : [] }, { sessionCookie: [] }]);
      expect(operation['x-required-scope'], key).toBe(auth.scope);
      if (auth.adminKey) expect(operation['x-admin-key-only'], key).toBe(true);
    }
  });

  it('every required scope is a defined scope, and the usual operations carry one', () => {
    const operations = documentedOperations(doc);
    for (const [key, operation] of operations) {
      if (operation['x-required-scope'] !== undefined) expect(ALL_SCOPES, key).toContain(operation['x-required-scope']);
    }
    expect(operations.get('GET /v1/tickets')?.['x-required-scope']).toBe('tickets:read');
    expect(operations.get('DELETE /v1/customers/{customer_id}')?.security).toEqual([{ bearerAuth: ['customers:delete'] }, { sessionCookie: [] }]);
    expect(operations.get('POST /v1/teams/{team_id}/members')?.['x-required-scope']).toBe('teams:write');
    // Jobs are read as the tickets they change: a list of them as one of them.
    expect(operations.get('GET /v1/jobs')?.['x-required-scope']).toBe('tickets:read');
    expect(operations.get('GET /v1/jobs')?.['x-required-scope']).toBe(operations.get('GET /v1/jobs/{job_id}')?.['x-required-scope']);
    expect(operations.get('GET /v1/test')?.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(operations.get('POST /v1/sessions')?.security).toEqual([]);
    expect(operations.get('GET /storage/{attachment_id}')?.security).toEqual([]);
  });
});

describe('responses: every operation documents its success and its errors', () => {
  it('every operation has a success response (2xx, or a 303 for a form post)', () => {
    for (const [key, operation] of documentedOperations(doc)) {
      expect(Object.keys(operation.responses).some((status) => /^[23]\d\d$/.test(status)), key).toBe(true);
    }
  });

  it('each error status that applies is there, and every JSON error has the error body', () => {
    const operations = documentedOperations(doc);
    const routes = registeredRoutes(t.app).filter((r) => operations.has(r.key));
    for (const { key, route } of routes) {
      const operation = operations.get(key)!;
      const auth = route.config?.auth;
      const expected = ['500'];
      if (auth) {
        expected.push('401', '429');
        if (auth.scope || auth.adminKey) expected.push('403');
        if (key.includes('{')) expected.push('404');
        if (route.schema?.body || route.schema?.params || route.schema?.querystring) expected.push('422');
      }
      if (route.schema?.body) expected.push('400', '413', '415');
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(expected));
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^[45]/.test(status)) continue;
        const content = response.$ref ? doc.components.responses[response.$ref.replace('#/components/responses/', '')]?.content : response.content;
        expect(content, `${key} ${status}`).toBeDefined();
        // HTML pages (the customer portal) answer errors with a page; readiness names its failed checks.
        if (!content?.['application/json'] || (key === 'GET /readyz' && status === '503')) continue;
        expect(content['application/json'].schema, `${key} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  it('the upload documents its multipart body with the file part', () => {
    const upload = documentedOperations(doc).get('POST /v1/tickets/{ticket_id}/attachments')!;
    const schema = upload.requestBody?.content['multipart/form-data'] as { schema: { $ref: string } };
    const body = doc.components.schemas[schema.schema.$ref.replace('#/components/schemas/', '')] as { required: string[]; properties: Record<string, unknown> };
    expect(body.required).toEqual(['file']);
    // `format: binary`: generated clients type the part as a file (Blob), not a string.
    expect(body.properties.file).toMatchObject({ type: 'string', format: 'binary' });
  });

  it('a signed download is documented as bytes, not JSON', () => {
    const download = documentedOperations(doc).get('GET /storage/{attachment_id}')!;
    // One entry per type an upload may have: a file is served with the type it was uploaded as.
    expect(Object.keys(download.responses['200']?.content ?? {})).toEqual([...ALLOWED_TYPES]);
    expect(Object.keys(download.responses['206']?.content ?? {})).toEqual([...ALLOWED_TYPES]);
  });
});

describe('schemas and examples', () => {
  it('every schema in the document compiles as JSON Schema 2020-12', () => {
    const ajv = documentAjv(doc);
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => validatorFor(ajv, `/components/schemas/${name}`), name).not.toThrow();
    }
  });

  it('the main schemas carry examples, and every example is valid against its schema', () => {
    const ajv = documentAjv(doc);
    for (const name of ['Ticket', 'Customer', 'Error']) expect(doc.components.schemas[name]?.examples?.length, name).toBeGreaterThan(0);
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      const validate = validatorFor(ajv, `/components/schemas/${name}`);
      for (const example of schema.examples ?? []) {
        expect(validate(example), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });

  it('what the API really answers matches the documented schemas', async () => {
    const ajv = documentAjv(doc);
    const ticket = await t.request({
      method: 'POST',
      url: '/v1/tickets',
      body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Printer', description: 'It is on fire' },
    });
    expect(ticket.statusCode).toBe(201);
    const validTicket = validatorFor(ajv, '/components/schemas/Ticket');
    expect(validTicket(ticket.json()), JSON.stringify(validTicket.errors)).toBe(true);

    const customer = await t.request({ method: 'GET', url: `/v1/customers/${ticket.json<{ customer_id: string }>().customer_id}` });
    const validCustomer = validatorFor(ajv, '/components/schemas/Customer');
    expect(validCustomer(customer.json()), JSON.stringify(validCustomer.errors)).toBe(true);

    const validError = validatorFor(ajv, '/components/schemas/Error');
    const invalid = await t.request({ method: 'PATCH', url: `/v1/tickets/${ticket.json<{ id: string }>().id}`, body: { priority: 'asap' } });
    expect(invalid.statusCode).toBe(422);
    expect(validError(invalid.json()), JSON.stringify(validError.errors)).toBe(true);
    const unauthorized = await t.request({ method: 'GET', url: '/v1/tickets', key: null });
    expect(validError(unauthorized.json())).toBe(true);
  });
});

describe('the committed openapi.json', () => {
  it('is generated deterministically: the same document every time, whatever the store or address', async () => {
    const again = (await generateOpenApiDocument()) as unknown as Document;
    expect(serializeDocument(again)).toBe(serializeDocument(generated));
    expect(generated.servers).toEqual([{ url: DOCUMENT_PUBLIC_URL }]);
    expect({ ...doc, servers: generated.servers }).toEqual(generated);
  });

  it('equals the document the code generates', () => {
    const committed = JSON.parse(readFileSync(documentPath(), 'utf8')) as unknown;
    const differences = differingPointers(committed, generated);
    expect(differences, `openapi.json is out of date: run \`npm run openapi\` and commit the result. It differs at`).toEqual([]);
  });
});

describe('GET /docs', () => {
  it('serves the interactive documentation without a key, from local assets only, under a strict CSP', async () => {
    const page = await t.request({ method: 'GET', url: '/docs', key: null });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    const bundle = await t.request({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js', key: null });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-security-policy']).toBe(csp);
    expect(bundle.headers['ratelimit-limit']).toBeUndefined();

    const json = await t.request({ method: 'GET', url: '/docs/json', key: null });
    expect(json.json()).toEqual(doc);
  });

  it('GET / redirects to the documentation', async () => {
    const res = await t.request({ method: 'GET', url: '/', key: null });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('./docs');
    expect(new URL(String(res.headers.location), 'http://127.0.0.1:8080/').pathname).toBe('/docs');
    expect((await t.request({ method: 'HEAD', url: '/', key: null })).statusCode).toBe(302);
  });

  it('an unknown asset is a JSON 404', async () => {
    const res = await t.request({ method: 'GET', url: '/docs/static/nope.js', key: null });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty('detail');
  });

  it('DOCS_ENABLED=false turns off /docs and /openapi.json', async () => {
    const off = await buildTestApp({ DOCS_ENABLED: 'false' });
    try {
      expect((await off.request({ method: 'GET', url: '/docs', key: null })).statusCode).toBe(404);
      expect((await off.request({ method: 'GET', url: '/openapi.json', key: null })).statusCode).toBe(404);
      expect((await off.request({ method: 'GET', url: '/', key: null })).statusCode).toBe(404);
      expect((await off.request({ method: 'GET', url: '/v1/test' })).statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});

describe('what client generators need', () => {
  it('every operation has its stable operationId, unique, in camelCase verb-noun form', () => {
    const ids = [...documentedOperations(doc)].map(([key, operation]) => {
      expect(operation.operationId, key).toBe(OPERATION_IDS[key]);
      expect(operation.operationId, key).toMatch(/^(list|get|create|update|delete|add|remove|revoke|retry|upload|download|post|follow|apply)[A-Z][A-Za-z]+$/);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(Object.keys(OPERATION_IDS).length);
  });

  it('no query parameter with a default is required (limit is optional on every list)', () => {
    let lists = 0;
    for (const [key, operation] of documentedOperations(doc)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue;
        expect(parameter.required ?? false, `${key} ${parameter.name}`).toBe(false);
        if (parameter.name === 'limit') lists++;
      }
    }
    expect(lists).toBeGreaterThanOrEqual(8);
  });

  it('every integer parameter has a maximum', () => {
    for (const [key, operation] of documentedOperations(doc)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema.type === 'integer') expect(parameter.schema.maximum, `${key} ${parameter.name}`).toBeTypeOf('number');
      }
    }
  });

  it('every JSON body, sent or answered, is a named component schema (or a list of one)', () => {
    for (const [key, operation] of documentedOperations(doc)) {
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        expect(media.schema?.$ref, `${key} request ${type}`).toMatch(/^#\/components\/schemas\/[A-Z]\w+$/);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (!schema) continue;
        expect(schema.$ref ?? schema.items?.$ref, `${key} ${status}`).toMatch(/^#\/components\/schemas\/[A-Z]\w+$/);
      }
    }
    for (const name of ['ApiKey', 'CreatedApiKey', 'Dashboard', 'KeyCheck', 'CreateTicketRequest', 'UploadAttachmentRequest']) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
  });

  it('each shared error response has its own realistic example, valid against Error', () => {
    const ajv = documentAjv(doc);
    const validError = validatorFor(ajv, '/components/schemas/Error');
    const examples = Object.entries(doc.components.responses).map(([name, response]) => {
      const example = response.content?.['application/json']?.example;
      expect(example, name).toBeDefined();
      expect(validError(example), `${name}: ${JSON.stringify(validError.errors)}`).toBe(true);
      return JSON.stringify(example);
    });
    expect(new Set(examples).size).toBe(examples.length);
    expect(doc.components.responses.Unauthorized?.content?.['application/json']?.example).toEqual({ detail: UNAUTHORIZED_DETAILS.missing });
  });

  it('declares the rate-limit headers on authenticated answers, errors included, and Retry-After on 429 and 503', () => {
    const list = documentedOperations(doc).get('GET /v1/tickets')!;
    expect(Object.keys(list.responses['200']?.headers ?? {})).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    for (const name of ['Forbidden', 'NotFound', 'ValidationFailed', 'RateLimited']) {
      expect(Object.keys(doc.components.responses[name]?.headers ?? {}), name).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    }
    expect(Object.keys(doc.components.responses.RateLimited?.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(doc.components.responses.StoreUnavailable?.headers ?? {})).toContain('Retry-After');
  });

  it('the documented headers are the ones the service sends, on a success and on an error', async () => {
    const ok = await t.request({ method: 'GET', url: '/v1/tickets' });
    const missing = await t.request({ method: 'GET', url: `/v1/tickets/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}` });
    expect(missing.statusCode).toBe(404);
    for (const res of [ok, missing]) {
      for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers[header], header).toBeDefined();
    }
  });

  it('every request body example works as it is in "Try it out": sent to the API, it succeeds', async () => {
    const operations = documentedOperations(doc);
    const send = async (key: string, ids: Record<string, string>) => {
      const [method, path] = key.split(' ') as [string, string];
      const body = operations.get(key)?.requestBody?.content['application/json']?.example;
      expect(body, key).toBeDefined();
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? '');
      const res = await t.request({ method, url, body });
      expect(res.statusCode, `${key}: ${res.body}`).toBeLessThan(300);
      return res.json<{ id: string; tracking_token?: string }>();
    };
    const ticket = await send('POST /v1/tickets', {});
    const user = await send('POST /v1/users', {});
    const team = await send('POST /v1/teams', {});
    const customer = await send('POST /v1/customers', {});
    const key = await send('POST /v1/api-keys', {});
    const webhook = await send('POST /v1/webhooks', {});
    const field = await send('POST /v1/ticket-fields', {});
    const mailbox = await send('POST /v1/mailboxes', {});
    const view = await send('POST /v1/views', {});
    const macro = await send('POST /v1/macros', {});

    const trigger = await send('POST /v1/triggers', {});
    const automation = await send('POST /v1/automations', {});

    const hours = await send('POST /v1/business-hours', {});
    const policy = await send('POST /v1/sla-policies', {});
    const comment = await send('POST /v1/tickets/{ticket_id}/comments', { ticket_id: ticket.id });
    const token = await t.request({ method: 'POST', url: `/v1/tickets/${ticket.id}/tracking-token` });
    const ids = {
      ticket_id: ticket.id,
      user_id: user.id,
      team_id: team.id,
      customer_id: customer.id,
      key_id: key.id,
      webhook_id: webhook.id,
      field_id: field.id,
      mailbox_id: mailbox.id,
      view_id: view.id,
      macro_id: macro.id,

      trigger_id: trigger.id,
      automation_id: automation.id,

      business_hours_id: hours.id,
      sla_policy_id: policy.id,
      comment_id: comment.id,
      tracking_token: token.json<{ tracking_token: string }>().tracking_token,
    };
    for (const k of operations.keys()) {
      if (!/^(PATCH|POST)/.test(k) || !operations.get(k)?.requestBody?.content['application/json']) continue;
      if (k.startsWith('POST /v1/') && !k.includes('{')) continue;
      if (k === 'POST /v1/tickets/{ticket_id}/comments') continue;
      if (k === 'POST /v1/teams/{team_id}/members') {
        // The one example that must name a record: the user to add. It succeeds once that user exists.
        const res = await t.request({ method: 'POST', url: `/v1/teams/${team.id}/members`, body: { user_id: user.id } });
        expect(res.statusCode).toBeLessThan(300);
        continue;
      }
      await send(k, ids);
    }
  });
});
