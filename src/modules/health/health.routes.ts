import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { checkReadiness, type HealthDeps } from './health.service.js';
import { Liveness, NotReady, Readiness } from './health.schemas.js';

/**
 * Health checks for load balancers and orchestrators: no API key, no rate limit (routes without
 * `config.auth` are not counted), nothing in the answer but check outcomes.
 */
export async function healthRoutes(fastify: FastifyInstance, deps: HealthDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Health'];

  app.get('/healthz', {
    schema: { tags, summary: 'Liveness: 200 while the process serves requests', response: { 200: Liveness } },
    handler: async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  });

  app.get('/readyz', {
    schema: {
      tags,
      summary: 'Readiness: 200 when the store answers and can write, 503 naming the failed check otherwise',
      response: { 200: Readiness, 503: NotReady },
    },
    handler: async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      const result = await checkReadiness(deps, fastify.shuttingDown);
      if (!result.ready) {
        return reply.code(503).send({ status: 'unavailable' as const, detail: `Not ready: ${result.reason ?? 'unavailable'}`, checks: result.checks });
      }
      return { status: result.degraded ? ('degraded' as const) : ('ready' as const), checks: result.checks };
    },
  });
}
