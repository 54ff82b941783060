import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { ifMatchOf } from '../../http/conditional.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { actorOf } from '../events/events.log.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { CreateUserBody, ListUsersQuery, UpdateUserBody, User, UserParams } from './users.schemas.js';
import * as users from './users.service.js';

export async function usersRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Users'];

  app.get('/v1/users', {
    config: { auth: { scope: 'users:read' } },
    schema: { tags, summary: 'List users (agents), oldest first', querystring: ListUsersQuery, response: responses({ 200: Type.Array(User) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await users.listUsers(deps, authOf(request).organizationId, page), CREATED_ASC);
    },
  });

  app.get('/v1/users/:user_id', {
    config: { auth: { scope: 'users:read' } },
    schema: { tags, summary: 'Get a user', params: UserParams, response: responses({ 200: User, 404: ErrorBody }) },
    handler: (request) => users.getUser(deps, authOf(request).organizationId, request.params.user_id),
  });

  app.post('/v1/users', {
    config: { auth: { scope: 'users:write' } },
    schema: {
      tags,
      summary: 'Create a user',
      body: CreateUserBody,
      response: responses({ 201: User, 409: ErrorBody }, [400, 413, 415]),
    },
    handler: async (request, reply) => {
      const user = await users.createUser(deps, authOf(request).organizationId, request.body, actorOf(authOf(request)));
      return reply.code(201).send(user);
    },
  });

  app.patch('/v1/users/:user_id', {
    config: { auth: { scope: 'users:write' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Update a user (partial)',
      params: UserParams,
      body: UpdateUserBody,
      response: responses({ 200: User, 404: ErrorBody, 409: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) => users.updateUser(deps, authOf(request).organizationId, request.params.user_id, request.body, actorOf(authOf(request)), ifMatchOf(request)),
  });

  app.delete('/v1/users/:user_id', {
    config: { auth: { scope: 'users:delete' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Delete a user: unassigns their tickets, removes them from teams, revokes the keys they hold',
      params: UserParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await users.deleteUser(deps, authOf(request).organizationId, request.params.user_id, actorOf(authOf(request)), ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });
}
