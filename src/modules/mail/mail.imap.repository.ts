import type { MailboxRow } from '../../db/types.js';
import type { Executor } from '../../shared/executor.js';

/** Mailboxes of inbound type imap that are due and not leased (candidates: the claim decides). */
export function dueImapMailboxes(db: Executor, now: string): Promise<Array<Pick<MailboxRow, 'id'>>> {
  return db
    .selectFrom('mailboxes')
    .select('id')
    .where('inbound', 'like', '{"type":"imap"%')
    .where('state', '!=', 'paused')
    .where((eb) => eb.or([eb('next_check_at', 'is', null), eb('next_check_at', '<=', now)]))
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
    .orderBy('next_check_at')
    .limit(50)
    .execute();
}

/** Leases the mailbox to `owner` if no one holds it; the row, or undefined when another process has it. */
export function claimImapMailbox(db: Executor, candidate: Pick<MailboxRow, 'id'>, owner: string, now: string, until: string): Promise<MailboxRow | undefined> {
  return db
    .updateTable('mailboxes')
    .set({ lease_owner: owner, lease_expires_at: until })
    .where('id', '=', candidate.id)
    .where('state', '!=', 'paused')
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** The folder's UIDVALIDITY and the last UID taken, after each message. */
export async function recordImapProgress(db: Executor, id: string, owner: string, validity: string, lastUid: number): Promise<void> {
  await db.updateTable('mailboxes').set({ imap_uid_validity: validity, imap_last_uid: lastUid }).where('id', '=', id).where('lease_owner', '=', owner).execute();
}

/** Ends a check: the state, the server's words on failure, when it is next due; the lease released. */
export async function finishImapCheck(
  db: Executor,
  id: string,
  owner: string,
  result: { ok: true; now: string; next: string } | { ok: false; now: string; next: string; error: string; failures: number },
): Promise<void> {
  const common = { lease_owner: null, lease_expires_at: null, next_check_at: result.next, last_checked_at: result.now };
  const changes = result.ok ? { ...common, last_error: null, failures: 0 } : { ...common, last_error: result.error.slice(0, 1000), failures: result.failures };
  await db.updateTable('mailboxes').set(changes).where('id', '=', id).where('lease_owner', '=', owner).execute();
  // The state follows, unless the mailbox was paused meanwhile.
  await db
    .updateTable('mailboxes')
    .set({ state: result.ok ? 'active' : 'failing' })
    .where('id', '=', id)
    .where('state', '!=', 'paused')
    .execute();
}

/**
 * Keeps a watched mailbox leased to `owner` until `until` and marks it checked (active, no error);
 * its inbound settings, or undefined when it is no longer this process's (paused, deleted, taken).
 */
export async function holdImapMailbox(db: Executor, id: string, owner: string, now: string, until: string): Promise<string | undefined> {
  const row = await db
    .updateTable('mailboxes')
    .set({ lease_expires_at: until, last_checked_at: now, last_error: null, failures: 0, state: 'active' })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('state', '!=', 'paused')
    .returning('inbound')
    .executeTakeFirst();
  return row?.inbound;
}
