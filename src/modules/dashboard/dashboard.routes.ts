import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { responses } from '../../shared/schemas.js';
import { Dashboard, DashboardQuery } from './dashboard.schemas.js';
import * as dashboard from './dashboard.service.js';

export async function dashboardRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/v1/dashboard', {
    config: { auth: { scope: 'dashboard:read' } },
    schema: {
      tags: ['Dashboard'],
      summary: "The organization's ticket figures: counts, open work per team and agent, overdue, recent activity, median resolution time",
      querystring: DashboardQuery,
      response: responses({ 200: Dashboard }),
    },
    handler: (request) => dashboard.getDashboard(deps, authOf(request).organizationId, request.log),
  });
}
