import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { toPage, withNextLink } from '../../shared/pagination.js';
import { responses } from '../../shared/schemas.js';
import { ListTagsQuery, TagCount } from './tags.schemas.js';
import { listTags, TAG_ORDER } from './tags.service.js';

export async function tagsRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/v1/tags', {
    config: { auth: { scope: 'tickets:read' } },
    schema: {
      tags: ['Tags'],
      summary: "List the organization's tags, most used first",
      description: 'Each tag with how many tickets carry it; ties by name. A tag no ticket carries any more is not listed.',
      querystring: ListTagsQuery,
      response: responses({ 200: Type.Array(TagCount) }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await listTags(deps.store, authOf(request).organizationId, page), TAG_ORDER);
    },
  });
}
