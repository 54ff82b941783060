import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must, when } from '../api.js';
import { navigate } from '../router.js';
import { ListEnd, pageOf, usePagedList } from '../paging.js';
import { StatusBadge } from '../ui.js';

/** Customers per page (the most the API gives at once). */
const PAGE = 100;

export function CustomersPage({ path }: { path: string }) {
  const [email, setEmail] = useState('');
  const [filter, setFilter] = useState('');
  const selected = /^\/customers\/(.+)$/.exec(path)?.[1];
  const customers = usePagedList({
    queryKey: ['customers', 'list', filter],
    fetchPage: async (cursor) =>
      pageOf(await api.GET('/v1/customers', { params: { query: { limit: PAGE, ...(filter ? { email: filter } : {}), ...(cursor ? { cursor } : {}) } } })),
  });
  return (
    <div className="customers-layout">
      <main id="main" className="page">
        <div className="queue-head">
          <h1>Customers</h1>
          <form role="search" className="queue-tools" onSubmit={(e) => { e.preventDefault(); setFilter(email.trim()); }}>
            <label htmlFor="customer-email" className="visually-hidden">Find a customer by email</label>
            <input id="customer-email" type="search" placeholder="Find by email" value={email} onChange={(e) => setEmail(e.target.value)} />
            <button type="submit" className="ghost">Find</button>
          </form>
        </div>
        {customers.isError && <p role="alert" className="alert error">{customers.error?.message}</p>}
        <table className="grid">
          <caption className="visually-hidden">Customers</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Company</th>
              <th scope="col">Tier</th>
              <th scope="col">Flags</th>
            </tr>
          </thead>
          <tbody>
            {customers.items.map((c) => (
              <tr key={c.id} className={c.id === selected ? 'selected' : undefined}>
                <td>
                  <a href={`/app/customers/${c.id}`} onClick={(e) => { e.preventDefault(); navigate(`/customers/${c.id}`); }}>{c.name}</a>
                </td>
                <td>{c.email}</td>
                <td>{c.company ?? '—'}</td>
                <td>{c.customer_tier ?? '—'}</td>
                <td>
                  {c.is_vip && <span className="badge vip">VIP</span>} {c.has_premium_support && <span className="badge premium">Premium</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!customers.isPending && !customers.isError && customers.items.length === 0 && <p className="empty">No customers match.</p>}
        <ListEnd list={customers} noun="customers" />
      </main>
      {selected && <CustomerDetail id={selected} />}
    </div>
  );
}

function CustomerDetail({ id }: { id: string }) {
  const customer = useQuery({ queryKey: ['customers', id], queryFn: async () => must(await api.GET('/v1/customers/{customer_id}', { params: { path: { customer_id: id } } })) });
  const tickets = useQuery({ queryKey: ['queue', 'customer', id, 'all'], queryFn: async () => must(await api.GET('/v1/tickets', { params: { query: { customer_id: id, limit: 50 } } })) });
  const c = customer.data;
  return (
    <aside className="card detail" aria-label="Customer details">
      {c && (
        <>
          <h2>{c.name}</h2>
          <p>{c.email}</p>
          <dl>
            <dt>Company</dt><dd>{c.company ?? '—'}</dd>
            <dt>Tier</dt><dd>{c.customer_tier ?? '—'}</dd>
            <dt>VIP</dt><dd>{c.is_vip ? 'Yes' : 'No'}</dd>
            <dt>Premium support</dt><dd>{c.has_premium_support ? 'Yes' : 'No'}</dd>
            <dt>Customer since</dt><dd>{when(c.created_at)}</dd>
          </dl>
          <h3>Tickets</h3>
          <ul className="other-tickets">
            {tickets.data?.map((t) => (
              <li key={t.id}>
                <a href={`/app/tickets/${t.id}`} onClick={(e) => { e.preventDefault(); navigate(`/tickets/${t.id}`); }}>{t.ticket_display_id} {t.subject}</a> <StatusBadge status={t.status} />
              </li>
            ))}
          </ul>
        </>
      )}
    </aside>
  );
}
