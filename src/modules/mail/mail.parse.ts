import { createHash } from 'node:crypto';
import { convert as htmlToText } from 'html-to-text';
import PostalMime from 'postal-mime';
import sanitizeHtml from 'sanitize-html';

/**
 * A raw message as intake needs it: every header and body decoded to UTF-8 (postal-mime decodes
 * charsets, quoted-printable, base64 and encoded words), HTML-only mail turned into text, any HTML
 * kept sanitized, addresses lower-cased. Bounded: a header section past MAX_HEADER_BYTES or
 * nesting past MAX_NESTING is refused (a header or MIME bomb) rather than parsed.
 */
export interface ParsedMail {
  /** Lower-cased, without angle brackets; null when the message has none. */
  messageId: string | null;
  /** In-Reply-To, then References newest first: the Message-IDs a reply names, as written. */
  replyTo: string[];
  from: { address: string; name: string } | null;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  /** The HTML body, sanitized; null for plain-text mail. */
  html: string | null;
  automated: boolean;
  /** A delivery-status report (a bounce). */
  report: { hard: boolean } | null;
  attachments: Array<{ filename: string; mimeType: string; content: Uint8Array }>;
  /** The key a message is taken once by: its Message-ID, or `sha256:` of its bytes. */
  key: string;
}

export const MAX_HEADER_BYTES = 256 * 1024;
export const MAX_NESTING = 32;

/** Why a message cannot be taken in at all (kept raw, outcome `rejected`). */
export class UnusableMailError extends Error {}

// Node's TextDecoder decodes windows-1252 as ISO-8859-1, leaving 0x80-0x9F as C1 controls; mail
// never means those, so they are mapped to the windows-1252 characters they stand for.
const CP1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';
const fixC1 = (text: string): string => text.replace(/[\u0080-\u009F]/g, (c) => CP1252[c.charCodeAt(0) - 0x80]!);

/** The Message-IDs a header names, as written (ours are case-sensitive: they carry a signature). */
const ids = (value: string | undefined): string[] => [...(value ?? '').matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]!).filter((id) => id.length <= 998);

type Address = { address?: string | undefined; name: string; group?: Array<{ address: string; name: string }> | undefined };
const addresses = (list: Address[] | undefined): string[] =>
  (list ?? []).flatMap((a) => (a.group ? a.group.map((m) => m.address) : [a.address ?? ''])).filter((a) => a.includes('@')).map((a) => a.toLowerCase());

const header = (headers: Array<{ key: string; value: string }>, name: string): string | undefined => headers.find((h) => h.key === name)?.value;

/** Auto-replies, lists, bulk mail, bounces: kept, but never answered and never reopening anything. */
function isAutomated(headers: Array<{ key: string; value: string }>, from: string | null): boolean {
  const auto = header(headers, 'auto-submitted');
  if (auto !== undefined && auto.trim().toLowerCase() !== 'no') return true;
  if (header(headers, 'x-autoreply') !== undefined || header(headers, 'x-autorespond') !== undefined) return true;
  if (/^\s*(bulk|list|junk|auto_reply)\s*$/i.test(header(headers, 'precedence') ?? '')) return true;
  if (header(headers, 'list-unsubscribe') !== undefined) return true;
  if (/^\s*<\s*>\s*$/.test(header(headers, 'return-path') ?? 'x')) return true;
  return from !== null && /^(mailer-daemon|postmaster)@/i.test(from);
}

function deliveryReport(raw: string, headers: Array<{ key: string; value: string }>): { hard: boolean } | null {
  const type = header(headers, 'content-type') ?? '';
  if (!/multipart\/report/i.test(type) || !/report-type\s*=\s*"?delivery-status/i.test(type)) return null;
  // Status: 5.x.x is a permanent failure (RFC 3463); 4.x.x is transient.
  return { hard: /^Status:\s*5\.\d{1,3}\.\d{1,3}/im.test(raw) };
}

export function textOfHtml(html: string): string {
  return htmlToText(html, { wordwrap: false, selectors: [{ selector: 'img', format: 'skip' }, { selector: 'a', options: { hideLinkHrefIfSameAsText: true } }] });
}

export async function parseMail(raw: Buffer): Promise<ParsedMail> {
  let email: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    email = await PostalMime.parse(raw, { maxHeadersSize: MAX_HEADER_BYTES, maxNestingDepth: MAX_NESTING, attachmentEncoding: 'arraybuffer' });
  } catch (error) {
    throw new UnusableMailError(`the message cannot be parsed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const headers = email.headers;
  const fromEntry = email.from && !email.from.group && email.from.address?.includes('@') ? email.from : null;
  const from = fromEntry?.address ? { address: fromEntry.address.toLowerCase(), name: fixC1(fromEntry.name ?? '').trim() } : null;
  const html = email.html ? sanitizeHtml(email.html) : null;
  const text = fixC1(email.text?.trim() ? email.text : html ? textOfHtml(html) : '');
  const messageId = ids(email.messageId)[0]?.toLowerCase() ?? null;
  return {
    messageId,
    replyTo: [...ids(email.inReplyTo), ...ids(email.references).reverse()],
    from,
    to: addresses(email.to),
    cc: addresses(email.cc),
    subject: fixC1(email.subject ?? '').replace(/\s+/g, ' ').trim(),
    text,
    html,
    automated: isAutomated(headers, from?.address ?? null),
    report: deliveryReport(raw.toString('latin1'), headers),
    attachments: email.attachments.map((a) => ({
      filename: fixC1(a.filename ?? 'attachment'),
      mimeType: a.mimeType.toLowerCase(),
      content: a.content instanceof ArrayBuffer ? new Uint8Array(a.content) : typeof a.content === 'string' ? Buffer.from(a.content) : a.content,
    })),
    key: messageId ?? `sha256:${createHash('sha256').update(raw).digest('hex')}`,
  };
}
