import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import type { Mailer } from '../mail/mail.outbox.js';
import { authOf } from '../../auth/authenticate.js';
import { ifMatchOf } from '../../http/conditional.js';
import { actorOf } from '../events/events.log.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import {
  Comment,
  CommentParams,
  CreateCommentBody,
  ListCommentsQuery,
  TicketCommentsParams,
  UpdateCommentBody,
} from './comments.schemas.js';
import * as comments from './comments.service.js';

export async function commentsRoutes(fastify: FastifyInstance, deps: AppDeps & { mailer?: Mailer }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Comments'];

  app.get('/v1/tickets/:ticket_id/comments', {
    config: { auth: { scope: 'comments:read' } },
    schema: {
      tags,
      summary: "List a ticket's comments, oldest first",
      params: TicketCommentsParams,
      querystring: ListCommentsQuery,
      response: responses({ 200: Type.Array(Comment), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await comments.listComments(deps, authOf(request).organizationId, request.params.ticket_id, page), CREATED_ASC);
    },
  });

  app.post('/v1/tickets/:ticket_id/comments', {
    config: { auth: { scope: 'comments:write' }, ifMatch: { of: '/v1/tickets/:ticket_id' } },
    schema: {
      tags,
      summary: 'Add a comment to a ticket',
      description:
        "With If-Match (the ticket's ETag, as GET /v1/tickets/{ticket_id} gave it), a reply written against a ticket that has " +
        'changed since is refused with 412, and nothing is written.',
      params: TicketCommentsParams,
      body: CreateCommentBody,
      response: responses({ 201: Comment, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      const ifMatch = { check: ifMatchOf(request), seesTrackingToken: auth.scopes.has('tickets:write') };
      const comment = await comments.createComment(deps, auth, request.params.ticket_id, request.body, ifMatch);
      return reply.code(201).send(comment);
    },
  });

  app.get('/v1/tickets/:ticket_id/comments/:comment_id', {
    config: { auth: { scope: 'comments:read' } },
    schema: { tags, summary: 'Get a comment', params: CommentParams, response: responses({ 200: Comment, 404: ErrorBody }) },
    handler: (request) =>
      comments.getComment(deps, authOf(request).organizationId, request.params.ticket_id, request.params.comment_id),
  });

  app.patch('/v1/tickets/:ticket_id/comments/:comment_id', {
    config: { auth: { scope: 'comments:write' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Update a comment (body and is_internal only)',
      params: CommentParams,
      body: UpdateCommentBody,
      response: responses({ 200: Comment, 404: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) =>
      comments.updateComment(
        deps,
        authOf(request).organizationId,
        request.params.ticket_id,
        request.params.comment_id,
        request.body,
        actorOf(authOf(request)),
        ifMatchOf(request),
      ),
  });

  app.delete('/v1/tickets/:ticket_id/comments/:comment_id', {
    config: { auth: { scope: 'comments:delete' }, ifMatch: true },
    schema: { tags, summary: 'Delete a comment', params: CommentParams, response: responses({ 204: Type.Null(), 404: ErrorBody }) },
    handler: async (request, reply) => {
      await comments.deleteComment(deps, authOf(request).organizationId, request.params.ticket_id, request.params.comment_id, actorOf(authOf(request)), ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });
}
