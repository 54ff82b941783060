import { useQuery, useQueryClient } from '@tanstack/react-query';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api, must, multipart, when, type Attachment, type Comment, type User } from '../api.js';
import { PRESENCE_REFRESH_MS, sendPresence, useLiveState, usePresence } from '../live.js';
import { useUsers } from '../lookups.js';
import { navigate } from '../router.js';
import { announce, useShortcuts } from '../shortcuts.js';
import { CONFLICT, holdLiveChanges, pastOwnChanges, useTicket, useUpdateTicket } from '../ticket-data.js';
import { Lock, StatusBadge } from '../ui.js';
import { lastQueue } from './Queue.js';
import { Attachments, CustomerPanel, History, Properties } from './TicketSide.js';

type Mode = 'reply' | 'note';

export function TicketPage({ id, me }: { id: string; me: User }) {
  const loaded = useTicket(id);
  const comments = useQuery({
    queryKey: ['t', id, 'comments'],
    queryFn: async () => must(await api.GET('/v1/tickets/{ticket_id}/comments', { params: { path: { ticket_id: id }, query: { limit: 500 } } })),
  });
  const users = useUsers();
  const attachments = useQuery({
    queryKey: ['t', id, 'attachments'],
    queryFn: async () => must(await api.GET('/v1/tickets/{ticket_id}/attachments', { params: { path: { ticket_id: id }, query: { limit: 100 } } })),
  });
  const presence = usePresence(id).filter((u) => u.id !== me.id);
  const [conflict, setConflict] = useState(false);
  const presenceState = useRef<'viewing' | 'replying'>('viewing');
  const heading = useRef<HTMLHeadingElement>(null);
  const composer = useRef<HTMLTextAreaElement>(null);
  const [mode, setMode] = useState<Mode>('reply');
  const update = useUpdateTicket(id, () => setConflict(true));

  // Presence: said on arrival (and again when the stream comes up), refreshed while here, withdrawn on leaving.
  const live = useLiveState();
  useEffect(() => {
    sendPresence(id, presenceState.current);
    const refresh = window.setInterval(() => sendPresence(id, presenceState.current), PRESENCE_REFRESH_MS);
    return () => window.clearInterval(refresh);
  }, [id, live]);
  useEffect(() => () => sendPresence(id, 'gone'), [id]);
  // Opening a ticket puts the focus on its title, so a screen reader starts there.
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current && loaded.data) {
      focused.current = true;
      heading.current?.focus();
    }
  }, [loaded.data]);

  const ticket = loaded.data?.ticket;
  const etag = loaded.data?.etag ?? '';
  const write = (next: Mode) => {
    setMode(next);
    composer.current?.focus();
  };
  const change = (changes: Parameters<typeof update.mutate>[0], said: string) =>
    update.mutate(changes, { onSuccess: () => announce(said) });
  const step = (by: number) => {
    const at = lastQueue.ids.indexOf(id);
    const next = lastQueue.ids[at + by];
    if (at >= 0 && next) navigate(`/tickets/${next}`);
  };
  useShortcuts({
    r: () => write('reply'),
    n: () => write('note'),
    a: () => change({ assigned_user_id: me.id }, 'Assigned to you'),
    'shift+o': () => change({ status: 'open' }, 'Status: open'),
    'shift+p': () => change({ status: 'pending' }, 'Status: pending'),
    'shift+s': () => change({ status: 'resolved' }, 'Status: resolved'),
    'shift+c': () => change({ status: 'closed' }, 'Status: closed'),
    j: () => step(1),
    k: () => step(-1),
    Escape: (event) => {
      if (event.target === composer.current) {
        heading.current?.focus();
        return;
      }
      navigate(lastQueue.path);
    },
  });

  if (loaded.isError) {
    return (
      <main id="main" className="page">
        <h1>Ticket not found</h1>
        <p role="alert" className="alert error">{loaded.error.message}</p>
        <a href={`/app${lastQueue.path}`}>Back to the queue</a>
      </main>
    );
  }
  if (!ticket) return <main id="main" className="page"><p className="empty">Loading ticket…</p></main>;

  return (
    <div className="ticket-layout">
      <main id="main" className="ticket-main">
        <p className="crumbs">
          <a href={`/app${lastQueue.path}`} onClick={(e) => { e.preventDefault(); navigate(lastQueue.path); }}>
            ← Back to the queue <kbd>Esc</kbd>
          </a>
        </p>
        <h1 ref={heading} tabIndex={-1} className="ticket-title">
          <span className="num">{ticket.ticket_display_id}</span> {ticket.subject}
        </h1>
        <p className="meta">
          <StatusBadge status={ticket.status} /> <span>via {ticket.channel}</span> · <span>opened {when(ticket.created_at)}</span> · <span>updated {when(ticket.updated_at)}</span>
        </p>
        {presence.length > 0 && (
          <p className="presence" role="status">
            {presence.map((u) => `${u.name} is ${u.state}`).join(' · ')}
          </p>
        )}
        {(conflict || (update.error instanceof ApiError && update.error.status !== 412)) && (
          <div role="alert" className="alert conflict">
            {conflict ? (
              <>
                <strong>{CONFLICT}.</strong> It has been reloaded; your text is kept. Check the changes, then send again.
              </>
            ) : (
              update.error?.message
            )}
            <button type="button" className="ghost" onClick={() => { setConflict(false); update.reset(); }}>Dismiss</button>
          </div>
        )}
        <section aria-labelledby="conversation-title">
          <h2 id="conversation-title">Conversation</h2>
          <ol className="thread">
            <li className="msg customer">
              <div className="msg-head"><span className="tag tag-customer">Customer</span> <span>{when(ticket.created_at)}</span></div>
              <div className="msg-body">{ticket.description || <em>No description</em>}</div>
            </li>
            <Thread comments={comments.data} users={users.data} attachments={attachments.data} />
          </ol>
        </section>
        <Composer presence={presenceState} id={id} mode={mode} setMode={setMode} textarea={composer} etag={etag} onConflict={() => setConflict(true)} onSent={() => setConflict(false)} />
        <Attachments id={id} />
        <History id={id} />
      </main>
      <aside className="ticket-side" aria-label="Ticket details">
        <Properties ticket={ticket} me={me} update={(changes, said) => change(changes, said)} busy={update.isPending} />
        <CustomerPanel ticket={ticket} />
      </aside>
    </div>
  );
}

/**
 * The comments, oldest first. Memoized: the page renders again on every change of the ticket, its
 * presence or its history, and the conversation (hundreds of comments) only when it changes itself;
 * a new comment renders one item, the others kept.
 */
const Thread = memo(function Thread({ comments, users, attachments }: { comments: Comment[] | undefined; users: User[] | undefined; attachments: Attachment[] | undefined }) {
  const named = useMemo(() => new Map<string, string>((attachments ?? []).map((a) => [a.id, a.filename])), [attachments]);
  const names = useMemo(() => new Map<string, string>((users ?? []).map((u) => [u.id, u.full_name])), [users]);
  return comments?.map((c) => {
    const author = c.author_user_id ? (names.get(c.author_user_id) ?? 'An agent') : c.author_customer_id ? 'Customer' : 'The service';
    return <CommentItem key={c.id} comment={c} author={author} named={named} />;
  });
});

/** One comment; `named` gives its files' names (a new map only when the ticket's files change). */
const CommentItem = memo(function CommentItem({ comment: c, author, named }: { comment: Comment; author: string; named: ReadonlyMap<string, string> }) {
  const kind = c.is_internal ? 'note' : c.author_customer_id ? 'customer' : 'reply';
  return (
    <li className={`msg ${kind}`} id={`comment-${c.id}`}>
      <div className="msg-head">
        <span className={`tag tag-${kind}`}>{kind === 'note' ? <><Lock /> Internal note</> : kind === 'customer' ? 'Customer' : 'Public reply'}</span>{' '}
        <strong>{author}</strong> <span>{when(c.created_at)}</span>
      </div>
      <div className="msg-body">{c.body}</div>
      {c.attachment_ids.length > 0 && (
        <ul className="msg-files" aria-label="Attached files">
          {c.attachment_ids.map((a) => <li key={a}>📎 {named.get(a) ?? 'A file'}</li>)}
        </ul>
      )}
    </li>
  );
});

function Composer(props: {
  presence: React.MutableRefObject<'viewing' | 'replying'>;
  id: string;
  mode: Mode;
  setMode: (m: Mode) => void;
  textarea: React.RefObject<HTMLTextAreaElement | null>;
  etag: string;
  onConflict: () => void;
  onSent: () => void;
}) {
  const { id, mode, setMode, textarea, etag } = props;
  const client = useQueryClient();
  const [text, setText] = useState(() => sessionStorage.getItem(`draft:${id}`) ?? '');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Files uploaded to the ticket for this message, sent with it as attachment_ids.
  const [files, setFiles] = useState<{ id: string; filename: string }[]>([]);
  const [uploading, setUploading] = useState(false);
  // The ticket's ETag when the agent began writing: a change after it is a conflict.
  const since = useRef<string | null>(null);
  const replying = useRef(false);

  useEffect(() => {
    sessionStorage.setItem(`draft:${id}`, text);
    const now = text.trim().length > 0;
    if (now !== replying.current) {
      replying.current = now;
      props.presence.current = now ? 'replying' : 'viewing';
      sendPresence(id, props.presence.current);
    }
  }, [id, text]);

  const upload = async (list: File[]) => {
    if (!list.length) return;
    setUploading(true);
    setError(null);
    try {
      for (const file of list) {
        const added = must(await api.POST('/v1/tickets/{ticket_id}/attachments', { params: { path: { ticket_id: id } }, body: { file }, bodySerializer: multipart }));
        setFiles((now) => [...now, { id: added.id, filename: added.filename }]);
      }
      void client.invalidateQueries({ queryKey: ['t', id, 'attachments'] });
      announce(`${list.length} file${list.length === 1 ? '' : 's'} attached to the ${mode === 'note' ? 'note' : 'reply'}`);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Uploading failed');
    } finally {
      setUploading(false);
    }
  };

  const send = async () => {
    if (!text.trim() || sending || uploading) return;
    setSending(true);
    setError(null);
    const answered = holdLiveChanges(client, id);
    try {
      // The server refuses (412, nothing written) when the ticket changed after the agent began writing.
      const ifMatch = pastOwnChanges(id, since.current ?? etag);
      const result = await api.POST('/v1/tickets/{ticket_id}/comments', {
        params: { path: { ticket_id: id }, header: ifMatch ? { 'if-match': ifMatch } : {} },
        body: { body: text, is_internal: mode === 'note', ...(files.length ? { attachment_ids: files.map((f) => f.id) } : {}) },
      });
      if (result.response.status === 412) {
        // Reloaded below: the next send is against the ticket as it is now shown.
        since.current = null;
        props.onConflict();
        void client.invalidateQueries({ queryKey: ['t', id] });
        return;
      }
      // On screen at once, from the answer: the conversation is not fetched again (others' comments
      // come by the live stream, ticket-data.ts ticketChanged).
      const created = must(result);
      client.setQueryData<Comment[]>(['t', id, 'comments'], (old) => (old && !old.some((c) => c.id === created.id) ? [...old, created] : old));
      answered();
      setText('');
      setFiles([]);
      since.current = null;
      props.onSent();
      announce(mode === 'note' ? 'Note added' : 'Reply sent');
      void client.invalidateQueries({ queryKey: ['t', id, 'events'] });
      if (files.length) void client.invalidateQueries({ queryKey: ['t', id, 'attachments'] });
      void client.invalidateQueries({ queryKey: ['queue'] });
      // The ticket moved (updated_at, the SLA clocks): its new ETag before the next send.
      await client.invalidateQueries({ queryKey: ['t', id, 'ticket'] });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Sending failed');
    } finally {
      answered();
      setSending(false);
      textarea.current?.focus();
    }
  };

  return (
    <section className={`composer composer-${mode}`} aria-labelledby="composer-title">
      <h2 id="composer-title" className="visually-hidden">Write</h2>
      <div className="modes" role="group" aria-label="Kind of message">
        <button type="button" aria-pressed={mode === 'reply'} onClick={() => { setMode('reply'); textarea.current?.focus(); }} aria-keyshortcuts="r">
          Public reply <kbd>r</kbd>
        </button>
        <button type="button" aria-pressed={mode === 'note'} onClick={() => { setMode('note'); textarea.current?.focus(); }} aria-keyshortcuts="n">
          <Lock /> Internal note <kbd>n</kbd>
        </button>
      </div>
      <form
        onSubmit={(e) => { e.preventDefault(); void send(); }}
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          void upload([...e.dataTransfer.files]);
        }}
      >
        <label htmlFor="composer">{mode === 'reply' ? 'Public reply — the customer will see this' : 'Internal note — only agents see this'}</label>
        <textarea
          id="composer"
          ref={textarea}
          rows={5}
          value={text}
          onChange={(e) => {
            if (!text && e.target.value && since.current === null) since.current = etag;
            setText(e.target.value);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void send();
            }
          }}
        />
        {files.length > 0 && (
          <ul className="composer-files" aria-label="Files sent with this message">
            {files.map((f) => (
              <li key={f.id}>
                {f.filename}{' '}
                <button type="button" className="ghost small" aria-label={`Do not send ${f.filename}`} onClick={() => setFiles((now) => now.filter((x) => x.id !== f.id))}>×</button>
              </li>
            ))}
          </ul>
        )}
        {error && <p role="alert" className="alert error">{error}</p>}
        <div className="composer-actions">
          <span className="hint">
            <label className="file-button composer-attach">
              Attach files
              <input type="file" multiple className="visually-hidden" onChange={(e) => { void upload([...(e.target.files ?? [])]); e.target.value = ''; }} />
            </label>
            {uploading && <span role="status"> Uploading…</span>} · <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to send
          </span>
          <button type="submit" className="primary" disabled={sending || uploading || !text.trim()}>
            {sending ? 'Sending…' : mode === 'reply' ? 'Send reply' : 'Add note'}
          </button>
        </div>
      </form>
    </section>
  );
}
