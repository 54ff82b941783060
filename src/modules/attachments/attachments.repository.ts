import type { Executor } from '../../shared/executor.js';

/** Ids of the attachments of some tickets, so their stored bytes can be removed after the rows. */
export async function attachmentIdsOfTickets(db: Executor, organizationId: string, ticketIds: string[]): Promise<string[]> {
  if (ticketIds.length === 0) return [];
  const rows = await db
    .selectFrom('attachments')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('ticket_id', 'in', ticketIds)
    .execute();
  return rows.map((r) => r.id);
}
