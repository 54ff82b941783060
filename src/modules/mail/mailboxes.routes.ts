import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf } from '../../auth/authenticate.js';
import { ifMatchOf } from '../../http/conditional.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { CreateMailboxBody, ListMailboxesQuery, Mailbox, MailboxParams, UpdateMailboxBody } from './mailboxes.schemas.js';
import * as mailboxes from './mailboxes.service.js';

export async function mailboxesRoutes(fastify: FastifyInstance, deps: mailboxes.MailboxDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Mailboxes'];

  app.get('/v1/mailboxes', {
    config: { auth: { scope: 'mailboxes:read' } },
    schema: { tags, summary: 'List mailboxes, oldest first', querystring: ListMailboxesQuery, response: responses({ 200: Type.Array(Mailbox) }) },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await mailboxes.listMailboxes(deps, authOf(request).organizationId, page), CREATED_ASC);
    },
  });

  app.post('/v1/mailboxes', {
    config: { auth: { scope: 'mailboxes:write' } },
    schema: {
      tags,
      summary: 'Create a mailbox of the email channel',
      description:
        'Mail that arrives at the mailbox becomes tickets and comments; agents\' public replies go out from it. Passwords are write-only. ' +
        'Mail servers on loopback, private or link-local addresses are refused (422) unless the installation sets MAIL_ALLOW_PRIVATE=true; ' +
        'an organization has at most MAIL_MAX_MAILBOXES mailboxes (default 50).',
      body: CreateMailboxBody,
      response: responses({ 201: Mailbox, 409: ErrorBody }, [400, 413, 415]),
    },
    handler: async (request, reply) => reply.code(201).send(await mailboxes.createMailbox(deps, authOf(request).organizationId, request.body)),
  });

  app.get('/v1/mailboxes/:mailbox_id', {
    config: { auth: { scope: 'mailboxes:read' } },
    schema: { tags, summary: 'Get a mailbox', params: MailboxParams, response: responses({ 200: Mailbox, 404: ErrorBody }) },
    handler: (request) => mailboxes.getMailbox(deps, authOf(request).organizationId, request.params.mailbox_id),
  });

  app.patch('/v1/mailboxes/:mailbox_id', {
    config: { auth: { scope: 'mailboxes:write' }, ifMatch: true },
    schema: {
      tags,
      summary: 'Update a mailbox: its settings, the default, pause or resume',
      params: MailboxParams,
      body: UpdateMailboxBody,
      response: responses({ 200: Mailbox, 404: ErrorBody, 409: ErrorBody }, [400, 413, 415]),
    },
    handler: (request) => mailboxes.updateMailbox(deps, authOf(request).organizationId, request.params.mailbox_id, request.body, ifMatchOf(request)),
  });

  app.delete('/v1/mailboxes/:mailbox_id', {
    config: { auth: { scope: 'mailboxes:delete' }, ifMatch: true },
    schema: { tags, summary: 'Delete a mailbox (its tickets and their mail stay)', params: MailboxParams, response: responses({ 204: Type.Null(), 404: ErrorBody }) },
    handler: async (request, reply) => {
      await mailboxes.deleteMailbox(deps, authOf(request).organizationId, request.params.mailbox_id, ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });
}
