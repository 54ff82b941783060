import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { Updateable } from 'kysely';
import type { MailOutboxRow, MailOutboxTable } from '../../db/types.js';
import { logFailure } from '../../http/error-handler.js';
import { nowIso } from '../../shared/time.js';
import { claimDue, commentAttachments, finishAttempt, setCommentDelivery } from './mail.outbox.repository.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Readable } from 'node:stream';
import type { DeliveryBlock } from './mail.schemas.js';
import { findMailbox } from './mailboxes.repository.js';
import { parseOutbound, type OutboundSettings } from './mailboxes.settings.js';

/**
 * The outbox job: sends queued mail (mail.outbox.ts queues it), retrying with backoff
 * (MAIL_RETRY_SCHEDULE). Any process sends: each claims due rows with a lease (PostgreSQL
 * `for update skip locked`), counting the attempt as it claims, so one process of a fleet sends
 * each message; a process that dies mid-send leaves its lease to run out (MAIL_SEND_TIMEOUT_MS +
 * 5 s), and the message is sent again, once, by any process, with the same Message-ID — a crash
 * may send a message twice (its `attempts` says so), never lose it. A comment's `delivery` follows
 * its row.
 */
export interface MailOutboxDeps {
  store: Store;
  /** Where a comment's attachments are read from as they are sent. */
  blobs: BlobStore;
  config: { mail: Pick<MailConfig, 'smtpUrl' | 'outboxPollIntervalMs' | 'retryDelaysMs' | 'sendTimeoutMs'> };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

export interface MailOutboxWorker {
  /** Sends what is due now; resolves to how many it attempted (for tests and the bench). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

const BATCH = 8;

export function startMailOutbox(deps: MailOutboxDeps): MailOutboxWorker {
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const transports = new Map<string, Transporter>();
  let stopped = false;
  let running: Promise<number> | null = null;

  const transportFor = async (row: MailOutboxRow): Promise<Transporter> => {
    const mailbox = row.mailbox_id === null ? undefined : await findMailbox(deps.store.db, row.organization_id, row.mailbox_id);
    const own = mailbox ? parseOutbound(mailbox.outbound) : null;
    const key = own ? JSON.stringify(own) : (deps.config.mail.smtpUrl ?? '');
    if (key === '') throw new Error('no outbound mail server: set SMTP_URL, or the mailbox\'s outbound settings');
    let transport = transports.get(key);
    if (!transport) {
      transport = own ? nodemailer.createTransport(smtpOptions(own, deps.config.mail.sendTimeoutMs))
        : nodemailer.createTransport({ url: deps.config.mail.smtpUrl, ...timeouts(deps.config.mail.sendTimeoutMs) });
      transports.set(key, transport);
    }
    return transport;
  };

  const send = async (row: MailOutboxRow): Promise<void> => {
    const automated = row.kind !== 'reply';
    const references = row.references === '' ? [] : row.references.split(' ');
    let changes: Updateable<MailOutboxTable> & Pick<MailOutboxRow, 'status' | 'attempts'>;
    try {
      const transport = await transportFor(row);
      const files = row.comment_id === null ? { attachments: [], left: [] } : await mailedAttachments(deps, row.organization_id, row.comment_id);
      await transport.sendMail({
        from: { name: row.from_name, address: row.from_address },
        to: row.to_address,
        subject: row.subject,
        text: files.left.length === 0 ? row.body : `${row.body}\n\n${leftOutNote(files.left)}`,
        attachments: files.attachments,
        messageId: `<${row.message_id}>`,
        ...(row.in_reply_to ? { inReplyTo: `<${row.in_reply_to}>` } : {}),
        ...(references.length > 0 ? { references: references.map((r) => `<${r}>`) } : {}),
        headers: automated
          ? { 'Auto-Submitted': row.kind === 'acknowledgement' ? 'auto-replied' : 'auto-generated', 'X-Auto-Response-Suppress': 'All', Precedence: 'bulk' }
          : {},
      });
      // The attempt was counted when the row was claimed (claimDue).
      changes = { status: 'sent', attempts: row.attempts, sent_at: nowIso(), next_attempt_at: null, last_error: null };
    } catch (error) {
      const attempts = row.attempts;
      const delay = deps.config.mail.retryDelaysMs[attempts - 1];
      const message = error instanceof Error ? error.message : String(error);
      changes =
        delay === undefined
          ? { status: 'failed', attempts, next_attempt_at: null, last_error: message }
          : { status: 'queued', attempts, next_attempt_at: new Date(Date.now() + delay).toISOString(), last_error: message };
      if (delay === undefined) deps.log.warn({ messageId: row.message_id, organizationId: row.organization_id }, 'mail failed after every retry');
    }
    await deps.store.db.transaction().execute(async (trx) => {
      if (!(await finishAttempt(trx, row.id, owner, changes))) return;
      if (row.comment_id === null) return;
      const delivery: DeliveryBlock = {
        status: changes.status,
        to: row.to_address,
        message_id: row.message_id,
        attempts: changes.attempts,
        last_error: changes.last_error ?? null,
      };
      await setCommentDelivery(trx, row.organization_id, row.comment_id, JSON.stringify(delivery));
    });
  };

  const runOnce = async (): Promise<number> => {
    const now = nowIso();
    const rows = await claimDue(deps.store.db, { owner, now, until: new Date(Date.now() + deps.config.mail.sendTimeoutMs + 5_000).toISOString(), limit: BATCH });
    await Promise.all(rows.map((row) => send(row)));
    return rows.length;
  };

  const loop = async (): Promise<void> => {
    while (!stopped) {
      let sent = 0;
      try {
        running = runOnce();
        sent = await running;
      } catch (error) {
        logFailure(deps.log, error, 'mail outbox run failed');
      } finally {
        running = null;
      }
      if (sent === 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, deps.config.mail.outboxPollIntervalMs).unref());
    }
  };
  const looping = loop();

  return {
    runOnce,
    async stop() {
      stopped = true;
      await running?.catch(() => undefined);
      await looping;
      for (const transport of transports.values()) transport.close();
    },
  };
}

/** The most bytes of attachments one mail carries; files past it are named in the mail instead. */
export const MAX_MAILED_ATTACHMENT_BYTES = 20 * 1024 * 1024;

/**
 * A comment's attachments as nodemailer parts, each streamed from the blob store as the message
 * is written (never buffered whole), in the comment's order, while they fit in
 * MAX_MAILED_ATTACHMENT_BYTES; those that do not are returned in `left`.
 */
async function mailedAttachments(deps: Pick<MailOutboxDeps, 'store' | 'blobs'>, organizationId: string, commentId: string) {
  const rows = await commentAttachments(deps.store.db, organizationId, commentId);
  const attachments: Array<{ filename: string; contentType: string; content: Readable }> = [];
  const left: Array<{ filename: string; size_bytes: number }> = [];
  let total = 0;
  for (const row of rows) {
    if (total + Number(row.size_bytes) > MAX_MAILED_ATTACHMENT_BYTES) {
      left.push({ filename: row.filename, size_bytes: Number(row.size_bytes) });
      continue;
    }
    total += Number(row.size_bytes);
    attachments.push({ filename: row.filename, contentType: row.content_type, content: deps.blobs.open(row.id) });
  }
  return { attachments, left };
}

const leftOutNote = (left: Array<{ filename: string; size_bytes: number }>): string =>
  [
    'These files were too large to send by mail; ask us for them or see them on the ticket:',
    ...left.map((f) => `- ${f.filename} (${(f.size_bytes / 1024 / 1024).toFixed(1)} MB)`),
  ].join('\n');

const timeouts = (ms: number) => ({ connectionTimeout: ms, greetingTimeout: ms, socketTimeout: ms });

function smtpOptions(settings: NonNullable<OutboundSettings>, timeoutMs: number) {
  return {
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    ...timeouts(timeoutMs),
    ...(settings.username !== null ? { auth: { user: settings.username, pass: settings.password ?? '' } } : {}),
  };
}
