import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf } from '../../auth/authenticate.js';
import { errors } from '../../errors.js';
import { handleError } from '../../http/error-handler.js';
import { ErrorBody, named, Nullable, StringEnum, Uuid } from '../../shared/schemas.js';
import type { IntakeDeps } from './mail.intake.js';
import { MailboxParams } from './mailboxes.schemas.js';
import * as mail from './mail.service.js';

/** The largest raw message taken in (40 MiB): 30 MB of attachments, base64-encoded, and change. */
export const MAX_RAW_MESSAGE_BYTES = 40 * 1024 * 1024;

export const IntakeResult = named(
  'MailIntakeResult',
  Type.Object(
    {
      outcome: StringEnum(['created', 'appended', 'duplicate', 'ignored', 'rejected'] as const, {
        description:
          '`created`: a new ticket; `appended`: a comment on the ticket it continues; `duplicate`: taken before (by Message-ID, or its bytes when it has none); ' +
          '`ignored`: sent from one of the organization\'s own mailboxes; `rejected`: it cannot be used (see reason). The raw message is kept in every case.',
      }),
      ticket_id: Nullable(Uuid()),
      comment_id: Nullable(Uuid({ description: 'Null when the message opened the ticket (it is its description)' })),
      reason: Nullable(Type.String({ description: 'Why it was ignored or rejected' })),
    },
    { examples: [{ outcome: 'created', ticket_id: '6f1c2a3e-8d4b-4c5a-9e7f-0a1b2c3d4e5f', comment_id: null, reason: null }] },
  ),
);

const RawMessage = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: 'The message exactly as it was received',
  'x-content-types': ['message/rfc822'],
});

const TicketParams = Type.Object({ ticket_id: Uuid() });
const CommentParams = Type.Object({ ticket_id: Uuid(), comment_id: Uuid() });

export async function mailRoutes(fastify: FastifyInstance, deps: IntakeDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Encapsulated: only these routes take raw mail.
  app.addContentTypeParser('message/rfc822', { parseAs: 'buffer', bodyLimit: MAX_RAW_MESSAGE_BYTES }, (_request, body, done) => done(null, body));

  app.post('/v1/mailboxes/:mailbox_id/messages', {
    config: { auth: { scope: 'mailboxes:write' }, rawMail: true },
    bodyLimit: MAX_RAW_MESSAGE_BYTES,
    schema: {
      tags: ['Mailboxes'],
      summary: 'Take a raw message in, as if the mailbox had received it',
      description:
        'For providers\' inbound hooks and for tests: the body is the message itself (Content-Type: message/rfc822, at most 40 MiB). ' +
        'It is threaded, deduplicated and stored exactly as mail fetched by IMAP or received by the SMTP listener.',
      consumes: ['message/rfc822'],
      params: MailboxParams,
      response: { 202: IntakeResult, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    preParsing: async (request, _reply, payload) => {
      // A declared length over the limit is refused before any byte is read.
      if (Number(request.headers['content-length'] ?? 0) > MAX_RAW_MESSAGE_BYTES) throw errors.rawMailTooLarge(MAX_RAW_MESSAGE_BYTES);
      return payload;
    },
    // A body that turns out longer than it said (or is chunked) is cut off at the limit: the same 413.
    errorHandler: (error, request, reply) => {
      void handleError((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? errors.rawMailTooLarge(MAX_RAW_MESSAGE_BYTES) : error, request, reply);
    },
    preValidation: (request, _reply, done) => {
      const type = request.headers['content-type'] ?? '';
      done(/^message\/rfc822\s*(;|$)/i.test(type) && Buffer.isBuffer(request.body) ? undefined : errors.rawMailOnly());
    },
    handler: async (request, reply) => {
      const result = await mail.takeInRaw(deps, authOf(request).organizationId, request.params.mailbox_id, request.body as Buffer);
      return reply.code(202).send(result);
    },
  });

  app.get('/v1/tickets/:ticket_id/raw', {
    config: { auth: { scope: 'tickets:read' } },
    schema: {
      tags: ['Tickets'],
      summary: 'The original message of a ticket opened by mail (message/rfc822)',
      params: TicketParams,
      response: { 200: RawMessage, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      const raw = await mail.rawOf(deps, authOf(request).organizationId, request.params.ticket_id, null);
      return reply.type('message/rfc822').header('content-disposition', 'attachment; filename="message.eml"').send(raw);
    },
  });

  app.get('/v1/tickets/:ticket_id/comments/:comment_id/raw', {
    config: { auth: { scope: 'comments:read' } },
    schema: {
      tags: ['Comments'],
      summary: 'The original message of a comment that came by mail (message/rfc822)',
      params: CommentParams,
      response: { 200: RawMessage, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      const { ticket_id, comment_id } = request.params;
      const raw = await mail.rawOf(deps, authOf(request).organizationId, ticket_id, comment_id);
      return reply.type('message/rfc822').header('content-disposition', 'attachment; filename="message.eml"').send(raw);
    },
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a raw message (message/rfc822) instead of JSON. */
    rawMail?: boolean;
  }
}
