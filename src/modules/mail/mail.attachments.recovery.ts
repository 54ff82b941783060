import type { FastifyBaseLogger } from 'fastify';
import { logFailure } from '../../http/error-handler.js';
import { startPeriodicJob, type PeriodicJob } from '../../shared/periodic-job.js';
import { keepAttachments, PartBusy, type MailAttachmentDeps } from './mail.attachments.js';
import { parseMail } from './mail.parse.js';
import { messagesWithPendingAttachments } from './mail.repository.js';

/**
 * Keeps the attachments of messages whose intake died between committing the ticket (or comment)
 * and keeping its files: their rows still carry `attachments_pending`. Run shortly after start and
 * every minute, in every process; a message is taken up only once it is older than
 * RECOVER_AFTER_MS, so an intake still under way in some process is left to finish. Parts already
 * kept are skipped (their ids derive from the message), so nothing is kept twice, even by two
 * processes at once.
 */
export const RECOVER_AFTER_MS = 2 * 60_000;
const EVERY_MS = 60_000;
const BATCH = 20;

/** One pass: resolves to how many messages it finished. */
export async function recoverPendingAttachments(deps: MailAttachmentDeps, olderThanMs = RECOVER_AFTER_MS): Promise<number> {
  const before = new Date(Date.now() - olderThanMs).toISOString();
  const rows = await messagesWithPendingAttachments(deps.store.db, before, BATCH);
  let finished = 0;
  for (const row of rows) {
    const mail = await parseMail(Buffer.from(row.raw));
    try {
      await keepAttachments(deps, { organizationId: row.organization_id, ticketId: row.ticket_id!, messageKey: row.message_key }, mail.attachments);
      finished++;
    } catch (error) {
      // Another process is at this message now; if it dies too, a later pass finishes it.
      if (!(error instanceof PartBusy)) throw error;
    }
  }
  return finished;
}

export function startAttachmentRecovery(deps: MailAttachmentDeps & { log: Pick<FastifyBaseLogger, 'info' | 'error' | 'warn' | 'level'> }): PeriodicJob {
  const run = () =>
    recoverPendingAttachments(deps).then(
      (finished) => {
        if (finished > 0) deps.log.info({ messages: finished }, 'kept the attachments of mail an earlier crash left');
      },
      (error: unknown) => logFailure(deps.log, error, 'keeping left-over mail attachments failed'),
    );
  return startPeriodicJob(run, { firstMs: 1_000, everyMs: EVERY_MS });
}
