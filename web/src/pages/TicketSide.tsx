import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type DragEvent } from 'react';
import { ago, api, must, multipart, PRIORITIES, STATUSES, when, type Attachment, type Ticket, type TicketEvent, type TicketField, type UpdateTicket, type User } from '../api.js';
import { useFields, useTeams, useUsers } from '../lookups.js';
import { navigate } from '../router.js';
import { announce } from '../shortcuts.js';
import { StatusBadge } from '../ui.js';

type Update = (changes: UpdateTicket, said: string) => void;

/** A text box that commits on Enter or when it loses the focus, if its value changed. */
function CommitInput(props: { id: string; label: string; value: string; type?: string; placeholder?: string; onCommit: (value: string) => void }) {
  const [value, setValue] = useState(props.value);
  useEffect(() => setValue(props.value), [props.value]);
  const commit = () => value !== props.value && props.onCommit(value);
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        value={value}
        placeholder={props.placeholder}
        onChange={(e) => setValue(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          }
        }}
      />
    </>
  );
}

export function Properties({ ticket, me, update, busy }: { ticket: Ticket; me: User; update: Update; busy: boolean }) {
  const users = useUsers();
  const teams = useTeams();
  const fields = useFields();
  return (
    <section className="card props" aria-labelledby="props-title" aria-busy={busy}>
      <h2 id="props-title">Properties</h2>
      <label htmlFor="p-status">Status</label>
      <select id="p-status" value={ticket.status} onChange={(e) => update({ status: e.target.value as Ticket['status'] }, `Status: ${e.target.value}`)}>
        {STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
      </select>
      <label htmlFor="p-priority">Priority</label>
      <select id="p-priority" value={ticket.priority} onChange={(e) => update({ priority: e.target.value as Ticket['priority'] }, `Priority: ${e.target.value}`)}>
        {PRIORITIES.map((p) => <option key={p} value={p}>{p}</option>)}
      </select>
      <label htmlFor="p-assignee">Assignee</label>
      <div className="inline">
        <select id="p-assignee" value={ticket.assigned_user_id ?? ''} onChange={(e) => update({ assigned_user_id: e.target.value || null }, 'Assignee changed')}>
          <option value="">Unassigned</option>
          {users.data?.filter((u) => u.is_active || u.id === ticket.assigned_user_id).map((u) => <option key={u.id} value={u.id}>{u.full_name}</option>)}
        </select>
        {ticket.assigned_user_id !== me.id && (
          <button type="button" className="ghost small" onClick={() => update({ assigned_user_id: me.id }, 'Assigned to you')} aria-keyshortcuts="a">
            Take <kbd>a</kbd>
          </button>
        )}
      </div>
      <label htmlFor="p-team">Team</label>
      <select id="p-team" value={ticket.assigned_team_id ?? ''} onChange={(e) => update({ assigned_team_id: e.target.value || null }, 'Team changed')}>
        <option value="">No team</option>
        {teams.data?.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
      </select>
      <CommitInput id="p-category" label="Category" value={ticket.category ?? ''} onCommit={(v) => update({ category: v.trim() || null }, 'Category changed')} />
      <CommitInput id="p-due" label="Due date" type="date" value={ticket.due_date?.slice(0, 10) ?? ''} onCommit={(v) => update({ due_date: v ? `${v}T00:00:00.000Z` : null }, 'Due date changed')} />
      <CommitInput
        id="p-tags"
        label="Tags (comma-separated)"
        value={ticket.tags.join(', ')}
        onCommit={(v) => update({ tags: v.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean) }, 'Tags changed')}
      />
      {fields.data?.map((f) => <CustomField key={f.id} field={f} ticket={ticket} update={update} />)}
    </section>
  );
}

function CustomField({ field, ticket, update }: { field: TicketField; ticket: Ticket; update: Update }) {
  const id = `cf-${field.key}`;
  const value = (ticket.custom_fields as Record<string, unknown>)[field.key];
  const set = (v: unknown) => update({ custom_fields: { [field.key]: v as string } }, `${field.label} changed`);
  if (field.type === 'checkbox') {
    return (
      <div className="check">
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} />
        <label htmlFor={id}>{field.label}</label>
      </div>
    );
  }
  if (field.type === 'dropdown') {
    return (
      <>
        <label htmlFor={id}>{field.label}</label>
        <select id={id} value={typeof value === 'string' ? value : ''} onChange={(e) => set(e.target.value || null)}>
          <option value="">—</option>
          {field.options.map((o) => <option key={o} value={o}>{o}</option>)}
        </select>
      </>
    );
  }
  const shown = Array.isArray(value) ? value.join(', ') : value == null ? '' : typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  return (
    <CommitInput
      id={id}
      label={field.label}
      type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'}
      value={shown}
      onCommit={(v) => {
        if (!v) return set(null);
        if (field.type === 'number') return set(Number(v));
        if (field.type === 'multiselect') return set(v.split(',').map((s) => s.trim()).filter(Boolean));
        return set(v);
      }}
    />
  );
}

export function CustomerPanel({ ticket }: { ticket: Ticket }) {
  const customer = useQuery({
    queryKey: ['customers', ticket.customer_id],
    queryFn: async () => must(await api.GET('/v1/customers/{customer_id}', { params: { path: { customer_id: ticket.customer_id } } })),
  });
  const others = useQuery({
    queryKey: ['queue', 'customer', ticket.customer_id],
    queryFn: async () => must(await api.GET('/v1/tickets', { params: { query: { customer_id: ticket.customer_id, limit: 6 } } })),
  });
  const c = customer.data;
  return (
    <section className="card customer" aria-labelledby="customer-title">
      <h2 id="customer-title">Customer</h2>
      {!c ? (
        <p className="empty">Loading…</p>
      ) : (
        <>
          <p className="cust-name">{c.name}</p>
          <p className="cust-email">{c.email}</p>
          {c.company && <p>{c.company}{c.title ? ` · ${c.title}` : ''}</p>}
          <ul className="flags" aria-label="Customer status">
            <li className="badge tier">Tier: {c.customer_tier ?? 'none'}</li>
            {c.is_vip && <li className="badge vip">VIP</li>}
            {c.has_premium_support && <li className="badge premium">Premium support</li>}
          </ul>
          <h3>Other tickets</h3>
          <ul className="other-tickets">
            {others.data?.filter((t) => t.id !== ticket.id).slice(0, 5).map((t) => (
              <li key={t.id}>
                <a href={`/app/tickets/${t.id}`} onClick={(e) => { e.preventDefault(); navigate(`/tickets/${t.id}`); }}>
                  {t.ticket_display_id} {t.subject}
                </a>{' '}
                <StatusBadge status={t.status} />
              </li>
            ))}
            {others.data && others.data.filter((t) => t.id !== ticket.id).length === 0 && <li className="empty">None</li>}
          </ul>
        </>
      )}
    </section>
  );
}

function describe(event: TicketEvent, name: (id: string | null) => string): string {
  const who = event.actor.type === 'user' || event.actor.user_id ? name(event.actor.user_id) : event.actor.type === 'customer' ? 'The customer' : event.actor.type === 'system' ? 'The service' : 'An API key';
  const changes = event.changes ? Object.keys(event.changes).filter((k) => k !== 'updated_at') : [];
  const what = event.type.replace('.', ' ').replace('_', ' ');
  return `${who}: ${what}${changes.length ? ` (${changes.join(', ')})` : ''}`;
}

export function History({ id }: { id: string }) {
  const users = useUsers();
  const events = useQuery({
    queryKey: ['t', id, 'events'],
    queryFn: async () => must(await api.GET('/v1/tickets/{ticket_id}/events', { params: { path: { ticket_id: id }, query: { limit: 100 } } })),
  });
  const name = (userId: string | null) => users.data?.find((u) => u.id === userId)?.full_name ?? 'Someone';
  return (
    <section aria-labelledby="history-title" className="history">
      <details>
        <summary>
          <h2 id="history-title">History ({events.data?.length ?? '…'})</h2>
        </summary>
        <ol>
          {events.data?.map((e) => (
            <li key={e.id}>
              <time dateTime={e.occurred_at} title={when(e.occurred_at)}>{ago(e.occurred_at)}</time> {describe(e, name)}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}

/** The signed address of a file, as a same-origin path (the page's CSP allows only this origin). */
async function addressOf(ticketId: string, attachment: Attachment): Promise<string> {
  const link = must(await api.GET('/v1/tickets/{ticket_id}/attachments/{attachment_id}/download', { params: { path: { ticket_id: ticketId, attachment_id: attachment.id } } }));
  const url = new URL(link.signed_url, window.location.origin);
  return url.pathname + url.search;
}

function Preview({ ticketId, attachment }: { ticketId: string; attachment: Attachment }) {
  const src = useQuery({ queryKey: ['t', ticketId, 'file', attachment.id], staleTime: 30 * 60_000, queryFn: () => addressOf(ticketId, attachment) });
  return src.data ? <img className="preview" src={src.data} alt={`Preview of ${attachment.filename}`} /> : null;
}

export function Attachments({ id }: { id: string }) {
  const client = useQueryClient();
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const files = useQuery({
    queryKey: ['t', id, 'attachments'],
    queryFn: async () => must(await api.GET('/v1/tickets/{ticket_id}/attachments', { params: { path: { ticket_id: id }, query: { limit: 100 } } })),
  });
  const upload = useMutation({
    mutationFn: async (list: File[]) => {
      for (const file of list) {
        must(await api.POST('/v1/tickets/{ticket_id}/attachments', { params: { path: { ticket_id: id } }, body: { file }, bodySerializer: multipart }));
      }
      return list.length;
    },
    onSuccess: (n) => {
      setError(null);
      announce(`${n} file${n === 1 ? '' : 's'} attached`);
      void client.invalidateQueries({ queryKey: ['t', id] });
    },
    onError: (e) => setError(e.message),
  });
  const open = async (a: Attachment) => window.open(await addressOf(id, a), '_blank', 'noopener');
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer.files.length) upload.mutate([...e.dataTransfer.files]);
  };
  return (
    <section aria-labelledby="files-title" className="files">
      <h2 id="files-title">Attachments</h2>
      {files.data && files.data.length > 0 && (
        <ul className="file-list">
          {files.data.map((a) => (
            <li key={a.id}>
              {a.content_type.startsWith('image/') && <Preview ticketId={id} attachment={a} />}
              <button type="button" className="link" onClick={() => void open(a)}>{a.filename}</button>
              <span className="hint"> {(a.size_bytes / 1024).toFixed(1)} KB · {ago(a.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
      <div
        className={over ? 'dropzone over' : 'dropzone'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <span>Drop files here, or</span>{' '}
        <label className="file-button">
          choose files
          <input type="file" multiple className="visually-hidden" onChange={(e) => { if (e.target.files?.length) upload.mutate([...e.target.files]); e.target.value = ''; }} />
        </label>
        {upload.isPending && <span role="status"> Uploading…</span>}
      </div>
      {error && <p role="alert" className="alert error">{error}</p>}
    </section>
  );
}
