import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (signatures are over these bytes). */
  body: string;
  /** Date.now() when the body had arrived. */
  at: number;
}

/** What the receiver does with a request: answer with a status (and headers, a body: default `ok`), or never answer ('hang'). */
export type Answer = number | 'hang' | { status: number; headers?: Record<string, string>; body?: string };

/**
 * A webhook receiver on 127.0.0.1, as an integrator would run one: it records every request and
 * answers as `answer` says (by default 200). Only reachable with WEBHOOKS_ALLOW_PRIVATE=true.
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, index: number) => Answer = () => 200;
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<Receiver> {
    const holder: { receiver?: Receiver } = {};
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const request: Received = { path: req.url ?? '/', headers: req.headers, body, at: Date.now() };
        const r = holder.receiver!;
        const index = r.received.push(request) - 1;
        const answer = r.answer(request, index);
        if (answer === 'hang') {
          r.hanging.add(res);
          return;
        }
        const { status, headers = {}, body: text = 'ok' } = typeof answer === 'number' ? { status: answer } : answer;
        res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(text);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.receiver = new Receiver(server, `http://127.0.0.1:${port}`);
    return holder.receiver;
  }

  url(path = '/hook'): string {
    return `${this.origin}${path}`;
  }

  get port(): number {
    return Number(new URL(this.origin).port);
  }

  /** The requests to one path. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

type Falsy = undefined | null | false | '' | 0;

/** Polls `check` until it returns something truthy, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | Falsy> | T | Falsy, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
