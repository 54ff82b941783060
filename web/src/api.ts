import { createClient, multipart, type components } from '../../sdk/index.js';

export type Ticket = components['schemas']['Ticket'];
export type Comment = components['schemas']['Comment'];
export type Customer = components['schemas']['Customer'];
export type User = components['schemas']['User'];
export type Team = components['schemas']['Team'];
export type View = components['schemas']['View'];
export type Attachment = components['schemas']['Attachment'];
export type TicketEvent = components['schemas']['Event'];
export type TicketField = components['schemas']['TicketField'];
export type Dashboard = components['schemas']['Dashboard'];
export type UpdateTicket = components['schemas']['UpdateTicketRequest'];

export const STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;

let csrf: string | null = null;

/** The session's CSRF token, sent as X-CSRF-Token on every change (the SDK's csrfToken option). */
export function setCsrfToken(token: string | null): void {
  csrf = token;
}

export const csrfToken = (): string | null => csrf;

/** The project's SDK over the session cookie. */
export const api = createClient({ baseUrl: window.location.origin, credentials: 'same-origin', csrfToken: () => csrf });
export { multipart };

/** An API error: its status and the service's detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(detail);
  }
}

/** The data of a call, or an ApiError with the service's own words. */
export function must<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    const body = result.error as { detail?: string; title?: string } | undefined;
    throw new ApiError(result.response.status, body?.detail ?? body?.title ?? `The service answered ${result.response.status}`);
  }
  return result.data;
}

// One formatter for every date shown: toLocaleString with options builds a new Intl.DateTimeFormat
// on each call (about a millisecond; a 200-comment conversation and its history made 300 a render).
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const when = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : '—');

export const ago = (iso: string): string => {
  const seconds = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
};
