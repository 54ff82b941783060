import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../auth/auth-context.js';
import { visibleResourceTypes } from '../events/events.visibility.js';
import type { Event } from '../events/events.schemas.js';
import type { LiveDeps } from './live.service.js';
import type { PresenceUpdate } from './live.presence.js';

/**
 * One Server-Sent Events response (docs/api-behaviour.md#live-stream-and-presence). The reply is
 * hijacked and written directly: `change` messages from the hub, `presence` messages (to callers
 * that may read tickets), a comment line as heartbeat. It answers `Connection: close`, so ending
 * it (client gone, shutdown, or a client too slow to read) also closes its connection.
 */

/** A stream whose client does not read is ended once this much waits unsent; it resumes by Last-Event-ID. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface StreamOptions {
  start: { position: number; resync: boolean };
  /** Counts the stream off (StreamCounts). */
  release: () => void;
  /** The ends of every open stream of the app, for shutdown. */
  open: Set<() => void>;
}

export function presenceData(update: PresenceUpdate): string {
  return JSON.stringify({ ticket_id: update.ticketId, users: update.users });
}

export function openEventStream(deps: LiveDeps, auth: AuthContext, request: FastifyRequest, reply: FastifyReply, options: StreamOptions): void {
  const { start, release, open } = options;
  reply.hijack();
  const res = reply.raw;
  // The heartbeat keeps bytes moving; an idle-connection timeout shorter than it must not cut the stream.
  request.raw.socket.setTimeout(0);
  request.raw.socket.setNoDelay(true);
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
    connection: 'close',
  });

  let ended = false;
  const write = (text: string): void => {
    if (ended) return;
    if (res.writableLength > MAX_BUFFERED_BYTES) return end();
    res.write(text);
  };
  const mayReadTickets = auth.scopes.has('tickets:read');
  const subscriber = {
    auth,
    position: start.position,
    resourceTypes: new Set<string>(visibleResourceTypes(auth)),
    send: (event: Event) => write(`event: change\nid: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`),
    presence: mayReadTickets ? (update: PresenceUpdate) => write(`event: presence\ndata: ${presenceData(update)}\n\n`) : undefined,
  };

  // Reconnect after a second when the stream breaks (EventSource's `retry`).
  write(': connected\nretry: 1000\n\n');
  if (start.resync) write('event: resync\ndata: {}\n\n');
  if (subscriber.presence) for (const update of deps.presence.snapshot(auth.organizationId)) subscriber.presence(update);
  const unsubscribe = deps.hub.subscribe(subscriber);
  const heartbeat = setInterval(() => write(': heartbeat\n\n'), deps.config.live.heartbeatMs).unref();

  function end(): void {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    release();
    open.delete(end);
    res.end();
  }
  open.add(end);
  res.on('close', end);
  res.on('error', end);
}
