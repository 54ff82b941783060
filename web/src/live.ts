import { useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { api } from './api.js';
import { ticketChanged, type TicketChange } from './ticket-data.js';

/**
 * Live updates: GET /v1/stream (Server-Sent Events with the session cookie). `change` events carry
 * a change-feed event; the queries they touch are refetched. `presence` events say who is viewing
 * or replying on a ticket.
 */
export interface PresenceUser {
  id: string;
  name: string;
  state: 'viewing' | 'replying';
}

type LiveState = 'connecting' | 'live' | 'off';

let state: LiveState = 'connecting';
const presence = new Map<string, PresenceUser[]>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

const NOBODY: PresenceUser[] = [];
export const useLiveState = (): LiveState => useSyncExternalStore(subscribe, () => state);
export const usePresence = (ticketId: string): PresenceUser[] => useSyncExternalStore(subscribe, () => presence.get(ticketId) ?? NOBODY);

interface ChangeEvent extends TicketChange {
  ticket_id?: string | null;
}

function applyChange(client: QueryClient, change: ChangeEvent): void {
  const ticketId = change.ticket_id ?? (change.resource_type === 'ticket' ? change.resource_id : undefined);
  void client.invalidateQueries({ queryKey: ['queue'] });
  void client.invalidateQueries({ queryKey: ['counts'] });
  void client.invalidateQueries({ queryKey: ['dashboard'] });
  if (ticketId) ticketChanged(client, ticketId, change);
  if (change.resource_type === 'customer') void client.invalidateQueries({ queryKey: ['customers'] });
}

/** Opens the stream; returns the function that closes it. */
export function startLive(client: QueryClient): () => void {
  let source: EventSource | null = null;
  let retry: number | undefined;
  let stopped = false;
  const connect = () => {
    let opened = false;
    source = new EventSource('/v1/stream', { withCredentials: true });
    source.onopen = () => {
      opened = true;
      state = 'live';
      notify();
    };
    source.addEventListener('change', (message: MessageEvent<string>) => {
      try {
        applyChange(client, JSON.parse(message.data) as ChangeEvent);
      } catch {
        // A message this console does not understand changes nothing.
      }
    });
    // The stream lost its place in the change feed: everything shown may be stale.
    source.addEventListener('resync', () => void client.invalidateQueries());
    source.addEventListener('presence', (message: MessageEvent<string>) => {
      try {
        const data = JSON.parse(message.data) as { ticket_id: string; users: PresenceUser[] };
        presence.set(data.ticket_id, data.users);
        notify();
      } catch {
        // Ignored as above.
      }
    });
    source.onerror = () => {
      if (opened && source?.readyState === EventSource.CONNECTING) return; // the browser reconnects by itself
      source?.close();
      state = 'off';
      notify();
      if (!stopped) retry = window.setTimeout(connect, 15_000);
    };
  };
  connect();
  return () => {
    stopped = true;
    window.clearTimeout(retry);
    source?.close();
  };
}

/** How often presence is said again while it holds (the service forgets it after about 45 s). */
export const PRESENCE_REFRESH_MS = 20_000;

/** Tells the others what this agent does on a ticket (PUT /v1/tickets/{id}/presence); failures are silent. */
export function sendPresence(ticketId: string, presenceState: 'viewing' | 'replying' | 'gone'): void {
  // Only where a stream answers: a service without one has no presence either.
  if (state !== 'live') return;
  api
    .PUT('/v1/tickets/{ticket_id}/presence', { params: { path: { ticket_id: ticketId } }, body: { state: presenceState }, keepalive: presenceState === 'gone' })
    .catch(() => undefined);
}
