import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { json, route } from '../../test/fake-api.js';
import { renderWithClient } from '../../test/render.js';
import type { Ticket, User } from '../api.js';
import { CONFLICT, useTicket, useUpdateTicket } from '../ticket-data.js';
import { Properties } from './TicketSide.js';

const me = { id: 'u1', full_name: 'Dana Scully', email: 'dana@example.com', is_active: true } as unknown as User;

/** The ticket's properties as the ticket page wires them: loaded with its ETag, changed with If-Match, a 412 shown as a conflict. */
function PropertiesOf({ id }: { id: string }) {
  const [conflict, setConflict] = useState(false);
  const loaded = useTicket(id);
  const update = useUpdateTicket(id, () => setConflict(true));
  if (!loaded.data) return <p>Loading…</p>;
  return (
    <>
      {conflict && <p role="alert">{CONFLICT}</p>}
      <Properties ticket={loaded.data.ticket} me={me} busy={update.isPending} update={(changes) => update.mutate(changes)} />
    </>
  );
}

/** One ticket on a fake service that keeps a version, answers its ETag, and refuses a stale If-Match with 412. */
function serveTicket() {
  const state = { version: 1, ticket: { id: 't1', ticket_number: 1, subject: 'Printer on fire', status: 'open', priority: 'medium', assigned_user_id: null, assigned_team_id: null, category: null, due_date: null, tags: [] } as unknown as Ticket };
  const patches: { ifMatch: string | null; body: unknown }[] = [];
  route(async (request, url) => {
    if (url.pathname === '/v1/users') return json([me]);
    if (url.pathname === '/v1/teams' || url.pathname === '/v1/ticket-fields') return json([]);
    if (url.pathname !== '/v1/tickets/t1') return undefined;
    const etag = () => ({ etag: `"v${state.version}"` });
    if (request.method === 'GET') return json(state.ticket, { headers: etag() });
    const body = (await request.json()) as Partial<Ticket>;
    patches.push({ ifMatch: request.headers.get('if-match'), body });
    if (request.headers.get('if-match') !== etag().etag) return json({ detail: 'The ticket changed since the ETag given' }, { status: 412 });
    state.ticket = { ...state.ticket, ...body };
    state.version++;
    return json(state.ticket, { headers: etag() });
  });
  return { state, patches };
}

describe('ticket properties against a stale copy (If-Match, 412)', () => {
  it('says the ticket changed, writes nothing, shows the ticket as it now is, and the next change goes through', async () => {
    const server = serveTicket();
    renderWithClient(<PropertiesOf id="t1" />);
    const status = await screen.findByLabelText<HTMLSelectElement>('Status');
    const priority = screen.getByLabelText<HTMLSelectElement>('Priority');
    expect(status.value).toBe('open');

    // Another agent raises the priority meanwhile.
    server.state.ticket = { ...server.state.ticket, priority: 'urgent' };
    server.state.version++;

    fireEvent.change(status, { target: { value: 'pending' } });
    expect((await screen.findByRole('alert')).textContent).toBe(CONFLICT);
    expect(server.patches).toEqual([{ ifMatch: '"v1"', body: { status: 'pending' } }]);
    // Reloaded: the other agent's change shows, and the refused one is not pretended.
    await waitFor(() => expect(priority.value).toBe('urgent'));
    expect(status.value).toBe('open');
    expect(server.state.ticket.status).toBe('open');

    // Now against the fresh copy: accepted.
    fireEvent.change(status, { target: { value: 'pending' } });
    await waitFor(() => expect(server.state.ticket.status).toBe('pending'));
    expect(server.patches[1]).toEqual({ ifMatch: '"v2"', body: { status: 'pending' } });
    await waitFor(() => expect(status.value).toBe('pending'));
  });
});
