import { useSyncExternalStore } from 'react';

/** A tiny history router: addresses under /app, parsed by the pages. */
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());
window.addEventListener('popstate', notify);

export function navigate(to: string, replace = false): void {
  const url = to.startsWith('/app') ? to : `/app${to}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  notify();
}

/** The address inside the console ("/", "/tickets/<id>", ...) and its query. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const href = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => window.location.pathname + window.location.search,
  );
  const url = new URL(href, window.location.origin);
  const path = url.pathname.replace(/^\/app/, '') || '/';
  return { path, query: url.searchParams };
}
