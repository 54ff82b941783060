import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../errors.js';
import { addRouteHook, methodsOf } from '../shared/route-hooks.js';

/**
 * Request and response rules that hold for every route, applied in one place each instead of
 * route by route: which bodies are JSON, which query parameters are known, what an empty JSON
 * body means, and the headers every JSON answer carries. (The shape of error answers, those of
 * Node's HTTP parser included, is src/http/error-handler.ts.)
 */

/** The JSON API: every route under /v1, the customer portal's JSON routes included. */
export const isApiRoute = (url: string): boolean => url.startsWith('/v1/');

const NO_QUERY = Type.Object({}, { additionalProperties: false });

/**
 * Unknown query parameters are a 422 naming them on every route of the JSON API, also on routes
 * that take no query at all, so a typo (`?limt=5`, `?expand=...`) never silently does nothing.
 * Addresses outside /v1 are opened by people and infrastructure rather than API clients (signed
 * downloads, portal pages, /docs, health checks, /openapi.json); a tracking or cache-busting
 * parameter appended to them (`?utm_source=...`) is ignored there, and only the parameters they
 * know are checked. Applied to every route as it is registered.
 */
export function registerStrictQueries(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    const schema = route.schema ?? {};
    const query = schema.querystring as Record<string, unknown> | undefined;
    if (query === undefined) route.schema = { ...schema, querystring: NO_QUERY };
    else if (query.additionalProperties !== false) route.schema = { ...schema, querystring: { ...query, additionalProperties: false } };
  });
}

/**
 * `Content-Type: application/json` with an empty body is accepted on routes that take no body
 * (DELETE, the token rotation POST): many clients send that header on every request. Routes that
 * take a body keep answering 400 to an empty one. Everything else is Fastify's own JSON parser
 * (prototype poisoning refused).
 */
export function registerJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && !request.routeOptions.schema?.body) {
      done(null, undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });
}

/** What every JSON answer carries: never sniffed into something else, never kept by a cache. */
export const JSON_SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' } as const;

const SECURITY_HEADER_NAMES = Object.keys(JSON_SECURITY_HEADERS) as Array<keyof typeof JSON_SECURITY_HEADERS>;
const JSON_TYPE = /^application\/json\b/i;

/**
 * Adds `X-Content-Type-Options: nosniff` and `Cache-Control: no-store` to every JSON answer
 * (records are private to a key's organization; errors included). A route that set either header
 * itself keeps its own (the signed download's `Cache-Control: private`); non-JSON answers (files,
 * portal pages, /docs) set their own headers.
 */
export function registerJsonSecurityHeaders(app: FastifyInstance): void {
  // Synchronous (no promise per answer): it runs on every request.
  app.addHook('onSend', (_request: FastifyRequest, reply: FastifyReply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && JSON_TYPE.test(type)) {
      for (const name of SECURITY_HEADER_NAMES) if (!reply.hasHeader(name)) void reply.header(name, JSON_SECURITY_HEADERS[name]);
    }
    done(null, payload);
  });
}

/**
 * POST and PATCH bodies are JSON (docs/api-behaviour.md): anything else is 415, even an empty body, so a
 * client that forgot the header learns why. The upload route (`config.multipart`) and the portal's
 * HTML reply form (`config.form`, which parses only urlencoded bodies) are exempt.
 */
export function registerJsonOnly(app: FastifyInstance): void {
  // The route's own hook, on the routes that take a JSON body: reads never run it.
  app.addHook('onRoute', (route) => {
    const methods = methodsOf(route.method);
    if (!methods.includes('POST') && !methods.includes('PATCH')) return;
    if (route.config?.multipart || route.config?.form || !route.schema?.body) return;
    addRouteHook(route, 'preValidation', (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      if (request.method !== 'POST' && request.method !== 'PATCH') return done();
      const type = request.headers['content-type'];
      done(!type || !JSON_CONTENT_TYPE.test(type) ? errors.unsupportedMediaType() : undefined);
    });
  });
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes multipart/form-data instead of JSON. */
    multipart?: boolean;
    /** The route takes an HTML form (application/x-www-form-urlencoded) instead of JSON: the portal's reply form. */
    form?: boolean;
  }
}
