import { createHash } from 'node:crypto';
import type { PortalAttachment, PortalComment, PortalTicket } from './portal.schemas.js';
import { REPLY_MAX_CHARS } from './portal.schemas.js';
import { MAX_REPLY_FILES } from './portal.uploads.js';

/**
 * The customer portal's HTML. Every value interpolated into a template goes through `escapeHtml`
 * unless it is already `SafeHtml` made by the `html` tag itself, so no customer-supplied string
 * (subject, description, comment bodies, attachment names, names) can ever become markup.
 */

/** Markup that was built by `html` (and so escaped); the only thing inserted unescaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML text node or a double- or single-quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Interpolated = SafeHtml | string | number | boolean | null | undefined | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((v: Interpolated) => render(v)).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** A template tag: literal parts are markup, every interpolated value is escaped (or nested `html`). */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

const CSS = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b57d0; --bad: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #f6f8fa; }
.site { background: #fff; border-bottom: 1px solid var(--line); padding: .75rem 1rem; }
.site p { margin: 0 auto; max-width: 46rem; font-weight: 600; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; line-height: 1.3; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; }
.ticket-id { display: block; font-size: .95rem; color: var(--muted); font-weight: 500; }
dl.facts { display: flex; flex-wrap: wrap; gap: .5rem 2rem; margin: 0; }
dl.facts div { min-width: 8rem; }
dt { font-size: .85rem; color: var(--muted); }
dd { margin: 0; font-weight: 600; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 0; }
ol.thread, ul.files { list-style: none; margin: 0; padding: 0; }
ol.thread li { margin: 0 0 1rem; }
article ul.files { margin: .25rem 0 0; }
ol.thread li:target .text { outline: 3px solid var(--accent); }
.by { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0 0 .25rem; font-size: .9rem; color: var(--muted); }
.by strong { color: var(--fg); }
.customer .text { border-left: 4px solid var(--accent); }
ul.files li { margin: .25rem 0; overflow-wrap: anywhere; }
.meta { color: var(--muted); font-size: .9rem; }
a { color: var(--accent); }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
.hint { margin: 0 0 .5rem; color: var(--muted); font-size: .9rem; }
textarea { display: block; width: 100%; min-height: 9rem; font: inherit; padding: .5rem; border: 1px solid #8c959f; border-radius: 6px; }
textarea[aria-invalid="true"] { border-color: var(--bad); }
input[type="file"] { display: block; font: inherit; }
textarea:focus, button:focus, a:focus, input:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
.error { color: var(--bad); font-weight: 600; margin: 0 0 .5rem; }
button { margin-top: .75rem; font: inherit; font-weight: 600; color: #fff; background: var(--accent); border: 0; border-radius: 6px; padding: .5rem 1.25rem; cursor: pointer; }
.notice { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; }
`;

/** The one inline style sheet is allowed by its hash; nothing else may load or run. */
const CSS_HASH = createHash('sha256').update(CSS, 'utf8').digest('base64');

export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${CSS_HASH}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Headers of every portal page. The token is in the address, so it must never leak by Referer or cache. */
export const PAGE_HEADERS: Record<string, string> = {
  'content-security-policy': PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
  'x-robots-tag': 'noindex, nofollow',
};

function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>${new SafeHtml(CSS)}</style>
</head>
<body>
<header class="site"><p>Customer support</p></header>
<main>
${body}
</main>
</body>
</html>
`.value;
}

const STATUS_LABELS: Record<PortalTicket['status'], string> = {
  new: 'New',
  open: 'Open',
  pending: 'Waiting for your reply',
  resolved: 'Resolved',
  closed: 'Closed',
};

const PRIORITY_LABELS: Record<PortalTicket['priority'], string> = { low: 'Low', medium: 'Medium', high: 'High', urgent: 'Urgent' };

/** `2026-01-31 09:15 UTC` inside a machine-readable <time>. */
function time(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function comment(c: PortalComment, files: ReadonlyMap<string, PortalAttachment>, pagePath: string): SafeHtml {
  const carried = c.attachment_ids.map((id) => files.get(id)).filter((a) => a !== undefined);
  const who = c.author_type === 'customer' ? 'You' : (c.author_name ?? 'Support team');
  const role = c.author_type === 'customer' ? '' : ' (support)';
  return html`<li id="comment-${c.id}" class="${c.author_type}">
<article aria-labelledby="comment-${c.id}-by">
<p class="by" id="comment-${c.id}-by"><strong>${who}</strong>${role}<span>${time(c.created_at)}</span></p>
<div class="text">${c.body}</div>
${carried.length > 0 ? html`<ul class="files" aria-label="Files of this message">
${carried.map((a) => attachment(a, `${pagePath}/attachments/${a.id}`))}
</ul>` : ''}
</article>
</li>`;
}

function attachment(a: PortalAttachment, href: string): SafeHtml {
  return html`<li><a href="${href}">${a.filename}</a> <span class="meta">(${a.content_type}, ${formatBytes(a.size_bytes)})</span></li>`;
}

export interface TicketPageOptions {
  /** Root-relative address of this page, e.g. `/portal/<token>` (PUBLIC_URL's path prefix included). */
  pagePath: string;
  /** A reply that could not be taken, with the reason shown next to the form. */
  error?: { message: string; draft: string };
  /** The customer's reply was just taken: a confirmation is shown under the conversation. */
  sent?: boolean;
}

/** The ticket page: facts, the request, attachments, the public thread and the reply form. */
export function renderTicketPage(ticket: PortalTicket, options: TicketPageOptions): string {
  const { pagePath, error, sent } = options;
  const byId = new Map(ticket.attachments.map((a) => [a.id, a]));
  const shown = ticket.comments.length;
  const older = ticket.comment_count - shown;
  const thread =
    shown === 0
      ? html`<p>No replies yet. We will answer here; you can add details below at any time.</p>`
      : html`${older > 0 ? html`<p class="meta">The ${older} earliest messages are not shown.</p>` : ''}
<ol class="thread">
${ticket.comments.map((c) => comment(c, byId, pagePath))}
</ol>
${sent && !error ? html`<p class="notice" id="reply-sent" role="status">Your reply was sent. Our support team will answer here, and you can add more below.</p>` : ''}`;
  const files =
    ticket.attachments.length === 0
      ? html`<p>No files.</p>`
      : html`<ul class="files">
${ticket.attachments.map((a) => attachment(a, `${pagePath}/attachments/${a.id}`))}
</ul>`;
  const describedBy = error ? 'reply-hint reply-error' : 'reply-hint';
  const reply = ticket.accepts_replies
    ? html`<form method="post" action="${pagePath}/reply" enctype="multipart/form-data">
<label for="reply-body">Your message</label>
<p class="hint" id="reply-hint">Plain text, up to ${REPLY_MAX_CHARS.toLocaleString('en-US')} characters. Our support team will see it on your ticket.</p>
${error ? html`<p class="error" id="reply-error" role="alert">${error.message}</p>` : ''}
<textarea id="reply-body" name="body" rows="8" maxlength="${REPLY_MAX_CHARS}" required aria-describedby="${describedBy}"${error ? html` aria-invalid="true"` : ''}>${error?.draft ?? ''}</textarea>
<label for="reply-files">Files (optional)</label>
<p class="hint" id="files-hint">Up to ${MAX_REPLY_FILES} files, 30 MB each: images, videos, PDF, plain text, ZIP, 7z or gzip archives.</p>
<input type="file" id="reply-files" name="files" multiple aria-describedby="files-hint">
<button type="submit">Send reply</button>
</form>`
    : html`${error ? html`<p class="error" role="alert">${error.message}</p>` : ''}
<p class="notice">This ticket is closed and no longer takes replies. If you still need help, please open a new ticket.</p>`;

  return page(
    `${ticket.ticket_display_id}: ${ticket.subject} – Support ticket`,
    html`<h1><span class="ticket-id">Ticket ${ticket.ticket_display_id}</span> ${ticket.subject}</h1>
<dl class="facts">
<div><dt>Status</dt><dd>${STATUS_LABELS[ticket.status]}</dd></div>
<div><dt>Priority</dt><dd>${PRIORITY_LABELS[ticket.priority]}</dd></div>
<div><dt>Opened</dt><dd>${time(ticket.created_at)}</dd></div>
<div><dt>Last updated</dt><dd>${time(ticket.updated_at)}</dd></div>
</dl>
<section aria-labelledby="request-heading">
<h2 id="request-heading">Your request</h2>
<div class="text">${ticket.description}</div>
</section>
<section aria-labelledby="files-heading">
<h2 id="files-heading">Files</h2>
${files}
</section>
<section aria-labelledby="thread-heading">
<h2 id="thread-heading">Conversation</h2>
${thread}
</section>
<section aria-labelledby="reply-heading">
<h2 id="reply-heading">Reply</h2>
${reply}
</section>`,
  );
}

/** Unknown and malformed tokens alike: nothing about what exists is revealed. */
export function renderNotFoundPage(): string {
  return renderMessagePage(
    'Ticket not found',
    'This link does not open a ticket. Check that it was copied completely, or use the most recent link we sent you.',
  );
}

/** A page with only a heading and one sentence: errors other than a refused reply. */
export function renderMessagePage(title: string, message: string): string {
  return page(title, html`<h1>${title}</h1>
<p>${message}</p>`);
}
