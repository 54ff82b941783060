import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError, errors } from '../../errors.js';
import { logFailure, toAppError } from '../../http/error-handler.js';
import { PAGE_HEADERS, renderMessagePage, renderNotFoundPage, renderTicketPage } from './portal.html.js';
import { tokenBeforeBody } from './portal.hooks.js';
import { PortalAttachmentParams, PortalPageQuery, PortalReplyForm, PortalTicketParams } from './portal.schemas.js';
import * as portal from './portal.service.js';
import { MAX_FILE_BYTES } from '../attachments/attachments.service.js';
import { discardStaged, MAX_REPLY_FILES, readReplyForm, type ReplyForm } from './portal.uploads.js';

const Html = (description: string) => Type.String({ description });
const HTML_ERRORS = {
  400: Html('The address is malformed (bad percent-encoding)'),
  404: Html('Not found: the same page for an unknown and a malformed token'),
  414: Html('A segment of the address is longer than 100 characters'),
  429: Html('Too many requests from this address; Retry-After says when to come back'),
  500: Html('Internal server error'),
  503: Html('The service is temporarily unavailable; Retry-After says when to try again'),
};

/** What each error status tells a person; the detail of a refused reply is shown on the ticket page instead. */
const MESSAGES: Record<number, [string, string]> = {
  400: ['Bad request', 'The request could not be read. Go back to the ticket page and try again.'],
  414: ['Address too long', 'This address is not a ticket page. Please use the link you were sent.'],
  413: ['Message too large', 'The message is too large to send. Please shorten it and try again.'],
  415: ['Unsupported form', 'The reply must be sent with the form on the ticket page.'],
  422: ['Bad request', 'The reply form was incomplete. Go back to the ticket page and try again.'],
  500: ['Something went wrong', 'We could not show this page. Please try again in a moment.'],
  503: ['Temporarily unavailable', 'The service cannot answer right now. Please try again in a moment.'],
};

function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);
}

/** Addresses of the portal's pages, which people open in a browser. */
export const isPortalPageUrl = (url: string): boolean => url.startsWith('/portal/');

/**
 * Errors of the pages as pages: same status and headers (Retry-After, Allow) as the JSON API
 * would give, an HTML body, and never internals.
 */
export function handlePageError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(error);
  const status = appError.statusCode;
  if (status >= 500) logFailure(request.log, error, 'request failed');
  if (appError.headers) void reply.headers(appError.headers);
  if (status === 404) return sendPage(reply, 404, renderNotFoundPage());
  if (status === 429) {
    return sendPage(reply, 429, renderMessagePage('Too many requests', `${appError.detail} Please wait and then reload the page.`));
  }
  const [title, message] = MESSAGES[status] ?? MESSAGES[status >= 500 ? 500 : 400]!;
  return sendPage(reply, status, renderMessagePage(title, message));
}

/** A reply's files and framing can be no larger than this; a larger declared length is refused unread. */
const MAX_FORM_BYTES = MAX_REPLY_FILES * MAX_FILE_BYTES + 1_048_576;

/**
 * The portal as web pages for people: server-rendered, no JavaScript, a strict CSP. The reply is
 * a plain HTML form answered with POST-redirect-GET: multipart/form-data with the text and up to
 * five files (the page's form), or urlencoded text alone. Only this context parses those bodies.
 */
export async function portalPages(fastify: FastifyInstance, deps: portal.PortalDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['Portal'];

  app.setErrorHandler(handlePageError);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  // Streamed, as the upload API's: each file goes to staging as it arrives (portal.uploads.ts).
  await fastify.register(multipart, {
    preservePath: true,
    limits: { fileSize: MAX_FILE_BYTES, files: MAX_REPLY_FILES + 1, fields: 10, fieldSize: 65_536, parts: 20, headerPairs: 100 },
  });

  app.get('/portal/:tracking_token', {
    schema: {
      tags,
      summary: 'The ticket as a web page for the customer (HTML)',
      produces: ['text/html'],
      params: PortalTicketParams,
      querystring: PortalPageQuery,
      response: { 200: Html('The ticket page'), ...HTML_ERRORS, 422: Html('A query parameter is malformed (e.g. `sent` with a NUL)') },
    },
    handler: async (request, reply) => {
      const token = request.params.tracking_token;
      const ticket = await portal.getPortalTicket(deps, token);
      const pagePath = portal.portalPagePath(deps.config, portal.canonicalToken(token));
      return sendPage(reply, 200, renderTicketPage(ticket, { pagePath, sent: request.query.sent === '1' }));
    },
  });

  app.post('/portal/:tracking_token/reply', {
    config: { form: true },
    schema: {
      tags,
      summary: "The page's reply form: field `body`, and up to five file parts named `files` (multipart/form-data)",
      description:
        'Answers 303 See Other back to the ticket page. A refused reply (empty, too long, ticket closed) shows the ticket page again with the reason, as 422 or 409. ' +
        'Files follow the upload rules (allowed types, 30 MB each, content matching the declared type, the storage quota); a refused file refuses the whole reply (400 or 413, the page with the reason and the text kept), and nothing is kept. ' +
        'An urlencoded form (text only) is taken too.',
      consumes: ['multipart/form-data', 'application/x-www-form-urlencoded'],
      produces: ['text/html'],
      params: PortalTicketParams,
      body: PortalReplyForm,
      response: {
        303: Type.Null({ description: 'Sent: back to the ticket page (Location, with `sent=1` so it confirms), at the new comment' }),
        ...HTML_ERRORS,
        409: Html('The ticket is closed: its page with the reason'),
        400: Html('A refused file (type, size, content): the ticket page with the reason; or a form or address that could not be read'),
        413: Html("An urlencoded form larger than 1 MiB, or files over the organization's storage quota"),
        415: Html('Neither multipart/form-data nor an urlencoded form'),
        422: Html('Empty or too long: the ticket page with the reason and the text as typed'),
      },
    },
    preParsing: async (request, reply, payload) => {
      await tokenBeforeBody(deps)(request, reply, payload);
      if (Number(request.headers['content-length'] ?? 0) > MAX_FORM_BYTES) throw errors.fileTooLarge();
      return payload;
    },
    // A multipart body is read by the handler, part by part: there is no parsed body to validate.
    preValidation: async (request) => {
      if (request.isMultipart()) request.body = {};
    },
    handler: async (request, reply) => {
      const token = request.params.tracking_token;
      const form: ReplyForm = { text: request.body.body ?? '', files: [] };
      try {
        if (request.isMultipart()) {
          const ticket = await portal.ticketOfToken(deps.store.db, token);
          await readReplyForm(deps, ticket.organization_id, request.parts(), form);
        }
        const text = form.text;
        const comment = await portal.addCustomerReply(deps, token, text, form.files);
        const page = portal.portalPagePath(deps.config, portal.canonicalToken(token));
        // `sent=1`: the page confirms the reply was taken.
        return reply.headers(PAGE_HEADERS).redirect(`${page}?sent=1#comment-${comment.id}`, 303);
      } catch (error) {
        // addCustomerReply discards the files of a reply it refuses; this covers a failure before it.
        await discardStaged(deps, form.files);
        const message = error instanceof AppError ? (error.statusCode === 409 ? 'This ticket is closed, so your reply was not sent.' : (fileProblem(error) ?? (error.statusCode === 422 ? replyProblem(error) : null))) : null;
        if (!(error instanceof AppError) || message === null) throw error;
        // Refused: the page again, with the reason next to the form and the text kept.
        const ticket = await portal.getPortalTicket(deps, token);
        const pagePath = portal.portalPagePath(deps.config, portal.canonicalToken(token));
        return sendPage(reply, error.statusCode, renderTicketPage(ticket, { pagePath, error: { message, draft: form.text } }));
      }
    },
  });

  app.get('/portal/:tracking_token/attachments/:attachment_id', {
    schema: {
      tags,
      summary: 'Opens one of the ticket’s files: redirects to a freshly signed download address',
      produces: ['text/html'],
      params: PortalAttachmentParams,
      response: { 303: Type.Null({ description: 'To the signed download address (Location), valid for an hour' }), ...HTML_ERRORS },
    },
    handler: async (request, reply) => {
      const { tracking_token, attachment_id } = request.params;
      const link = await portal.portalDownloadLink(deps, tracking_token, attachment_id);
      return reply.headers(PAGE_HEADERS).redirect(link.signed_url, 303);
    },
  });
}

/** A refused file's reason in words for the page; null for other errors. */
function fileProblem(error: AppError): string | null {
  const sent = 'Your reply was not sent, and no file was kept.';
  switch (error.code) {
    case 'file_type_not_allowed':
      return `${sent} One of the files is of a type we do not accept: please send images (PNG, JPEG, GIF, WebP), videos, PDF, plain text or HTML, or ZIP, 7z or gzip archives.`;
    case 'file_content_mismatch':
      return `${sent} One of the files does not contain what its type says (${error.detail.replace(/^.*declared /, 'declared ')}).`;
    case 'file_too_large':
      return `${sent} Each file can be at most 30 MB.`;
    case 'storage_quota_exceeded':
      return `${sent} There is no room left for these files: please send smaller files or none.`;
    case 'malformed_upload':
      return `${sent} The form could not be read; please try again.`;
    default:
      return error.errors?.[0]?.field === 'body.files' ? `${sent} Please attach at most ${MAX_REPLY_FILES} files to one reply.` : null;
  }
}

/** A refused reply's reason in words for the page. */
function replyProblem(error: AppError): string {
  const message = error.errors?.[0]?.message ?? '';
  if (message.startsWith('must NOT have more than')) return 'Your message is too long: please keep it under 10,000 characters.';
  return 'Please write a message before sending.';
}
