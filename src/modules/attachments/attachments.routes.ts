import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { actorOf } from '../events/events.log.js';
import { errors } from '../../errors.js';
import { ifMatchOf } from '../../http/conditional.js';
import { uploadRateLimiter } from '../../limits/rate-limit.js';
import { CREATED_ASC, toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import type { UrlSigner } from '../../storage/signed-urls.js';
import { Attachment, AttachmentParams, DownloadLink, ListAttachmentsQuery, TicketAttachmentsParams } from './attachments.schemas.js';
import * as attachments from './attachments.service.js';

/** Multipart framing around one file is a few hundred bytes; anything far above the limit is refused unread. */
const MAX_REQUEST_BYTES = attachments.MAX_FILE_BYTES + 1_048_576;

/**
 * Checks what can be checked from the headers alone, before any of the body is read: the body must
 * be multipart, and a declared length far above the limit is refused without reading it.
 */
async function checkUploadHeaders(request: FastifyRequest): Promise<void> {
  const type = request.headers['content-type'];
  if (!type || !/^multipart\/form-data\s*;/i.test(type)) throw errors.badRequest(attachments.ONE_FILE_PART);
  const length = Number(request.headers['content-length'] ?? 0);
  if (length > MAX_REQUEST_BYTES) throw errors.fileTooLarge();
}

export async function attachmentsRoutes(fastify: FastifyInstance, deps: AppDeps & { signer: UrlSigner }): Promise<void> {
  const uploadRateExceeded = uploadRateLimiter(fastify, deps.config.rateLimit);
  // Encapsulated: only the routes of this plugin accept multipart bodies.
  await fastify.register(multipart, {
    preservePath: true,
    limits: { fileSize: attachments.MAX_FILE_BYTES, files: 1, fields: 20, fieldSize: 65_536, parts: 21, headerPairs: 100 },
  });
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Attachments'];
  const base = '/v1/tickets/:ticket_id/attachments';

  app.get(base, {
    config: { auth: { scope: 'attachments:read' } },
    schema: {
      tags,
      summary: "List a ticket's attachments, oldest first",
      params: TicketAttachmentsParams,
      querystring: ListAttachmentsQuery,
      response: responses({ 200: Type.Array(Attachment), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await attachments.listAttachments(deps, authOf(request).organizationId, request.params.ticket_id, page), CREATED_ASC);
    },
  });

  app.get(`${base}/:attachment_id`, {
    config: { auth: { scope: 'attachments:read' } },
    schema: { tags, summary: "Get an attachment's metadata", params: AttachmentParams, response: responses({ 200: Attachment, 404: ErrorBody }) },
    handler: (request) =>
      attachments.getAttachment(deps, authOf(request).organizationId, request.params.ticket_id, request.params.attachment_id),
  });

  app.get(`${base}/:attachment_id/download`, {
    config: { auth: { scope: 'attachments:read' } },
    schema: {
      tags,
      summary: 'Get a signed download address, valid for one hour',
      params: AttachmentParams,
      response: responses({ 200: DownloadLink, 404: ErrorBody }),
    },
    handler: (request) =>
      attachments.downloadLink(deps, authOf(request).organizationId, request.params.ticket_id, request.params.attachment_id),
  });

  app.post(base, {
    config: { auth: { scope: 'attachments:write' }, multipart: true },
    schema: {
      tags,
      summary: 'Upload a file (multipart/form-data, one part named file, at most 30 MB)',
      consumes: ['multipart/form-data'],
      params: TicketAttachmentsParams,
      response: responses({ 201: Attachment, 404: ErrorBody }, [400, 413]),
    },
    preParsing: async (request, _reply, payload) => {
      // After the key's request budget and scope (app-level hooks run first), before any byte is read.
      const retryAfter = await uploadRateExceeded(request);
      if (retryAfter !== null) throw errors.uploadRateLimited(deps.config.rateLimit.uploadsPerMinute, retryAfter);
      await checkUploadHeaders(request);
      return payload;
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      await attachments.checkTicket(deps, auth.organizationId, request.params.ticket_id);
      const attachment = await attachments.uploadAttachment(deps, auth, request.params.ticket_id, request.parts());
      return reply.code(201).send(attachment);
    },
  });

  app.delete(`${base}/:attachment_id`, {
    config: { auth: { scope: 'attachments:delete' }, ifMatch: true },
    schema: { tags, summary: 'Delete an attachment and its file', params: AttachmentParams, response: responses({ 204: Type.Null(), 404: ErrorBody }) },
    handler: async (request, reply) => {
      const { ticket_id: ticketId, attachment_id: id } = request.params;
      await attachments.deleteAttachment(deps, authOf(request).organizationId, ticketId, id, actorOf(authOf(request)), ifMatchOf(request));
      return reply.code(204).send(null);
    },
  });
}
