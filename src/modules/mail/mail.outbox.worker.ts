import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { Updateable } from 'kysely';
import type { MailOutboxRow, MailOutboxTable } from '../../db/types.js';
import { logFailure } from '../../http/error-handler.js';
import { startLeasedWorker } from '../../shared/leased-worker.js';
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

/** Sends in flight at once, per process. */
const IN_FLIGHT = 8;

export function startMailOutbox(deps: MailOutboxDeps): MailOutboxWorker {
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const transports = new Map<string, Transporter>();

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

  // Sends under way: up to IN_FLIGHT at once, each started as soon as a place is free, so a slow
  // mail server holds only its own sends, never a batch of others behind it.
  const sending = new Set<Promise<void>>();
  const start = (row: MailOutboxRow): void => {
    const done: Promise<void> = send(row)
      .catch((error: unknown) => logFailure(deps.log, error, 'mail outbox send failed', { messageId: row.message_id }))
      .finally(() => {
        sending.delete(done);
        // A place is free: the loop looks again at once if mail is waiting for one.
        if (waiting) worker.wake();
      });
    sending.add(done);
  };
  /** Whether the last claim was cut short by the places free: more may be due. */
  let waiting = false;

  /** Claims as many due messages as there are free places and starts sending each; resolves to how many. */
  const batch = async (state: { readonly stopping: boolean }): Promise<number> => {
    // Every place taken: wait for a send to end (each is bounded by MAIL_SEND_TIMEOUT_MS).
    while (sending.size >= IN_FLIGHT && !state.stopping) await Promise.race(sending);
    if (sending.size >= IN_FLIGHT) return 0;
    const free = IN_FLIGHT - sending.size;
    // The lease covers one send from now: a row is claimed only when a place is free to send it.
    const rows = await claimDue(deps.store.db, { owner, now: nowIso(), until: new Date(Date.now() + deps.config.mail.sendTimeoutMs + 5_000).toISOString(), limit: free });
    waiting = rows.length === free;
    for (const row of rows) start(row);
    return rows.length;
  };

  const worker = startLeasedWorker({ name: 'mail outbox', batch, pollIntervalMs: deps.config.mail.outboxPollIntervalMs, log: deps.log });

  return {
    async runOnce() {
      const n = await worker.runOnce();
      await Promise.all(sending);
      return n;
    },
    async stop() {
      await worker.stop();
      await Promise.all(sending);
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
