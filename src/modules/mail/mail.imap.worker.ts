import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { ImapFlow } from 'imapflow';
import type { MailConfig } from '../../config.js';
import type { MailboxRow } from '../../db/types.js';
import { logFailure } from '../../http/error-handler.js';
import { nowIso } from '../../shared/time.js';
import { takeIn, type IntakeDeps } from './mail.intake.js';
import { claimImapMailbox, dueImapMailboxes, finishImapCheck, holdImapMailbox, recordImapProgress } from './mail.imap.repository.js';
import { parseInbound, type InboundSettings } from './mailboxes.settings.js';

/**
 * The IMAP job: reads the mailboxes of inbound type imap every MAIL_POLL_INTERVAL_MS and takes
 * their new messages in through the intake. Per mailbox the folder's UIDVALIDITY and the last UID
 * taken are kept, and moved on after each message, so across restarts nothing is lost or taken
 * twice (and the intake's duplicate check catches a message taken just before a crash). Taken mail
 * is flagged \Seen, never deleted. A mailbox is leased to one process of a fleet while it is read.
 * A failing mailbox shows `state: failing` with the server's words and is retried with backoff
 * (the interval doubled per failure in a row, at most an hour). Where the server offers IDLE the
 * process keeps the connection while it holds the lease and takes mail as it arrives (looking
 * again at least every 30 s); when the connection drops the mailbox is read again at once, by
 * polling, which also serves servers without IDLE.
 */
export interface ImapWorkerDeps extends IntakeDeps {
  config: IntakeDeps['config'] & { mail: Pick<MailConfig, 'pollIntervalMs'> };
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'>;
}

export interface ImapWorker {
  /** Reads every mailbox that is due now; resolves to how many it read. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

const LEASE_MS = 5 * 60_000;
/** A watched mailbox's lease, renewed every tick: a process that dies leaves it for this long at most. */
const WATCH_LEASE_MS = 90_000;
const WATCH_TICK_MS = 30_000;
const MAX_BACKOFF_MS = 60 * 60_000;

export function startImapWorker(deps: ImapWorkerDeps): ImapWorker {
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let stopped = false;
  let running: Promise<number> | null = null;
  let wake: (() => void) | null = null;
  const watchers = new Map<string, { kick: () => void; done: Promise<void> }>();

  /** Takes in, in UID order, what the folder holds after `last` (the mailbox open); the new last UID. */
  const takeNew = async (client: ImapFlow, mailbox: MailboxRow, folder: string, validity: string, last: number): Promise<number> => {
    const lock = await client.getMailboxLock(folder);
    try {
      const uids = ((await client.search({ uid: `${last + 1}:*` }, { uid: true })) || []).filter((uid) => uid > last).sort((a, b) => a - b);
      for (const uid of uids) {
        if (stopped) break;
        const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
        if (message && message.source) await takeIn(deps, mailbox, message.source);
        await client.messageFlagsAdd(String(uid), ['\\Seen'], { uid: true });
        last = uid;
        await recordImapProgress(deps.store.db, mailbox.id, owner, validity, last);
      }
      return last;
    } finally {
      lock.release();
    }
  };

  /** Keeps the connection (the server IDLEs on it) and takes mail as it arrives, while the lease holds. */
  const watch = (client: ImapFlow, mailbox: MailboxRow, folder: string, validity: string, last: number): void => {
    let pending = false;
    let kick = (): void => undefined;
    client.on('exists', () => {
      pending = true;
      kick();
    });
    const closed = new Promise<void>((resolve) => client.on('close', () => resolve()));
    const tick = Math.min(deps.config.mail.pollIntervalMs, WATCH_TICK_MS);
    const done = (async () => {
      try {
        while (!stopped && client.usable) {
          const inbound = await holdImapMailbox(deps.store.db, mailbox.id, owner, nowIso(), new Date(Date.now() + WATCH_LEASE_MS).toISOString());
          // Paused, deleted or given other settings: let go, and the poll takes it from there.
          if (inbound === undefined || inbound !== mailbox.inbound) break;
          pending = false;
          last = await takeNew(client, mailbox, folder, validity, last);
          if (pending || stopped) continue;
          await Promise.race([closed, new Promise<void>((resolve) => ((kick = resolve), setTimeout(resolve, tick).unref()))]);
        }
        if (!client.usable && !stopped) deps.log.warn({ mailboxId: mailbox.id, organizationId: mailbox.organization_id }, 'mailbox connection lost; polling it');
        await client.logout().catch(() => undefined);
      } catch (error) {
        client.close();
        deps.log.warn({ mailboxId: mailbox.id, organizationId: mailbox.organization_id, error: error instanceof Error ? error.message : String(error) }, 'mailbox connection lost; polling it');
      } finally {
        watchers.delete(mailbox.id);
        // Due now: the next run reads it again (and reconnects, or records why it cannot).
        await finishImapCheck(deps.store.db, mailbox.id, owner, { ok: true, now: nowIso(), next: nowIso() }).catch((error: unknown) => logFailure(deps.log, error, 'IMAP watch release failed'));
      }
    })();
    watchers.set(mailbox.id, { kick: () => kick(), done });
  };

  const read = async (mailbox: MailboxRow): Promise<void> => {
    const settings = parseInbound(mailbox.inbound);
    if (settings.type !== 'imap') return;
    const interval = deps.config.mail.pollIntervalMs;
    const client = imapClient(settings);
    try {
      await client.connect();
      // Opening the folder tells its UIDVALIDITY; takeNew locks it again for each pass.
      const lock = await client.getMailboxLock(settings.folder);
      const validity = client.mailbox ? String(client.mailbox.uidValidity) : '';
      lock.release();
      // Another UIDVALIDITY: the UIDs tracked mean nothing any more; read the folder again (duplicates are caught).
      const from = validity === mailbox.imap_uid_validity ? Number(mailbox.imap_last_uid) : 0;
      const last = await takeNew(client, mailbox, settings.folder, validity, from);
      if (last === from && validity !== mailbox.imap_uid_validity) await recordImapProgress(deps.store.db, mailbox.id, owner, validity, last);
      if (client.capabilities.has('IDLE') && !stopped) {
        watch(client, mailbox, settings.folder, validity, last);
        return;
      }
      await client.logout().catch(() => undefined);
      await finishImapCheck(deps.store.db, mailbox.id, owner, { ok: true, now: nowIso(), next: new Date(Date.now() + interval).toISOString() });
    } catch (error) {
      client.close();
      const failures = Number(mailbox.failures) + 1;
      const words = (error as { responseText?: string }).responseText ?? (error instanceof Error ? error.message : String(error));
      const backoff = Math.min(interval * 2 ** Math.min(failures - 1, 20), MAX_BACKOFF_MS);
      await finishImapCheck(deps.store.db, mailbox.id, owner, { ok: false, now: nowIso(), next: new Date(Date.now() + backoff).toISOString(), error: words, failures });
      deps.log.warn({ mailboxId: mailbox.id, organizationId: mailbox.organization_id, error: words }, 'mailbox could not be read');
    }
  };

  const runOnce = async (): Promise<number> => {
    const now = nowIso();
    let count = 0;
    for (const candidate of await dueImapMailboxes(deps.store.db, now)) {
      if (stopped) break;
      const mailbox = await claimImapMailbox(deps.store.db, candidate, owner, now, new Date(Date.now() + LEASE_MS).toISOString());
      if (!mailbox) continue;
      await read(mailbox);
      count++;
    }
    return count;
  };

  const loop = async (): Promise<void> => {
    while (!stopped) {
      try {
        running = runOnce();
        await running;
      } catch (error) {
        logFailure(deps.log, error, 'IMAP intake run failed');
      } finally {
        running = null;
      }
      if (stopped) break;
      // Mailboxes come due at their own times: look again at the poll interval, at most a second later.
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.min(deps.config.mail.pollIntervalMs, 1_000)).unref();
      });
      wake = null;
    }
  };
  const looping = loop();

  return {
    runOnce,
    async stop() {
      stopped = true;
      wake?.();
      for (const watcher of watchers.values()) watcher.kick();
      await running?.catch(() => undefined);
      await looping;
      await Promise.all([...watchers.values()].map((w) => w.done));
    },
  };
}

/** An IMAP client for a mailbox's settings (not yet connected); the worker's and `ticketing mailboxes test`'s. */
export function imapClient(settings: Extract<InboundSettings, { type: 'imap' }>): ImapFlow {
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    ...(settings.security === 'starttls' ? { doSTARTTLS: true } : settings.security === 'none' ? { doSTARTTLS: false } : {}),
    auth: { user: settings.username, pass: settings.password },
    logger: false,
    connectionTimeout: 30_000,
    greetingTimeout: 15_000,
    socketTimeout: 120_000,
    // IDLE as soon as the connection is free (the default waits 15 s), so new mail is heard of at once.
    autoIdleDelay: 100,
  });
  // Errors after a failed command also arrive as events; the command's rejection is what counts.
  client.on('error', () => undefined);
  return client;
}
