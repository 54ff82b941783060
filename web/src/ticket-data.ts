import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, api, must, type Comment, type Ticket, type TicketEvent, type UpdateTicket } from './api.js';

export interface Loaded {
  ticket: Ticket;
  /** The ETag of the ticket as loaded: sent back in If-Match. */
  etag: string;
}

/** The ticket and its ETag. Every query of a ticket starts with ['t', id], so one invalidation refreshes them all. */
export function useTicket(id: string) {
  return useQuery({
    queryKey: ['t', id, 'ticket'],
    queryFn: async (): Promise<Loaded> => {
      const result = await api.GET('/v1/tickets/{ticket_id}', { params: { path: { ticket_id: id } } });
      return { ticket: must(result), etag: result.response.headers.get('etag') ?? '' };
    },
  });
}

/** This page's own property changes: the ETag a ticket had before one (with If-Match) and the one after. */
const own = new Map<string, string>();

/**
 * The ETag to send in If-Match for a reply begun at `etag`: moved on past the agent's own property
 * changes made since (each applied with If-Match, so nobody else's change is in between).
 */
export function pastOwnChanges(id: string, etag: string): string {
  let at = etag;
  for (let hops = 0; hops < 100 && own.has(`${id} ${at}`); hops++) at = own.get(`${id} ${at}`)!;
  return at;
}

export const CONFLICT = 'This ticket changed since you opened it';

/** A change of the ticket's properties, sent with If-Match: a stale copy is 412, shown as a conflict. */
export function useUpdateTicket(id: string, onConflict: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (changes: UpdateTicket): Promise<Loaded> => {
      const loaded = client.getQueryData<Loaded>(['t', id, 'ticket']);
      const result = await api.PATCH('/v1/tickets/{ticket_id}', {
        params: { path: { ticket_id: id }, header: loaded?.etag ? { 'if-match': loaded.etag } : {} },
        body: changes,
      });
      if (result.response.status === 412) throw new ApiError(412, CONFLICT);
      const next = { ticket: must(result), etag: result.response.headers.get('etag') ?? '' };
      if (loaded?.etag && next.etag) own.set(`${id} ${loaded.etag}`, next.etag);
      client.setQueryData(['t', id, 'ticket'], next);
      return next;
    },
    onMutate: () => holdLiveChanges(client, id),
    onSettled: (_data, _error, _changes, done) => done?.(),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['t', id, 'events'] });
      void client.invalidateQueries({ queryKey: ['queue'] });
      void client.invalidateQueries({ queryKey: ['counts'] });
      void client.invalidateQueries({ queryKey: ['dashboard'] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 412) {
        onConflict();
        void client.invalidateQueries({ queryKey: ['t', id] });
      }
    },
  });
}

/** Tickets with a change of this page's on its way, and what the live stream said of them meanwhile. */
const inFlight = new Map<string, { count: number; changes: TicketChange[] }>();

/**
 * Holds back the live stream's news of ticket `id` while this page's own change of it is on its way
 * (its echo may come before the answer); the returned function, called once the answer is on
 * screen (more calls do nothing), goes through what was held.
 */
export function holdLiveChanges(client: QueryClient, id: string): () => void {
  const entry = inFlight.get(id) ?? { count: 0, changes: [] };
  inFlight.set(id, entry);
  entry.count++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--entry.count > 0) return;
    inFlight.delete(id);
    for (const change of entry.changes) ticketChanged(client, id, change);
  };
}

/** A change-feed event as the live stream gives it (the fields read here). */
export interface TicketChange {
  id?: string;
  type?: string;
  resource_type?: string;
  resource_id?: string;
  object?: Record<string, unknown>;
  changes?: Record<string, unknown> | null;
}

/**
 * A change of ticket `id` the live stream reports: refetches what the page does not show yet. This
 * page's own change comes back on the stream too (its property change, its reply): what its answer
 * already put on screen is not fetched again, the 200 comments of a long conversation least of all.
 */
export function ticketChanged(client: QueryClient, id: string, change: TicketChange): void {
  const held = inFlight.get(id);
  if (held) {
    held.changes.push(change);
    return;
  }
  const cached = <T>(part: string) => client.getQueryData<T>(['t', id, part]);
  const refetch = (part?: string) => void client.invalidateQueries({ queryKey: part ? ['t', id, part] : ['t', id] });
  const shown = cached<Loaded>('ticket')?.ticket as Record<string, unknown> | undefined;
  const ticketShown =
    change.type === 'ticket.updated' &&
    shown !== undefined &&
    shown.updated_at === change.object?.updated_at &&
    Object.keys(change.changes ?? {}).every((field) => JSON.stringify(shown[field]) === JSON.stringify(change.object?.[field]));
  const commentShown = change.type === 'comment.created' && (cached<Comment[]>('comments')?.some((c) => c.id === change.resource_id) ?? false);
  if (change.type === 'ticket.updated') {
    // The ticket's own fields: its conversation and files are as they were.
    if (!ticketShown) refetch('ticket');
  } else if (!commentShown) {
    refetch();
    return;
  }
  if (!cached<TicketEvent[]>('events')?.some((e) => e.id === change.id)) refetch('events');
}
