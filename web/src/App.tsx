import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, api, must, setCsrfToken } from './api.js';
import { startLive, useLiveState } from './live.js';
import { CustomersPage } from './pages/Customers.js';
import { DashboardPage } from './pages/Dashboard.js';
import { QueuePage, requestSearchFocus } from './pages/Queue.js';
import { TicketPage } from './pages/Ticket.js';
import { navigate, useLocation } from './router.js';
import { SHORTCUTS, useShortcuts } from './shortcuts.js';
import type { components } from '../../sdk/index.js';

type Session = components['schemas']['Session'];

export function App() {
  const client = useQueryClient();
  const session = useQuery({
    queryKey: ['session'],
    queryFn: async (): Promise<Session | null> => {
      const result = await api.GET('/v1/sessions/current');
      if (result.response.status === 401) return null;
      const current = must(result);
      setCsrfToken(current.csrf_token);
      return current;
    },
    staleTime: Infinity,
    retry: false,
  });
  if (session.isPending) return <p className="splash">Loading…</p>;
  if (!session.data) {
    return (
      <SignIn
        onSignedIn={(signedIn) => {
          setCsrfToken(signedIn.csrf_token);
          client.setQueryData(['session'], signedIn);
        }}
      />
    );
  }
  return <Shell session={session.data} />;
}

function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const client = useQueryClient();
  // Nothing of a signed-out session stays in memory (the shell has gone by now, so nothing refetches).
  useEffect(() => client.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' }), [client]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    setBusy(true);
    setError(null);
    try {
      const result = await api.POST('/v1/sessions', { body: { email: field('email'), password: field('password') } });
      if (result.response.status === 429) throw new ApiError(429, 'Too many failed sign-ins: wait a little, then try again.');
      if (result.response.status === 401) throw new ApiError(401, 'That email and password do not match an account.');
      onSignedIn(must(result));
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Signing in failed');
      setBusy(false);
    }
  };
  return (
    <main id="main" className="signin">
      <form className="card signin-card" onSubmit={(e) => void submit(e)} aria-labelledby="signin-title">
        <h1 id="signin-title">
          <span className="logo" aria-hidden="true" />
          Sign in to the console
        </h1>
        {error && (
          <p role="alert" className="alert error">
            {error}
          </p>
        )}
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required minLength={1} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="hint">
          No password yet? An administrator sets one with <code>ticketing users set-password EMAIL</code>.
        </p>
      </form>
    </main>
  );
}

function Shell({ session }: { session: Session }) {
  const client = useQueryClient();
  const { path } = useLocation();
  const live = useLiveState();
  const help = useRef<HTMLDialogElement>(null);
  const pendingG = useRef(0);
  useEffect(() => startLive(client), [client]);

  const signOut = async () => {
    await api.DELETE('/v1/sessions/current');
    setCsrfToken(null);
    // The next sign-in starts at the queue; the address changes quietly, so the shell does not render a page on its way out.
    window.history.replaceState(null, '', '/app/');
    // The shell (its queries and stream) goes; the sign-in form then forgets every cached answer.
    client.setQueryData(['session'], null);
  };
  const go = (to: string) => {
    pendingG.current = 0;
    navigate(to);
  };
  useShortcuts({
    '?': () => help.current?.showModal(),
    '/': () => {
      requestSearchFocus();
      if (path !== '/' && !path.startsWith('/queues/') && !path.startsWith('/views/')) navigate('/');
    },
    g: () => {
      pendingG.current = Date.now();
    },
    q: () => Date.now() - pendingG.current < 1500 && go('/'),
    c: () => Date.now() - pendingG.current < 1500 && go('/customers'),
    d: () => Date.now() - pendingG.current < 1500 && go('/dashboard'),
  });

  let page;
  const ticket = /^\/tickets\/([^/]+)$/.exec(path);
  if (ticket) page = <TicketPage key={ticket[1]} id={ticket[1]!} me={session.user} />;
  else if (path === '/customers' || path.startsWith('/customers/')) page = <CustomersPage path={path} />;
  else if (path === '/dashboard') page = <DashboardPage />;
  else if (path === '/' || path.startsWith('/queues/') || path.startsWith('/views/')) page = <QueuePage path={path} me={session.user} />;
  else
    page = (
      <main id="main" className="page">
        <h1>Not found</h1>
        <p>
          <a href="/app/">Back to the queue</a>
        </p>
      </main>
    );
  const section = path.startsWith('/customers') ? 'customers' : path === '/dashboard' ? 'dashboard' : 'queue';

  return (
    <>
      <a className="skip" href="#main">
        Skip to main content
      </a>
      <header className="topbar">
        <a
          className="brand"
          href="/app/"
          onClick={(e) => {
            e.preventDefault();
            navigate('/');
          }}
        >
          <span className="logo" aria-hidden="true" />
          Ticketing
        </a>
        <nav aria-label="Sections" className="sections">
          {(
            [
              ['queue', '/', 'Queue'],
              ['customers', '/customers', 'Customers'],
              ['dashboard', '/dashboard', 'Dashboard'],
            ] as const
          ).map(([key, to, label]) => (
            <a
              key={key}
              href={`/app${to}`}
              aria-current={section === key ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                navigate(to);
              }}
            >
              {label}
            </a>
          ))}
        </nav>
        <div className="topbar-end">
          <span className={`live live-${live}`} title="Live updates">
            {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Not live'}
          </span>
          <button type="button" className="ghost" onClick={() => help.current?.showModal()} aria-keyshortcuts="?">
            Shortcuts <kbd>?</kbd>
          </button>
          <span className="me" aria-label={`Signed in as ${session.user.full_name}`}>
            {session.user.full_name}
          </span>
          <button type="button" className="ghost" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      {page}
      <div id="announcer" className="visually-hidden" aria-live="polite" role="status" />
      <dialog ref={help} className="help" aria-labelledby="help-title">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">What it does</th>
              <th scope="col">Where</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.what}>
                <td>
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && (s.keys[0] === 'g' ? ' then ' : ' + ')}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </td>
                <td>{s.what}</td>
                <td>{s.where}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <form method="dialog">
          <button type="submit" className="primary" autoFocus>
            Close <kbd>Esc</kbd>
          </button>
        </form>
      </dialog>
    </>
  );
}
