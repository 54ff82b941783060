import { keepPreviousData, useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { must } from './api.js';

/**
 * Paging of the console's long lists (the queue, customers) by the API's cursor: a full page carries
 * `Link: <...&cursor=...>; rel="next"`, a shorter one (or a full last page's empty next) ends the
 * list (docs/api-behaviour.md, "Cursor paging"). Pages are one TanStack infinite query, so a live
 * change that invalidates it refetches every loaded page from the first, each from the cursor of the
 * page before as it is now: the rows shown stay the first N of the list, none skipped or repeated.
 */
export interface Page<T> {
  items: T[];
  /** The cursor of the next page, or null at the end of the list. */
  next: string | null;
}

/** The cursor named by a `Link: <...>; rel="next"` header, if any. */
export function nextCursor(link: string | null): string | null {
  for (const part of link?.split(',') ?? []) {
    const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(part);
    if (match) return new URL(match[1]!, 'http://link.invalid').searchParams.get('cursor');
  }
  return null;
}

/** One page of an SDK list call: its items (or the service's error) and the next page's cursor. */
export function pageOf<T>(result: { data?: T[]; error?: unknown; response: Response }): Page<T> {
  return { items: must(result), next: nextCursor(result.response.headers.get('link')) };
}

export interface PagedList<T> {
  /** The rows of every page loaded so far, in list order (a row met twice shows once). */
  items: T[];
  isPending: boolean;
  /** Showing the previous list's rows while this one loads (`keepPrevious`). */
  isPlaceholderData: boolean;
  isError: boolean;
  error: Error | null;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  /** Loads the next page, unless one is on its way or the list has ended. */
  loadMore: () => void;
}

/** A list read page by page: `fetchPage(undefined)` is the first page, then each by the cursor of the one before. */
export function usePagedList<T extends { id: string }>(options: {
  queryKey: QueryKey;
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>;
  enabled?: boolean;
  /** Keep showing the previous list's rows while another list (a new key) loads. */
  keepPrevious?: boolean;
}): PagedList<T> {
  const query = useInfiniteQuery({
    queryKey: options.queryKey,
    enabled: options.enabled,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => options.fetchPage(pageParam),
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const { data, hasNextPage, isFetchingNextPage, isFetching, fetchNextPage } = query;
  const items = useMemo(() => {
    const byId = new Map<string, T>();
    for (const page of data?.pages ?? []) for (const item of page.items) if (!byId.has(item.id)) byId.set(item.id, item);
    return [...byId.values()];
  }, [data]);
  const loadMore = useCallback(() => {
    // Not while the pages refetch (a live change): the next page waits for the last one's new cursor.
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [hasNextPage, isFetching, fetchNextPage]);
  return { items, isPending: query.isPending, isPlaceholderData: query.isPlaceholderData, isError: query.isError, error: query.error, hasNextPage, isFetchingNextPage, loadMore };
}

/**
 * Keyboard steps through a paged list: a step past the last loaded row loads the next page and
 * takes the step once it has arrived; at the end of the list it stays on the last row.
 */
export function usePagedSteps(list: PagedList<unknown>, count: number, move: (to: number) => void): (to: number) => void {
  const waiting = useRef<number | null>(null);
  const moveRef = useRef(move);
  moveRef.current = move;
  useEffect(() => {
    const to = waiting.current;
    if (to === null || list.isFetchingNextPage) return;
    if (count > to || !list.hasNextPage) {
      waiting.current = null;
      moveRef.current(Math.min(to, count - 1));
    }
  }, [count, list.hasNextPage, list.isFetchingNextPage]);
  return (to: number) => {
    if (to >= count && list.hasNextPage) {
      waiting.current = to;
      list.loadMore();
    } else move(to);
  };
}

/**
 * The end of a paged list: how many rows are shown, a "Load more" button, and a marker that loads
 * the next page when it comes near the viewport (IntersectionObserver). `total` is a count known
 * from elsewhere (a queue's count), possibly a little stale, hence "about".
 */
export function ListEnd({ list, total, noun }: { list: PagedList<unknown>; total?: number | null | undefined; noun: string }) {
  const marker = useRef<HTMLDivElement>(null);
  const { hasNextPage, loadMore } = list;
  const shown = list.items.length;
  // A new observer after every page: its first report says whether the marker is still in view.
  useEffect(() => {
    const element = marker.current;
    if (!element || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), { rootMargin: '0px 0px 400px 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, loadMore, shown]);
  if (list.isPending || shown === 0) return null;
  const more = total != null && total > shown ? ` of about ${total}` : ' — more';
  return (
    <div className="list-end">
      <p className="list-count" role="status">
        {hasNextPage ? `Showing ${shown}${more}` : `Showing ${shown} ${noun}`}
      </p>
      {hasNextPage ? (
        <>
          <button type="button" className="ghost" onClick={loadMore} aria-busy={list.isFetchingNextPage}>
            {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
          <div ref={marker} className="list-marker" aria-hidden="true" />
        </>
      ) : (
        <p className="list-done">End of list</p>
      )}
    </div>
  );
}
