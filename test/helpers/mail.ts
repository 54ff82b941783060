import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.js';

export interface MessageOptions {
  from?: string;
  to?: string;
  cc?: string;
  subject?: string;
  /** null: no Message-ID header at all. */
  messageId?: string | null;
  inReplyTo?: string;
  references?: string;
  headers?: Record<string, string>;
  body?: string;
  /** A whole MIME body with its Content-Type, instead of a text/plain `body`. */
  mime?: { contentType: string; body: string; encoding?: string };
}

let counter = 0;

/** A raw RFC 5322 message with CRLF line ends. */
export function message(options: MessageOptions = {}): string {
  counter += 1;
  const lines = [
    `From: ${options.from ?? 'Ada Lovelace <ada@customer.example>'}`,
    `To: ${options.to ?? 'support@acme.example'}`,
    ...(options.cc ? [`Cc: ${options.cc}`] : []),
    `Subject: ${options.subject ?? 'Printer on fire'}`,
    'Date: Fri, 27 Nov 2026 03:00:00 +0000',
    ...(options.messageId === null ? [] : [`Message-ID: <${options.messageId ?? `m${counter}.${Date.now()}.${Math.random().toString(36).slice(2)}@customer.example`}>`]),
    ...(options.inReplyTo ? [`In-Reply-To: ${options.inReplyTo}`] : []),
    ...(options.references ? [`References: ${options.references}`] : []),
    ...Object.entries(options.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    'MIME-Version: 1.0',
    `Content-Type: ${options.mime?.contentType ?? 'text/plain; charset=utf-8'}`,
    ...(options.mime?.encoding ? [`Content-Transfer-Encoding: ${options.mime.encoding}`] : []),
    '',
    options.mime?.body ?? options.body ?? 'It is on fire.\n\nAda',
  ];
  return lines.join('\r\n').replace(/(?<!\r)\n/g, '\r\n');
}

export interface Intake {
  outcome: 'created' | 'appended' | 'duplicate' | 'ignored' | 'rejected';
  ticket_id: string | null;
  comment_id: string | null;
  reason: string | null;
}

/** POST /v1/mailboxes/{id}/messages with the raw message. */
export function postMessage(t: TestApp, mailboxId: string, raw: string | Buffer, key?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/v1/mailboxes/${mailboxId}/messages`,
    headers: { authorization: `Bearer ${key ?? t.org.adminKey}`, 'content-type': 'message/rfc822' },
    payload: raw,
  });
}

/** Takes a message in and expects a 202; its answer. */
export async function takeIn(t: TestApp, mailboxId: string, raw: string | Buffer, key?: string): Promise<Intake> {
  const res = await postMessage(t, mailboxId, raw, key);
  if (res.statusCode !== 202) throw new Error(`intake answered ${res.statusCode}: ${res.body}`);
  return res.json<Intake>();
}
