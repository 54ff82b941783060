import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWED_TYPES } from '../src/modules/attachments/file-types.js';
import { SAMPLES } from './helpers/attachments.js';
import { committedDocument, documentAjv, pointerSegment, validatorFor } from './helpers/openapi-document.js';
import { hostileQueryValue, hostileStrings, hostileValue, resolver, valid, type Hints, type Schema } from './helpers/schema-arbitrary.js';
import { pathValues, seedRecords, type Seeded } from './helpers/seed.js';
import { buildTestApp, TEST_STORE, type TestApp } from './helpers/test-app.js';

/**
 * Property-based fuzzing of every operation of the committed openapi.json, on the store of the run.
 * For each operation, fast-check builds requests from the document's own schemas — valid ones
 * (with real ids of a seeded organization, and sometimes random ones) and mutated ones (wrong types,
 * numbers at and past their edges, huge and odd strings, NUL, lone surrogates, upper-case UUIDs,
 * unknown fields and parameters, broken JSON and multipart, other content types, other keys) —
 * and every answer must hold to the document: no 5xx, no request slower than a few seconds, a
 * status the operation declares, the headers that response declares, and a body of the documented
 * content type that validates against the documented schema.
 *
 * Bounded: FUZZ_RUNS requests per operation (default 200: about 10,000 requests, about a minute
 * on SQLite and two on PostgreSQL on a two-core machine running another suite beside it; each run
 * draws a new seed, so runs add up). The seed is printed; FUZZ_SEED=<seed> replays a run exactly.
 */

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
/** An answer slower than this is a hang, not a slow query (the machine is shared and noisy). */
const SLOW_MS = 5_000;

interface Parameter {
  in: 'path' | 'query';
  name: string;
  required?: boolean;
  schema: Schema;
}
interface Response {
  $ref?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
  security?: unknown[];
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, Response> };
}

const document = committedDocument<Document>();
const resolve = resolver(document as unknown as Record<string, unknown>);
const ajv = documentAjv(document);
// GET /v1/stream answers a Server-Sent Events stream that stays open: an injected request never
// settles, so its hostile inputs are live.test.ts's (401, 403, caps, Last-Event-ID), not the fuzzer's.
const operations = Object.entries(document.paths)
  .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })))
  .filter(({ operation }) => !Object.values(operation.responses).some((r) => Object.keys(r.content ?? {}).includes('text/event-stream')));

/** One generated request, before it is sent. */
interface FuzzRequest {
  path: Record<string, string>;
  query: [string, string][];
  body?: { payload: string | Buffer; contentType?: string };
  key: 'admin' | 'readonly' | 'none' | 'malformed';
  mutation: string;
}

let t: TestApp;
let readonlyKey: string;
beforeAll(async () => {
  // Limits high enough that what is fuzzed is the operations, not the rate limiter.
  const high = '100000000';
  t = await buildTestApp({
    RATE_LIMIT_ADMIN_PER_MINUTE: high,
    RATE_LIMIT_READONLY_PER_MINUTE: high,
    RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: high,
    RATE_LIMIT_PORTAL_PER_MINUTE: high,
    RATE_LIMIT_UPLOADS_PER_MINUTE: high,
    // POST /v1/webhooks/{id}/test waits for the receiver (the seeded hooks.example.com, which may
    // take the resolver's own 5 s to fail here): bounded well under the slowness limit.
    WEBHOOKS_TIMEOUT_MS: '1000',
  });
  readonlyKey = await t.org.key({ role: 'readonly' });
  console.log(`fuzz (${TEST_STORE}): seed ${SEED}, ${RUNS} requests per operation; replay with FUZZ_SEED=${SEED}`);
});
afterAll(async () => {
  await t?.close();
});

/** Real values for fields and parameters named like the records of the seeded organization. */
function hintsFor(seeded: Seeded): Hints {
  const signed = new URL(seeded.signedPath, 'http://localhost');
  const byName: Record<string, string> = {
    ...pathValues(seeded),
    assigned_user_id: seeded.userId,
    author_user_id: seeded.userId,
    holder_user_id: seeded.userId,
    assigned_team_id: seeded.teamId,
    expires: signed.searchParams.get('expires') ?? '',
    signature: signed.searchParams.get('signature') ?? '',
  };
  return (name) => (name in byName ? fc.constant(byName[name]) : undefined);
}

const asQueryValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** A multipart body with one part per entry, built byte by byte. */
function multipart(parts: { name: string; filename?: string; type?: string; data: Buffer }[], boundary = 'fuzzboundary', close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.type !== undefined) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), part.data, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const fileType = fc.constantFrom(...ALLOWED_TYPES);

/** A valid upload, and the ways an upload goes wrong. */
const uploadBody: fc.Arbitrary<{ body: FuzzRequest['body']; mutation: string }> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(fileType, hostileStrings.filter((s) => !/["\r\n]/.test(s)).map((s) => s.slice(0, 300))).map(([type, name]) => ({
      body: { payload: multipart([{ name: 'file', filename: `${name}.bin`, type, data: SAMPLES[type] ?? Buffer.from('x') }]), contentType: 'multipart/form-data; boundary=fuzzboundary' },
      mutation: 'valid upload',
    })),
  },
  fc.constantFrom<{ body: FuzzRequest['body']; mutation: string }>(
    { body: { payload: multipart([{ name: 'file', filename: 'a.txt', type: 'text/plain', data: Buffer.from('hello') }], 'fuzzboundary', false), contentType: 'multipart/form-data; boundary=fuzzboundary' }, mutation: 'no closing boundary' },
    { body: { payload: multipart([{ name: 'file', filename: 'a.txt', type: 'text/plain', data: Buffer.from('hello') }]), contentType: 'multipart/form-data; boundary=other' }, mutation: 'another boundary' },
    { body: { payload: multipart([{ name: 'file', filename: 'a.txt', type: 'text/plain', data: Buffer.from('hello') }]), contentType: 'multipart/form-data' }, mutation: 'no boundary' },
    { body: { payload: multipart([{ name: 'note', data: Buffer.from('no file') }]), contentType: 'multipart/form-data; boundary=fuzzboundary' }, mutation: 'no file part' },
    {
      body: {
        payload: multipart([
          { name: 'file', filename: 'a.txt', type: 'text/plain', data: Buffer.from('a') },
          { name: 'file', filename: 'b.txt', type: 'text/plain', data: Buffer.from('b') },
        ]),
        contentType: 'multipart/form-data; boundary=fuzzboundary',
      },
      mutation: 'two files',
    },
    { body: { payload: multipart([{ name: 'file', filename: 'a.exe', type: 'application/x-msdownload', data: Buffer.from('MZ\x90\x00') }]), contentType: 'multipart/form-data; boundary=fuzzboundary' }, mutation: 'type not allowed' },
    { body: { payload: multipart([{ name: 'file', filename: 'setup.exe', type: 'text/plain', data: Buffer.from('MZ\x90\x00\x03\x00\x00\x00') }]), contentType: 'multipart/form-data; boundary=fuzzboundary' }, mutation: 'binary as text' },
    { body: { payload: multipart([{ name: 'file', filename: 'a\u0000b.txt', type: 'text/plain', data: Buffer.from('x') }]), contentType: 'multipart/form-data; boundary=fuzzboundary' }, mutation: 'NUL in filename' },
    { body: { payload: multipart([{ name: 'file', filename: 'x.png', type: 'image/png', data: Buffer.from('not a png') }]), contentType: 'multipart/form-data; boundary=fuzzboundary' }, mutation: 'signature mismatch' },
    { body: { payload: '{"file":"abc"}', contentType: 'application/json' }, mutation: 'JSON instead of multipart' },
    { body: { payload: '--fuzzboundary\r\nContent-Disposition: form-da', contentType: 'multipart/form-data; boundary=fuzzboundary' }, mutation: 'cut in the part headers' },
    { body: undefined, mutation: 'no body' },
  ),
);

/** A JSON body: valid for the schema, or broken in one of many ways. */
function jsonBody(schema: Schema, hints: Hints): fc.Arbitrary<{ body: FuzzRequest['body']; mutation: string }> {
  const json = (value: unknown, mutation: string, contentType = 'application/json') => ({ body: { payload: JSON.stringify(value), contentType }, mutation });
  const s = resolve(schema);
  const fields = Object.keys(s.properties ?? {});
  const validValue = valid(schema, resolve, hints) as fc.Arbitrary<Record<string, unknown>>;
  const arbitraries: fc.Arbitrary<{ body: FuzzRequest['body']; mutation: string }>[] = [
    validValue.map((value) => json(value, 'valid body')),
    fc.tuple(validValue, fc.constantFrom('bogus', '__proto__', 'constructor', 'id', 'organization_id'), hostileValue).map(([value, field, extra]) =>
      json({ ...value, [field]: extra }, `unknown field ${field}`),
    ),
    hostileValue.map((value) => json(value, 'body of another shape')),
    validValue.map((value) => ({ body: { payload: JSON.stringify(value).slice(0, -1), contentType: 'application/json' }, mutation: 'truncated JSON' })),
    fc.constantFrom(
      { body: { payload: '', contentType: 'application/json' }, mutation: 'empty JSON body' },
      { body: undefined, mutation: 'no body' },
      { body: { payload: '{"a":1,}', contentType: 'application/json' }, mutation: 'trailing comma' },
      { body: { payload: '{"__proto__":{"polluted":true}}', contentType: 'application/json' }, mutation: 'prototype poisoning' },
      { body: { payload: `${'['.repeat(5000)}${']'.repeat(5000)}`, contentType: 'application/json' }, mutation: 'deep nesting' },
      { body: { payload: `{"body":"${'x'.repeat(1_100_000)}"}`, contentType: 'application/json' }, mutation: 'over 1 MiB' },
    ),
    fc.tuple(validValue, fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'APPLICATION/JSON', 'application/jsonx')).map(
      ([value, type]) => json(value, `content type ${type}`, type),
    ),
  ];
  if (fields.length > 0) {
    arbitraries.push(
      fc.tuple(validValue, fc.constantFrom(...fields), hostileValue).map(([value, field, bad]) => json({ ...value, [field]: bad }, `hostile ${field}`)),
      fc.tuple(validValue, fc.constantFrom(...fields)).map(([value, field]) => {
        const copy = { ...value };
        delete copy[field];
        return json(copy, `without ${field}`);
      }),
    );
  }
  return fc.oneof({ weight: 4, arbitrary: arbitraries[0]! }, ...arbitraries.slice(1).map((arbitrary) => ({ weight: 1, arbitrary })));
}

/** The portal page's urlencoded reply form. */
const formBody: fc.Arbitrary<{ body: FuzzRequest['body']; mutation: string }> = fc.oneof(
  fc.oneof(fc.string({ maxLength: 50 }), hostileStrings).map((text) => ({
    body: { payload: new URLSearchParams({ body: text }).toString(), contentType: 'application/x-www-form-urlencoded' },
    mutation: 'form',
  })),
  fc.constantFrom(
    { body: { payload: 'body=%ZZ&&=&body=2', contentType: 'application/x-www-form-urlencoded' }, mutation: 'odd form' },
    { body: { payload: '{"body":"hi"}', contentType: 'application/json' }, mutation: 'JSON instead of a form' },
    { body: undefined, mutation: 'no body' },
  ),
);

/** Requests for one operation: valid ones, and each part mutated in turn. */
function requests(op: (typeof operations)[number], hints: Hints): fc.Arbitrary<FuzzRequest> {
  const parameters = op.operation.parameters ?? [];
  const pathParameters = parameters.filter((p) => p.in === 'path');
  const queryParameters = parameters.filter((p) => p.in === 'query');

  const pathValue = (p: Parameter): fc.Arbitrary<string> => {
    const real = hints(p.name);
    const realId = real ? (real as fc.Arbitrary<string>) : fc.uuid();
    return fc.oneof(
      { weight: 8, arbitrary: realId },
      { weight: 1, arbitrary: realId.map((id) => id.toUpperCase()) },
      { weight: 1, arbitrary: fc.uuid() },
    );
  };
  const path = fc.record(Object.fromEntries(pathParameters.map((p) => [p.name, pathValue(p)])));
  const query = fc
    .tuple(...queryParameters.map((p) => fc.option(valid(p.schema, resolve, hints, p.name).map((v) => [p.name, asQueryValue(v)] as [string, string]), { freq: 2 })))
    .map((pairs) => pairs.filter((pair): pair is [string, string] => pair !== null));
  const content = op.operation.requestBody?.content ?? {};
  const body = content['multipart/form-data']
    ? uploadBody
    : content['application/x-www-form-urlencoded']
      ? formBody
      : content['application/json']
        ? jsonBody(content['application/json'].schema, hints)
        : op.method === 'GET'
          ? fc.constant<{ body: FuzzRequest['body']; mutation: string }>({ body: undefined, mutation: 'no body' })
          : fc.constantFrom<{ body: FuzzRequest['body']; mutation: string }>(
              { body: undefined, mutation: 'no body' },
              { body: { payload: '', contentType: 'application/json' }, mutation: 'empty JSON body' },
              { body: { payload: '{}', contentType: 'application/json' }, mutation: 'unexpected JSON body' },
              { body: { payload: '{"a":', contentType: 'application/json' }, mutation: 'unexpected broken JSON' },
              { body: { payload: 'hello', contentType: 'text/plain' }, mutation: 'unexpected text body' },
              { body: { payload: '<a/>', contentType: 'application/xml' }, mutation: 'unexpected XML body' },
            );
  const key = fc.oneof(
    { weight: 12, arbitrary: fc.constant<FuzzRequest['key']>('admin') },
    { weight: 1, arbitrary: fc.constantFrom<FuzzRequest['key']>('readonly', 'none', 'malformed') },
  );

  const base = fc.record({ path, query, body, key }).map(({ path, query, body, key }) => ({ path, query, body: body.body, key, mutation: body.mutation }));
  const mutations: fc.Arbitrary<FuzzRequest>[] = [
    // Unknown and repeated query parameters.
    fc.tuple(base, fc.constantFrom('bogus', 'LIMIT', 'limit[]', '__proto__', 'constructor', 'x'.repeat(300)), hostileQueryValue).map(([r, name, value]) => ({
      ...r,
      query: [...r.query, [name, value] as [string, string]],
      mutation: `${r.mutation}; unknown query ${name.slice(0, 20)}`,
    })),
  ];
  if (queryParameters.length > 0) {
    mutations.push(
      fc.tuple(base, fc.constantFrom(...queryParameters.map((p) => p.name)), hostileQueryValue).map(([r, name, value]) => ({
        ...r,
        query: [...r.query.filter(([n]) => n !== name), [name, value] as [string, string]],
        mutation: `${r.mutation}; hostile query ${name}`,
      })),
      fc.tuple(base, fc.constantFrom(...queryParameters.map((p) => p.name))).map(([r, name]) => ({
        ...r,
        query: [...r.query, [name, '1'], [name, '2']] as [string, string][],
        mutation: `${r.mutation}; repeated query ${name}`,
      })),
    );
  }
  if (pathParameters.length > 0) {
    mutations.push(
      // Never empty: `/v1/tickets/` is another route (the list), not this operation with an odd id.
      fc.tuple(base, fc.constantFrom(...pathParameters.map((p) => p.name)), hostileStrings.filter((v) => v !== '')).map(([r, name, value]) => ({
        ...r,
        path: { ...r.path, [name]: value },
        mutation: `${r.mutation}; hostile path ${name}`,
      })),
    );
  }
  return fc.oneof({ weight: 3, arbitrary: base }, ...mutations.map((arbitrary) => ({ weight: 1, arbitrary })));
}

/**
 * Percent-encodes a value as a client would; a lone surrogate (which UTF-8 cannot encode) is sent
 * as the three bytes a careless encoder writes for it (CESU-8), so the server meets those too.
 */
function encode(value: string): string {
  return value.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (unit) => {
    if (unit.length === 2 || !/[\ud800-\udfff]/.test(unit)) return encodeURIComponent(unit);
    const code = unit.charCodeAt(0);
    return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
  });
}

function urlOf(op: (typeof operations)[number], request: FuzzRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encode(request.path[name] ?? ''));
  if (request.query.length === 0) return path;
  return `${path}?${request.query.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&')}`;
}

/** The documented response for a status, references resolved; undefined when it is not declared. */
function declaredResponse(op: (typeof operations)[number], status: number): { response: Response; pointer: string } | undefined {
  const own = op.operation.responses[String(status)];
  if (!own) return undefined;
  if (own.$ref) {
    const name = own.$ref.replace('#/components/responses/', '');
    return { response: document.components.responses[name]!, pointer: `/components/responses/${pointerSegment(name)}` };
  }
  return { response: own, pointer: `/paths/${pointerSegment(op.path)}/${op.method.toLowerCase()}/responses/${status}` };
}

/** Everything wrong with one answer, by the document. */
function problemsOf(op: (typeof operations)[number], res: LightMyRequestResponse, ms: number): string[] {
  const problems: string[] = [];
  if (res.statusCode >= 500) problems.push(`a ${res.statusCode}`);
  if (ms > SLOW_MS) problems.push(`answered after ${Math.round(ms)} ms`);
  const declared = declaredResponse(op, res.statusCode);
  if (!declared) return [...problems, `status ${res.statusCode} is not declared (declared: ${Object.keys(op.operation.responses).join(', ')})`];
  for (const [name, header] of Object.entries(declared.response.headers ?? {})) {
    // A header declared `required: false` (the rate-limit headers of errors) may be absent.
    if ((header as { required?: boolean }).required === false) continue;
    if (res.headers[name.toLowerCase()] === undefined) problems.push(`declared header ${name} is missing`);
  }
  const content = declared.response.content;
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (!content) {
    if (res.body.length > 0 && res.statusCode !== 303) problems.push(`a body where none is declared (${type})`);
    return problems;
  }
  const ranges = Object.keys(content);
  const matches = (range: string) => range === type || range === '*/*' || (range.endsWith('/*') && type.startsWith(range.slice(0, -1)));
  if (!ranges.some(matches)) return [...problems, `content type ${type || '(none)'} is not declared (${ranges.join(', ')})`];
  if (type === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(res.body);
    } catch {
      return [...problems, 'the body is not JSON'];
    }
    const validate = validatorFor(ajv, `${declared.pointer}/content/application~1json/schema`);
    if (!validate(body)) problems.push(`the body breaks the documented schema: ${ajv.errorsText(validate.errors)}`);
  }
  return problems;
}

function describeRequest(op: (typeof operations)[number], request: FuzzRequest): string {
  const payload = request.body?.payload;
  const shown = payload === undefined ? '(none)' : JSON.stringify(String(payload).slice(0, 300));
  return `${op.method} ${urlOf(op, request).slice(0, 300)} [${request.mutation}; key ${request.key}; content-type ${request.body?.contentType ?? '(none)'}] body ${shown}`;
}

describe(`fuzzing every operation of openapi.json (${TEST_STORE})`, () => {
  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s',
    async (_label, op) => {
      // Fresh records for each operation: a DELETE fuzzed before must not leave the next with 404s only.
      const seeded = await seedRecords(t);
      const hints = hintsFor(seeded);
      const keys = { admin: `Bearer ${t.org.adminKey}`, readonly: `Bearer ${readonlyKey}`, none: undefined, malformed: 'Bearer key_admin_nope' };
      await fc.assert(
        fc.asyncProperty(requests(op, hints), async (request) => {
          const headers: Record<string, string> = {};
          const authorization = keys[request.key];
          if (authorization) headers.authorization = authorization;
          if (request.body?.contentType) headers['content-type'] = request.body.contentType;
          const started = performance.now();
          const res = await t.app.inject({
            method: op.method as 'GET',
            url: urlOf(op, request),
            headers,
            ...(request.body ? { payload: request.body.payload } : {}),
          });
          const problems = problemsOf(op, res, performance.now() - started);
          if (problems.length > 0) {
            throw new Error(`${problems.join('; ')}\n  request: ${describeRequest(op, request)}\n  answer: ${res.statusCode} ${res.body.slice(0, 500)}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      expect(true).toBe(true);
    },
    120_000,
  );
});
