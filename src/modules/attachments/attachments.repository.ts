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

/** Which of these ids have an attachment row (any organization); used by the start-up sweep. */
export async function existingAttachmentIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('attachments').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}
