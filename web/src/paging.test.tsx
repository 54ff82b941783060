import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, listPage, requests, route } from '../test/fake-api.js';
import { FakeIntersectionObserver, renderWithClient } from '../test/render.js';
import type { Customer, Ticket, User } from './api.js';
import { startLive } from './live.js';
import { CustomersPage } from './pages/Customers.js';
import { QueuePage } from './pages/Queue.js';

const customers = Array.from({ length: 250 }, (_, i) => ({
  id: `c${i}`,
  name: `Customer ${i}`,
  email: `customer${i}@example.com`,
  company: null,
  customer_tier: null,
  is_vip: false,
  has_premium_support: false,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
})) as unknown as Customer[];

function ticketsOf(count: number): Ticket[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `t${i + 1}`,
    ticket_number: i + 1,
    ticket_display_id: `T-${i + 1}`,
    subject: `Ticket number ${i + 1}`,
    status: 'open',
    priority: 'medium',
    assigned_user_id: null,
    due_date: null,
    updated_at: new Date().toISOString(),
  })) as unknown as Ticket[];
}

const me = { id: 'u1', full_name: 'Dana Scully', email: 'dana@example.com' } as unknown as User;

beforeEach(() => {
  FakeIntersectionObserver.live.clear();
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
});
afterEach(() => vi.unstubAllGlobals());

// Counted by selector: role queries over hundreds of rows are slow in jsdom.
const rowsOf = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')];
const linksOf = (list: HTMLElement) => [...list.querySelectorAll('a')];

describe('the customers list, page by page', () => {
  it('shows the first page, then the next on "Load more" and on reaching the end, and ends with "End of list"', async () => {
    route((request, url) => (url.pathname === '/v1/customers' ? listPage(customers, url, 50) : undefined));
    renderWithClient(<CustomersPage path="/customers" />);
    const table = await screen.findByRole('table');
    await waitFor(() => expect(rowsOf(table)).toHaveLength(100));
    // No count of customers is known: the list says there is more.
    expect(screen.getByRole('status').textContent).toBe('Showing 100 — more');
    expect(screen.queryByText('End of list')).toBeNull();

    // The button is a real, focusable button (keyboard users reach it with Tab, press it with Enter or Space).
    const button = screen.getByRole('button', { name: 'Load more' });
    button.focus();
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    await waitFor(() => expect(rowsOf(table)).toHaveLength(200));
    expect(screen.getByRole('status').textContent).toBe('Showing 200 — more');

    // Scrolling near the end loads the last page.
    act(() => FakeIntersectionObserver.scrollIntoView());
    await waitFor(() => expect(rowsOf(table)).toHaveLength(250));
    expect(screen.getByText('End of list')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Showing 250 customers');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(rowsOf(table).at(-1)!.textContent).toContain('customer249@example.com');
    // The pages were read by the cursor of the Link header, never by offset.
    expect(requests).toEqual(['GET /v1/customers?limit=100', 'GET /v1/customers?limit=100&cursor=100', 'GET /v1/customers?limit=100&cursor=200']);
  });

  it('says "End of list" at once when the first page is the whole list', async () => {
    route((request, url) => (url.pathname === '/v1/customers' ? listPage(customers.slice(0, 7), url, 50) : undefined));
    renderWithClient(<CustomersPage path="/customers" />);
    await screen.findByText('End of list');
    expect(screen.getByRole('status').textContent).toBe('Showing 7 customers');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });
});

describe('the queue, page by page', () => {
  let tickets: Ticket[];
  beforeEach(() => {
    tickets = ticketsOf(120);
    route((request, url) => {
      if (url.pathname === '/v1/views') return json([]);
      if (url.pathname === '/v1/views/counts') return json({ counted_at: new Date().toISOString(), age_seconds: 0, views: [] });
      if (url.pathname === '/v1/users') return json([me]);
      if (url.pathname === '/v1/dashboard') return json({ open: { total: 120, unassigned: 120 }, open_by_agent: [], tickets: { by_status: { pending: 0 } } });
      if (url.pathname === '/v1/tickets') return listPage(tickets, url, 100);
      return undefined;
    });
  });

  it('counts what it shows against the queue count, and j on the last row loads the next page and moves on to it', async () => {
    renderWithClient(<QueuePage path="/queues/open" me={me} />);
    const rows = await screen.findByRole('list', { name: 'Tickets in All open' });
    await waitFor(() => expect(linksOf(rows)).toHaveLength(50));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Showing 50 of about 120'));

    const links = linksOf(rows);
    act(() => links[49]!.focus());
    fireEvent.keyDown(links[49]!, { key: 'j' });
    await waitFor(() => expect(linksOf(rows)).toHaveLength(100));
    // The step is taken once the page has arrived: the 51st ticket has the focus.
    await waitFor(() => expect(document.activeElement?.textContent).toContain('Ticket number 51'));
    expect(document.activeElement?.closest('li')?.className).toContain('selected');
    expect(requests.filter((r) => r.startsWith('GET /v1/tickets'))).toEqual([
      'GET /v1/tickets?status=new%2Copen%2Cpending&limit=50',
      'GET /v1/tickets?status=new%2Copen%2Cpending&limit=50&cursor=50',
    ]);

    // j at the very end: the last page loads, the focus moves on, and there is nothing after it.
    act(() => linksOf(rows)[99]!.focus());
    fireEvent.keyDown(document.activeElement!, { key: 'j' });
    await waitFor(() => expect(document.activeElement?.textContent).toContain('Ticket number 101'));
    await screen.findByText('End of list');
    act(() => linksOf(rows)[119]!.focus());
    fireEvent.keyDown(document.activeElement!, { key: 'j' });
    expect(document.activeElement?.textContent).toContain('Ticket number 120');
  });

  it('keeps every loaded page current when a live change arrives', async () => {
    const streams: FakeEventSource[] = [];
    class FakeEventSource extends EventTarget {
      static readonly CONNECTING = 0;
      readyState = 1;
      onopen: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(readonly url: string) {
        super();
        streams.push(this);
      }
      close(): void {}
      emit(type: string, data: unknown): void {
        this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }));
      }
    }
    vi.stubGlobal('EventSource', FakeEventSource);
    const { client } = renderWithClient(<QueuePage path="/queues/open" me={me} />);
    const stop = startLive(client);
    try {
      const rows = await screen.findByRole('list', { name: 'Tickets in All open' });
      await waitFor(() => expect(linksOf(rows)).toHaveLength(50));
      fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
      await waitFor(() => expect(linksOf(rows)).toHaveLength(100));

      // Ticket 75 (on the second page) is renamed, and ticket 10 leaves the queue (solved).
      tickets[74] = { ...tickets[74]!, subject: 'Renamed while listed' };
      tickets.splice(9, 1);
      act(() => streams[0]!.emit('change', { type: 'ticket.updated', resource_type: 'ticket', resource_id: 't75', ticket_id: 't75' }));
      await waitFor(() => expect(rows.textContent).toContain('Renamed while listed'));
      // Both pages were read again, the second from the first's new end: still the first 100 of the queue.
      const texts = linksOf(rows).map((a) => a.textContent ?? '');
      expect(texts).toHaveLength(100);
      expect(texts.some((t) => /^T-10Ticket/.test(t))).toBe(false);
      expect(texts[99]).toContain('T-101');
      expect(requests.filter((r) => r.startsWith('GET /v1/tickets')).slice(-2)).toEqual([
        'GET /v1/tickets?status=new%2Copen%2Cpending&limit=50',
        'GET /v1/tickets?status=new%2Copen%2Cpending&limit=50&cursor=50',
      ]);
    } finally {
      stop();
    }
  });
});
