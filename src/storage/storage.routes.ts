import contentDisposition from 'content-disposition';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import rangeParser from 'range-parser';
import { Type } from 'typebox';
import type { AppDeps } from '../app-deps.js';
import { errors, handleError } from '../errors.js';
import { findAttachmentById } from '../modules/attachments/attachments.repository.js';
import { ALLOWED_TYPES } from '../modules/attachments/file-types.js';
import { ErrorBody } from '../shared/schemas.js';
import type { ByteRange } from './blob-store.js';
import type { UrlSigner } from './signed-urls.js';
import { UUID_PATTERN } from '../shared/validation.js';

// Deliberately loose: a malformed address is a bad signature (403), not a validation error.
const Params = Type.Object({ attachment_id: Type.String() });
/** What every download carries (set below), for the OpenAPI document. */
const DOWNLOAD_HEADERS = {
  'Content-Disposition': Type.String({ description: '`attachment`, with the file name (RFC 6266: ASCII `filename` and UTF-8 `filename*`)' }),
  'Accept-Ranges': Type.String({ description: 'Always `bytes`: a Range request is answered with 206' }),
  'Cache-Control': Type.String({ description: 'Always `private`' }),
  'X-Content-Type-Options': Type.String({ description: 'Always `nosniff`' }),
  'Content-Security-Policy': Type.String({ description: 'Always `sandbox`: an uploaded HTML file never runs as a page of the service' }),
};
// Streams are never serialized; the schema documents the body and its headers.
const FileBytes = Type.Unsafe<Readable>({
  type: 'string',
  format: 'binary',
  description: 'The file, with the Content-Type it was uploaded with',
  headers: DOWNLOAD_HEADERS,
  'x-content-types': [...ALLOWED_TYPES],
});
const PartOfFile = Type.Unsafe<Readable>({
  type: 'string',
  format: 'binary',
  description: 'The requested range of the file (one range)',
  'x-content-types': [...ALLOWED_TYPES],
  headers: { ...DOWNLOAD_HEADERS, 'Content-Range': Type.String({ description: '`bytes <first>-<last>/<size>`' }) },
});
// The exact forms the service issues; anything else is the same 403 as a wrong signature.
const Query = Type.Object({
  expires: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,12}$', description: 'When the address stops working, in Unix seconds (at most 12 digits), as issued' }),
  ),
  signature: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'HMAC-SHA256 of the address, base64url, as issued' })),
});

/**
 * `attachment` with an ASCII `filename` for old clients and the exact UTF-8 name in `filename*`
 * (RFC 6266); the package would otherwise send Latin-1 bytes, which many clients misread.
 */
function dispositionOf(filename: string): string {
  const name = filename || 'download';
  const ascii = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_');
  return contentDisposition(name, { type: 'attachment', fallback: ascii });
}

/**
 * Serves signed download addresses ({storage_url}/<id>). No API key: the signature is the
 * credential, so there is no per-key rate limit either. Uploaded bytes are untrusted, so they are
 * only ever served as a download in a sandbox, never sniffed into something executable.
 */
export async function storageRoutes(fastify: FastifyInstance, deps: AppDeps & { signer: UrlSigner }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // A malformed address is a bad address (403, revealing nothing), not a validation error (422).
  app.setErrorHandler((error: FastifyError, request, reply) =>
    handleError(error.validation ? (errors.signedUrlInvalid() as unknown as FastifyError) : error, request, reply),
  );
  app.get('/storage/:attachment_id', {
    schema: {
      tags: ['Attachments'],
      summary: 'Download an attachment through a signed address (no Authorization)',
      params: Params,
      querystring: Query,
      response: { 200: FileBytes, 206: PartOfFile, 403: ErrorBody, 416: ErrorBody },
    },
    handler: async (request, reply) => {
      const id = request.params.attachment_id.toLowerCase();
      const { expires, signature } = request.query;
      if (!UUID_PATTERN.test(id) || !deps.signer.verify(id, expires, signature)) throw errors.signedUrlInvalid();
      const row = await findAttachmentById(deps.store.db, id);
      // Deleted since the address was issued: the same answer as a bad signature, as object stores give.
      if (!row) throw errors.signedUrlInvalid();

      const size = Number(row.size_bytes);
      void reply.headers({
        'content-type': row.content_type,
        'content-disposition': dispositionOf(row.filename),
        'x-content-type-options': 'nosniff',
        'content-security-policy': 'sandbox',
        'accept-ranges': 'bytes',
        'cache-control': 'private',
      });

      let range: ByteRange | undefined;
      const header = request.headers.range;
      if (header) {
        const parsed = rangeParser(size, header, { combine: true });
        if (parsed === -1) throw errors.rangeNotSatisfiable(size);
        // Malformed (-2), another unit, or several ranges: answer with the whole file (RFC 9110 allows it).
        if (Array.isArray(parsed) && parsed.type === 'bytes' && parsed.length === 1 && parsed[0]) range = parsed[0];
      }
      if (range) {
        void reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
      }
      void reply.header('content-length', range ? range.end - range.start + 1 : size);
      // HEAD: an empty stream keeps the Content-Length above and leaves the file unread.
      return reply.send(request.method === 'HEAD' ? Readable.from([]) : deps.blobs.open(id, range));
    },
  });
}
