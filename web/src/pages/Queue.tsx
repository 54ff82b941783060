import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ago, api, must, PRIORITIES, type Ticket, type User } from '../api.js';
import { navigate } from '../router.js';
import { useShortcuts } from '../shortcuts.js';
import { StatusBadge, PriorityBadge } from '../ui.js';
import { useUsers } from '../lookups.js';
import { ListEnd, pageOf, usePagedList, usePagedSteps } from '../paging.js';

/** The fixed queues: ticket-list filters. */
const OPEN = 'new,open,pending';
const FIXED = [
  { key: 'mine', name: 'Mine', query: (me: User) => ({ status: OPEN, assigned_user_id: me.id }) },
  { key: 'unassigned', name: 'Unassigned', query: () => ({ status: OPEN, unassigned: true }) },
  { key: 'open', name: 'All open', query: () => ({ status: OPEN }) },
  { key: 'pending', name: 'Pending', query: () => ({ status: 'pending' }) },
  { key: 'solved', name: 'Recently solved', query: () => ({ status: 'resolved,closed' }) },
] as const;
/** Where the console opens when the organization has no saved views. */
const ALL_OPEN = FIXED[2];

const SORTS = {
  queue: 'Queue order',
  newest: 'Newest first',
  oldest: 'Oldest first',
  updated: 'Recently updated',
  priority: 'Priority (urgent first)',
  due: 'Due date (soonest first)',
} as const;
type SortKey = keyof typeof SORTS;

const PAGE = 50;
let focusSearch = false;
/** The next queue page shown puts the focus in its search box (the / shortcut). */
export function requestSearchFocus(): void {
  focusSearch = true;
  document.getElementById('search')?.focus();
}

/** The queue the agent last worked in, and the ticket selected there, so Esc comes back to it. */
export const lastQueue = { path: '/', ids: [] as string[] };

function sortTickets(tickets: Ticket[], sort: SortKey): Ticket[] {
  const list = [...tickets];
  const time = (s: string | null) => (s ? new Date(s).getTime() : Infinity);
  if (sort === 'newest') list.sort((a, b) => b.ticket_number - a.ticket_number);
  if (sort === 'oldest') list.sort((a, b) => a.ticket_number - b.ticket_number);
  if (sort === 'updated') list.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  if (sort === 'priority') list.sort((a, b) => PRIORITIES.indexOf(b.priority) - PRIORITIES.indexOf(a.priority) || b.ticket_number - a.ticket_number);
  if (sort === 'due') list.sort((a, b) => time(a.due_date) - time(b.due_date));
  return list;
}

/** Where `/` opened last time for this agent (a view's id, or "open"), to fetch it before the views list says. */
const firstKey = (me: User) => `first-queue:${me.id}`;

export function QueuePage({ path, me }: { path: string; me: User }) {
  const views = useQuery({ queryKey: ['views'], queryFn: async () => must(await api.GET('/v1/views', { params: { query: { limit: 100 } } })) });
  const users = useUsers();
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [sort, setSort] = useState<SortKey>('queue');
  const searchBox = useRef<HTMLInputElement>(null);

  const viewMatch = /^\/views\/(.+)$/.exec(path);
  const fixedMatch = /^\/queues\/(.+)$/.exec(path);
  const viewId = viewMatch?.[1];
  const haveViews = (views.data?.length ?? 0) > 0;
  // Until the views list answers, `/` is taken to open where it did last time (All open the first
  // time): its tickets are asked for alongside the list, not after it.
  const guess = path === '/' && views.isPending ? (localStorage.getItem(firstKey(me)) ?? 'open') : undefined;
  const firstView = guess === undefined ? views.data?.[0]?.id : guess === 'open' ? undefined : guess;
  const fixed = FIXED.find((f) => f.key === fixedMatch?.[1]) ?? (viewId || firstView ? undefined : ALL_OPEN);
  const current = viewId ?? (fixed ? undefined : firstView);
  const queueName = current ? (views.data?.find((v) => v.id === current)?.name ?? (views.isPending ? 'Queue' : 'View')) : (fixed?.name ?? 'Queue');
  useEffect(() => {
    if (path === '/' && views.data) localStorage.setItem(firstKey(me), views.data[0]?.id ?? 'open');
  }, [path, views.data, me]);

  const tickets = usePagedList({
    queryKey: ['queue', current ?? fixed?.key ?? 'none', term],
    keepPrevious: true,
    fetchPage: async (cursor) => {
      const paging = { limit: PAGE, ...(cursor ? { cursor } : {}) };
      if (term) return pageOf(await api.GET('/v1/tickets', { params: { query: { search: term, ...paging } } }));
      if (current) return pageOf(await api.GET('/v1/views/{view_id}/tickets', { params: { path: { view_id: current }, query: paging } }));
      return pageOf(await api.GET('/v1/tickets', { params: { query: { ...(fixed ?? ALL_OPEN).query(me), ...paging } } }));
    },
  });
  // The sidebar's figures wait for the first queue's page (the views list having said which it is):
  // asked for earlier, the service could serve a recount of every view (seconds at a million
  // tickets on one SQLite process) before it.
  const [queueShown, setQueueShown] = useState(false);
  useEffect(() => {
    if (!tickets.isPending && !tickets.isPlaceholderData && !views.isPending) setQueueShown(true);
  }, [tickets.isPending, tickets.isPlaceholderData, views.isPending]);
  const counts = useQuery({ queryKey: ['counts', 'views'], enabled: queueShown, queryFn: async () => must(await api.GET('/v1/views/counts')), refetchInterval: 60_000 });
  const dashboard = useQuery({ queryKey: ['dashboard'], enabled: queueShown, queryFn: async () => must(await api.GET('/v1/dashboard')) });
  const list = useMemo(() => sortTickets(tickets.items, sort), [tickets.items, sort]);
  const [selected, setSelected] = useState(() => Math.max(0, Number(sessionStorage.getItem(`sel:${path}`) ?? 0)));
  const links = useRef<(HTMLAnchorElement | null)[]>([]);

  useEffect(() => {
    lastQueue.path = path;
    lastQueue.ids = list.map((t) => t.id);
  }, [path, list]);
  useEffect(() => {
    if (focusSearch) {
      focusSearch = false;
      searchBox.current?.focus();
    }
  }, []);
  // Back from a ticket: the row that was selected has the focus again.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || list.length === 0) return;
    restored.current = true;
    if (document.activeElement === document.body || document.activeElement === null) links.current[Math.min(selected, list.length - 1)]?.focus();
  }, [list, selected]);

  const move = (to: number) => {
    if (list.length === 0) return;
    const index = Math.max(0, Math.min(list.length - 1, to));
    setSelected(index);
    sessionStorage.setItem(`sel:${path}`, String(index));
    links.current[index]?.focus();
  };
  const step = usePagedSteps(tickets, list.length, move);
  const open = (ticket: Ticket | undefined) => ticket && navigate(`/tickets/${ticket.id}`);
  useShortcuts({
    j: () => step(document.activeElement?.closest('.rows') ? selected + 1 : selected),
    k: () => move(selected - 1),
    Enter: () => open(list[selected]),
  });

  const fixedCount = (key: string): number | undefined => {
    const d = dashboard.data;
    if (!d) return undefined;
    if (key === 'mine') return d.open_by_agent.find((a) => a.id === me.id)?.open ?? 0;
    if (key === 'unassigned') return d.open.unassigned;
    if (key === 'open') return d.open.total;
    if (key === 'pending') return d.tickets.by_status.pending;
    return undefined;
  };
  const countOf = (id: string) => counts.data?.views.find((v) => v.id === id)?.count;
  const nameOf = (id: string | null) => (id ? (users.data ? (users.data.find((u) => u.id === id)?.full_name ?? 'Someone') : '') : 'Unassigned');

  return (
    <div className="queue-layout">
      <nav className="sidebar" aria-label="Queues">
        {haveViews && (
          <>
            <h2 className="side-title">Views</h2>
            <ul>
              {views.data!.map((v) => (
                <li key={v.id}>
                  <a href={`/app/views/${v.id}`} aria-current={current === v.id && !term ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate(`/views/${v.id}`); }}>
                    <span>{v.name}</span>
                    {countOf(v.id) != null && <span className="count" aria-label={`${countOf(v.id)} tickets`}>{countOf(v.id)}</span>}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
        <h2 className="side-title">Queues</h2>
        <ul>
          {FIXED.map((f) => (
            <li key={f.key}>
              <a href={`/app/queues/${f.key}`} aria-current={fixed?.key === f.key && !term ? 'page' : undefined} onClick={(e) => { e.preventDefault(); navigate(`/queues/${f.key}`); }}>
                <span>{f.name}</span>
                {fixedCount(f.key) !== undefined && <span className="count" aria-label={`${fixedCount(f.key)} tickets`}>{fixedCount(f.key)}</span>}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="queue">
        <div className="queue-head">
          <h1>{term ? `Search: ${term}` : queueName}</h1>
          <form
            role="search"
            className="queue-tools"
            onSubmit={(e) => {
              e.preventDefault();
              setTerm(search.trim());
              setSelected(0);
            }}
          >
            <label htmlFor="search" className="visually-hidden">Search tickets</label>
            <input
              id="search"
              ref={searchBox}
              type="search"
              placeholder="Search tickets  ( / )"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  setSearch('');
                  setTerm('');
                  e.currentTarget.blur();
                  links.current[0]?.focus();
                }
              }}
              aria-keyshortcuts="/"
            />
            <label htmlFor="sort">Sort</label>
            <select id="sort" value={sort} onChange={(e) => setSort(e.target.value as SortKey)}>
              {Object.entries(SORTS).map(([key, label]) => (
                <option key={key} value={key}>{label}</option>
              ))}
            </select>
          </form>
        </div>
        {tickets.isError && <p role="alert" className="alert error">{tickets.error?.message}</p>}
        {tickets.isPending ? (
          <p className="empty">Loading tickets…</p>
        ) : list.length === 0 ? (
          <p className="empty">No tickets here. Nice work.</p>
        ) : (
          <ol className="rows" aria-label={`Tickets in ${term ? 'the search' : queueName}`}>
            {list.map((t, i) => (
              <li key={t.id} className={i === selected ? 'row selected' : 'row'}>
                <a
                  ref={(el) => {
                    links.current[i] = el;
                  }}
                  href={`/app/tickets/${t.id}`}
                  onFocus={() => setSelected(i)}
                  onClick={(e) => {
                    e.preventDefault();
                    sessionStorage.setItem(`sel:${path}`, String(i));
                    navigate(`/tickets/${t.id}`);
                  }}
                >
                  <span className="num">{t.ticket_display_id}</span>
                  <span className="subject">{t.subject}</span>
                  <span className="row-meta">
                    <StatusBadge status={t.status} />
                    <PriorityBadge priority={t.priority} />
                    <span className="assignee">{nameOf(t.assigned_user_id)}</span>
                    <span className="updated">{ago(t.updated_at)}</span>
                  </span>
                </a>
              </li>
            ))}
          </ol>
        )}
        <ListEnd list={tickets} noun="tickets" total={term ? undefined : current ? countOf(current) : fixed && fixedCount(fixed.key)} />
        <p className="hint keys">
          <kbd>j</kbd>/<kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>/</kbd> search · <kbd>?</kbd> all shortcuts
        </p>
      </main>
    </div>
  );
}
