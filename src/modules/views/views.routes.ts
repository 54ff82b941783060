import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { errors } from '../../errors.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { Ticket } from '../tickets/tickets.schemas.js';
import { CreateViewBody, ListViewsQuery, UpdateViewBody, View, ViewCounts, ViewParams, ViewTicketsQuery } from './views.schemas.js';
import { ViewCountsCache } from './views.counts-cache.js';
import * as views from './views.service.js';

export async function viewsRoutes(fastify: FastifyInstance, appDeps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const maxAgeMs = appDeps.config.viewsCountsMaxAgeMs;
  const deps = { ...appDeps, countsCache: new ViewCountsCache(maxAgeMs) };
  const tags = ['Views'];

  app.get('/v1/views', {
    config: { auth: { scope: 'views:read' } },
    schema: { tags, summary: 'List the views the caller sees (shared, and their own), oldest first', querystring: ListViewsQuery, response: responses({ 200: Type.Array(View) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await views.listViews(deps, authOf(request), page), CREATED_ASC);
    },
  });

  app.get('/v1/views/counts', {
    config: { auth: { scope: 'views:read' } },
    schema: {
      tags,
      summary: 'Count the tickets of every view the caller sees, at once',
      description:
        'Counts as of `counted_at`, which may be up to VIEWS_COUNTS_MAX_AGE_MS (default 30 s) ago: `age_seconds` and the Age header say how long ago. ' +
        'Ticket changes show at the latest then; a view created, changed or deleted shows at once. A count is null when the view names "me" and the caller has no user.',
      response: responses({ 200: ViewCounts }),
    },
    handler: async (request, reply) => {
      const counts = await views.viewCounts(deps, authOf(request));
      const fresh = Math.max(0, Math.floor((maxAgeMs - (Date.now() - Date.parse(counts.counted_at))) / 1000));
      void reply.header('age', String(counts.age_seconds)).header('cache-control', maxAgeMs > 0 ? `private, max-age=${fresh}` : 'private, no-cache');
      return counts;
    },
  });

  app.get('/v1/views/:view_id', {
    config: { auth: { scope: 'views:read' } },
    schema: { tags, summary: 'Get a view', params: ViewParams, response: responses({ 200: View, 404: ErrorBody }) },
    handler: (request) => views.getView(deps, authOf(request), request.params.view_id),
  });

  app.get('/v1/views/:view_id/tickets', {
    config: { auth: { scope: 'views:read' } },
    schema: {
      tags,
      summary: "List a view's tickets, in the view's order",
      description: 'Pages like GET /v1/tickets (offset/limit, or the cursor of the Link header). Needs views:read too.',
      params: ViewParams,
      querystring: ViewTicketsQuery,
      response: responses({ 200: Type.Array(Ticket), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      if (!auth.scopes.has('tickets:read')) throw errors.forbidden('tickets:read');
      const page = toPage(request.query);
      const { tickets, order } = await views.viewTickets(deps, auth, request.params.view_id, page);
      // The tracking token only for keys that may change tickets (docs/api-behaviour.md#tracking-tokens).
      const shown = auth.scopes.has('tickets:write') ? tickets : tickets.map((t) => ({ ...t, tracking_token: null }));
      return withNextLink(request, reply, page, shown, order);
    },
  });

  app.post('/v1/views', {
    config: { auth: { scope: 'views:write' } },
    schema: {
      tags,
      summary: 'Save a view',
      description: 'At most MAX_VIEWS_PER_ORG (default 200) per organization (422 past it). A personal view (shared: false) belongs to the caller\'s user.',
      body: CreateViewBody,
      response: responses({ 201: View }, [400, 413, 415]),
    },
    handler: async (request, reply) => reply.code(201).send(await views.createView(deps, authOf(request), request.body)),
  });

  app.patch('/v1/views/:view_id', {
    config: { auth: { scope: 'views:write' } },
    schema: { tags, summary: 'Update a view (partial)', params: ViewParams, body: UpdateViewBody, response: responses({ 200: View, 404: ErrorBody }, [400, 413, 415]) },
    handler: (request) => views.updateView(deps, authOf(request), request.params.view_id, request.body),
  });

  app.delete('/v1/views/:view_id', {
    config: { auth: { scope: 'views:delete' } },
    schema: { tags, summary: 'Delete a view', params: ViewParams, response: responses({ 204: Type.Null(), 404: ErrorBody }) },
    handler: async (request, reply) => {
      await views.deleteView(deps, authOf(request), request.params.view_id);
      return reply.code(204).send(null);
    },
  });
}
