import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, must, type Ticket, type UpdateTicket } from './api.js';

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
      return next;
    },
    onSuccess: (loaded) => {
      client.setQueryData(['t', id, 'ticket'], loaded);
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
