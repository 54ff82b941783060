import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { ifMatchOf } from '../../http/conditional.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { actorOf } from '../events/events.log.js';
import { ErrorBody, MessageBody, responses } from '../../shared/schemas.js';
import {
  AddMemberBody,
  CreateTeamBody,
  ListTeamsQuery,
  MemberParams,
  Team,
  TeamParams,
  TeamSummary,
  UpdateTeamBody,
} from './teams.schemas.js';
import * as teams from './teams.service.js';

export async function teamsRoutes(fastify: FastifyInstance, deps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Teams'];

  app.get('/v1/teams', {
    config: { auth: { scope: 'teams:read' } },
    schema: { tags, summary: 'List teams, oldest first', querystring: ListTeamsQuery, response: responses({ 200: Type.Array(TeamSummary) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await teams.listTeams(deps, authOf(request).organizationId, page), CREATED_ASC);
    },
  });

  app.get('/v1/teams/:team_id', {
    config: { auth: { scope: 'teams:read' } },
    schema: { tags, summary: 'Get a team with its members', params: TeamParams, response: responses({ 200: Team, 404: ErrorBody }) },
    handler: (request) => teams.getTeam(deps, authOf(request).organizationId, request.params.team_id),
  });

  app.post('/v1/teams', {
    config: { auth: { scope: 'teams:write' } },
    schema: { tags, summary: 'Create a team', body: CreateTeamBody, response: responses({ 201: Team }, [400, 413, 415]) },
    handler: async (request, reply) => {
      const team = await teams.createTeam(deps, authOf(request).organizationId, request.body, actorOf(authOf(request)));
      return reply.code(201).send(team);
    },
  });

  app.patch('/v1/teams/:team_id', {
    config: { auth: { scope: 'teams:write' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Update a team (partial)',
      params: TeamParams,
      body: UpdateTeamBody,
      response: responses({ 200: Team, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) => teams.updateTeam(deps, authOf(request).organizationId, request.params.team_id, request.body, actorOf(authOf(request)), ifMatchOf(request)),
  });

  app.delete('/v1/teams/:team_id', {
    config: { auth: { scope: 'teams:delete' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Delete a team and unassign its tickets',
      params: TeamParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await teams.deleteTeam(deps, authOf(request).organizationId, request.params.team_id, actorOf(authOf(request)), ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });

  app.post('/v1/teams/:team_id/members', {
    config: { auth: { scope: 'teams:write' } },
    schema: {
      tags,
      summary: 'Add a user to a team (201 on a first add, 200 when already a member)',
      params: TeamParams,
      body: AddMemberBody,
      response: responses({ 200: MessageBody, 201: MessageBody, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: async (request, reply) => {
      const added = await teams.addMember(deps, authOf(request).organizationId, request.params.team_id, request.body.user_id, actorOf(authOf(request)));
      return added
        ? reply.code(201).send({ message: 'User added to team' })
        : reply.code(200).send({ message: 'User is already a member of the team' });
    },
  });

  app.delete('/v1/teams/:team_id/members/:user_id', {
    config: { auth: { scope: 'teams:write' } },
    schema: {
      tags,
      summary: 'Remove a user from a team',
      params: MemberParams,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      const { team_id, user_id } = request.params;
      await teams.removeMember(deps, authOf(request).organizationId, team_id, user_id, actorOf(authOf(request)));
      return reply.code(204).send(null);
    },
  });
}
