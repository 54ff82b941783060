/**
 * A typed client of the Ticketing API: openapi-fetch over the types openapi-typescript generates
 * from openapi.json (sdk/schema.d.ts, `npm run sdk`). Every path, parameter, body and answer is
 * typed; a call returns `{ data, error, response }`.
 *
 *   const api = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: process.env.TICKETING_KEY });
 *   const { data, error } = await api.GET('/v1/tickets', { params: { query: { status: 'open' } } });
 */
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export interface TicketingClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service answers, e.g. http://127.0.0.1:8080 (its PUBLIC_URL). */
  baseUrl: string;
  /** An API key (key_admin_... or key_ro_...), sent as `Authorization: Bearer <key>`. Leave out for the public operations. */
  apiKey?: string;
  /**
   * For a signed-in session (the cookie, `credentials: 'same-origin'`): returns the session's CSRF
   * token (POST /v1/sessions or GET /v1/sessions/current), sent as `X-CSRF-Token` on every request
   * that changes something. Called per request, so a new sign-in is picked up.
   */
  csrfToken?: () => string | null | undefined;
}

export type TicketingClient = Client<paths>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A client of one service with one API key, or of a signed-in session (cookie + `csrfToken`). */
export function createClient({ baseUrl, apiKey, csrfToken, ...options }: TicketingClientOptions): TicketingClient {
  const client = createFetchClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, '') });
  if (csrfToken !== undefined) {
    client.use({
      onRequest({ request }) {
        const token = csrfToken();
        if (token && !SAFE_METHODS.has(request.method) && !request.headers.has('x-csrf-token')) request.headers.set('x-csrf-token', token);
        return request;
      },
    });
  }
  if (apiKey !== undefined) {
    client.use({
      onRequest({ request }) {
        // A call may still send its own Authorization (another key) for one request.
        if (!request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${apiKey}`);
        return request;
      },
    });
  }
  return client;
}

/**
 * The body serializer of an upload: `{ file }` as multipart/form-data (the part's Content-Type is
 * the Blob's type, its file name the File's name). Pass it as `bodySerializer` of the upload call:
 *
 *   await api.POST('/v1/tickets/{ticket_id}/attachments', {
 *     params: { path: { ticket_id } },
 *     body: { file: new File([bytes], 'report.pdf', { type: 'application/pdf' }) },
 *     bodySerializer: multipart,
 *   });
 */
export function multipart(body: { file: Blob }): FormData {
  const form = new FormData();
  const name = body.file instanceof File ? body.file.name : 'file';
  form.append('file', body.file, name);
  return form;
}
