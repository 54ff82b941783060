import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';

export interface Received {
  raw: string;
  envelopeTo: string[];
  parsed: Awaited<ReturnType<typeof PostalMime.parse>>;
  header(name: string): string | undefined;
}

/**
 * A real SMTP server on a free port that keeps what it receives; `refuse` fails the next n messages
 * with a 451; `hold` keeps the next n messages (they are in `received`) without ever answering
 * them, as a server whose acceptance never reached the sender; `slow` delays its answer to mail for
 * an address by that many milliseconds (a slow server), the message kept as it arrives.
 */
export class SmtpReceiver {
  readonly received: Received[] = [];
  refuse = 0;
  hold = 0;
  readonly slow = new Map<string, number>();
  private server: SMTPServer;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (this.refuse > 0) {
            this.refuse -= 1;
            return callback(Object.assign(new Error('4.3.0 Try again later'), { responseCode: 451 }));
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          const held = this.hold > 0;
          if (held) this.hold -= 1;
          void PostalMime.parse(raw).then((parsed) => {
            this.received.push({
              raw,
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              parsed,
              header: (name) => parsed.headers.find((h) => h.key === name.toLowerCase())?.value,
            });
            const delay = Math.max(0, ...session.envelope.rcptTo.map((r) => this.slow.get(r.address) ?? 0));
            if (held) return;
            if (delay === 0) callback();
            else setTimeout(() => callback(), delay);
          }, callback);
        });
      },
    });
    // A sender killed mid-conversation resets its connection: expected here, never a test failure.
    // Any other server error still is.
    this.server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as { port: number }).port;
    return `smtp://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits until `check` answers something truthy (polling), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
