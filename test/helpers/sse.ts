import { request, type IncomingMessage } from 'node:http';

/** One message of a Server-Sent Events stream (comments are counted apart). */
export interface SseMessage {
  event: string;
  id: string | undefined;
  data: string;
}

export interface SseStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** Every message so far, in order. */
  messages: SseMessage[];
  /** Comment lines so far (heartbeats). */
  comments: string[];
  /** The body, when the answer is not a stream (an error). */
  body(): Promise<string>;
  /** Resolves to the first message (already received or to come) that matches, or rejects after `timeoutMs`. */
  next(match: (m: SseMessage) => boolean, timeoutMs?: number): Promise<SseMessage>;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `GET {base}/v1/stream` with a raw HTTP request and parses what arrives. */
export function openStream(base: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v1/stream`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8');
      const messages: SseMessage[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let raw = '';
      let endResolve: () => void = () => undefined;
      const ended = new Promise<void>((r) => (endResolve = r));
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const message: SseMessage = { event: 'message', id: undefined, data: '' };
          let hasField = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) {
              message.event = line.slice(7);
              hasField = true;
            } else if (line.startsWith('id: ')) message.id = line.slice(4);
            else if (line.startsWith('data: ')) {
              message.data += line.slice(6);
              hasField = true;
            }
          }
          if (hasField) messages.push(message);
        }
        for (const wake of [...waiters]) wake();
      });
      res.on('end', () => endResolve());
      res.on('close', () => endResolve());
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        comments,
        body: () => ended.then(() => raw),
        ended,
        next(match, timeoutMs = 5_000) {
          return new Promise((ok, fail) => {
            const check = (): boolean => {
              const found = messages.find(match);
              if (!found) return false;
              waiters.delete(wake);
              clearTimeout(timer);
              ok(found);
              return true;
            };
            const wake = () => void check();
            const timer = setTimeout(() => {
              waiters.delete(wake);
              fail(new Error(`No matching message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
            }, timeoutMs);
            if (!check()) waiters.add(wake);
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
