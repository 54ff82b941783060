import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { PORTAL_COMMENTS_ORDER } from './portal.repository.js';
import { toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody } from '../../shared/schemas.js';
import { DownloadLink } from '../attachments/attachments.schemas.js';
import { tokenBeforeBody } from './portal.hooks.js';
import { portalPages } from './portal.pages.js';
import {
  PortalAttachmentParams,
  PortalComment,
  PortalCommentsQuery,
  PortalReplyBody,
  PortalTicket,
  PortalTicketParams,
} from './portal.schemas.js';
import * as portal from './portal.service.js';

export interface PortalRouteDeps extends portal.PortalDeps {
  /** Requests per minute per client address, across every portal route (JSON and pages). */
  perMinute: number;
  windowMs: number;
}

/** Error statuses of the public JSON routes (no API key, so no 401 or 403). */
const errorsOf = (...statuses: number[]) => Object.fromEntries([...statuses, 429, 500].map((s) => [s, ErrorBody]));

/**
 * Customer self-service through a ticket's tracking token: JSON under /v1/portal and web pages
 * under /portal. No API key: the token is the credential, so every portal request counts against
 * one budget per client address (an IPv6 /64 counts as one address), shared by all portal routes.
 */
export async function portalRoutes(fastify: FastifyInstance, deps: PortalRouteDeps): Promise<void> {
  fastify.addHook(
    'onRequest',
    fastify.rateLimit({
      max: deps.perMinute,
      timeWindow: deps.windowMs,
      keyGenerator: (request: FastifyRequest) => `portal:${normalizeIP(request.ip)}`,
    }),
  );
  // The token is in every address: no cache may keep an answer, no Referer may carry it away.
  fastify.addHook('onSend', async (_request: FastifyRequest, reply: FastifyReply, payload) => {
    void reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' });
    return payload;
  });
  await fastify.register(portalApi, deps);
  await fastify.register(portalPages, deps);
}

async function portalApi(fastify: FastifyInstance, deps: portal.PortalDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Portal'];

  app.get('/v1/portal/tickets/:tracking_token', {
    schema: {
      tags,
      summary: 'The ticket a tracking token opens, with its public thread and files',
      description: 'An unknown or malformed token is a 404 with the same body.',
      params: PortalTicketParams,
      response: { 200: PortalTicket, ...errorsOf(404) },
    },
    handler: (request) => portal.getPortalTicket(deps, request.params.tracking_token),
  });

  app.get('/v1/portal/tickets/:tracking_token/comments', {
    schema: {
      tags,
      summary: 'Public comments of the ticket, oldest first (never internal notes)',
      params: PortalTicketParams,
      querystring: PortalCommentsQuery,
      response: { 200: Type.Array(PortalComment), ...errorsOf(404, 422) },
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await portal.listPortalComments(deps, request.params.tracking_token, page), PORTAL_COMMENTS_ORDER);
    },
  });

  app.post('/v1/portal/tickets/:tracking_token/comments', {
    schema: {
      tags,
      summary: "Reply as the ticket's customer",
      description:
        'A reply to a pending or resolved ticket moves it back to open. A closed ticket takes no replies (409).',
      params: PortalTicketParams,
      body: PortalReplyBody,
      response: { 201: PortalComment, ...errorsOf(400, 404, 409, 413, 415, 422) },
    },
    preParsing: tokenBeforeBody(deps),
    handler: async (request, reply) => {
      const comment = await portal.addCustomerReply(deps, request.params.tracking_token, request.body.body);
      return reply.code(201).send(comment);
    },
  });

  app.get('/v1/portal/tickets/:tracking_token/attachments/:attachment_id/download', {
    schema: {
      tags,
      summary: 'A signed download address for one of the ticket’s files',
      params: PortalAttachmentParams,
      response: { 200: DownloadLink, ...errorsOf(404) },
    },
    handler: (request) => portal.portalDownloadLink(deps, request.params.tracking_token, request.params.attachment_id),
  });
}
