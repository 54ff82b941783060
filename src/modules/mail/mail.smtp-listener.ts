import type { FastifyBaseLogger } from 'fastify';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { MailboxRow } from '../../db/types.js';
import { logFailure } from '../../http/error-handler.js';
import { takeIn, type IntakeDeps } from './mail.intake.js';
import { MAX_RAW_MESSAGE_BYTES } from './mail.routes.js';
import { smtpMailboxesFor } from './mailboxes.repository.js';

/**
 * The service's own SMTP listener (MAIL_SMTP_PORT, MAIL_SMTP_HOST; off when unset): mail for the
 * address of a mailbox whose inbound type is `smtp` is accepted and goes through the same intake
 * as every other path; any other recipient is refused at RCPT (550), so the listener is no open
 * relay and takes nothing it has no mailbox for. Messages over 40 MiB are refused (552).
 */
export interface SmtpListener {
  port: number;
  stop(): Promise<void>;
}

type Session = SMTPServerSession & { mailboxes?: MailboxRow[] };

export async function startSmtpListener(
  deps: IntakeDeps & { log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'level'> },
  at: { host: string; port: number },
): Promise<SmtpListener> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_RAW_MESSAGE_BYTES,
    logger: false,
    banner: 'ticketing',
    onRcptTo(address, session: Session, callback) {
      smtpMailboxesFor(deps.store.db, address.address).then(
        (found) => {
          if (found.length === 0) return callback(Object.assign(new Error(`5.1.1 <${address.address}>: no such mailbox here`), { responseCode: 550 }));
          session.mailboxes = [...(session.mailboxes ?? []), ...found];
          callback();
        },
        (error: unknown) => {
          logFailure(deps.log, error, 'SMTP listener could not look up a recipient');
          callback(Object.assign(new Error('4.3.0 Temporary failure, try again later'), { responseCode: 451 }));
        },
      );
    },
    onData(stream, session: Session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          return callback(Object.assign(new Error('5.3.4 Message too big'), { responseCode: 552 }));
        }
        const raw = Buffer.concat(chunks);
        // Once per mailbox (each organization takes the message for itself; its own duplicates are its own).
        const mailboxes = [...new Map((session.mailboxes ?? []).map((m) => [m.id, m])).values()];
        Promise.all(mailboxes.map((mailbox) => takeIn(deps, mailbox, raw))).then(
          () => callback(),
          (error: unknown) => {
            logFailure(deps.log, error, 'SMTP listener could not take a message in');
            callback(Object.assign(new Error('4.3.0 Temporary failure, try again later'), { responseCode: 451 }));
          },
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logFailure(deps.log as FastifyBaseLogger, error, 'SMTP listener error'));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
