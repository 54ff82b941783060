import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { MailConfig } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { MailboxesTable, MailboxRow } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertIfMatch, type IfMatch } from '../../http/conditional.js';
import { creationTimeIso } from '../../shared/clock.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso, toIsoOrNull } from '../../shared/time.js';
import { isUniqueViolation } from '../customers/customers.repository.js';
import { assertBelowCap } from '../../limits/collection-caps.js';
import {
  clearDefault,
  countMailboxes,
  deleteMailboxRow,
  findDefaultMailbox,
  findMailbox,
  findMailboxByAddress,
  insertMailbox,
  listMailboxRows,
  updateMailboxRow,
} from './mailboxes.repository.js';
import type { CreateMailboxBody, Mailbox, UpdateMailboxBody } from './mailboxes.schemas.js';
import { parseInbound, parseOutbound, presentInbound, presentOutbound, resolveInbound, resolveOutbound } from './mailboxes.settings.js';

type MailboxPresented = Pick<
  MailboxRow,
  'id' | 'address' | 'name' | 'auto_reply' | 'is_default' | 'inbound' | 'outbound' | 'state' | 'last_error' | 'last_checked_at' | 'created_at' | 'updated_at'
>;

export interface MailboxDeps {
  store: Store;
  config: { mail: Pick<MailConfig, 'allowPrivate' | 'maxMailboxes'> };
}

/** The API shape of a mailbox: never its passwords, nor its intake bookkeeping. */
export function presentMailbox(row: MailboxPresented): Mailbox {
  return {
    id: row.id,
    address: row.address,
    name: row.name,
    auto_reply: row.auto_reply === 1,
    is_default: row.is_default === 1,
    inbound: presentInbound(parseInbound(row.inbound)),
    outbound: presentOutbound(parseOutbound(row.outbound)),
    state: row.state,
    last_error: row.last_error,
    last_checked_at: toIsoOrNull(row.last_checked_at),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

const duplicateAddress = (address: string) => errors.conflict(`This organization already has a mailbox for ${address}`);

export async function getMailboxRow(db: Executor, organizationId: string, id: string, lock = false): Promise<MailboxRow> {
  const row = await findMailbox(db, organizationId, id.toLowerCase(), lock);
  if (!row) throw errors.notFound('Mailbox');
  return row;
}

/**
 * Creates a mailbox. Without `is_default` it becomes the default when the organization has none;
 * with `is_default: true` the previous default stops being one. At most MAIL_MAX_MAILBOXES.
 */
export async function createMailbox(deps: MailboxDeps, organizationId: string, body: CreateMailboxBody): Promise<Mailbox> {
  const { allowPrivate, maxMailboxes } = deps.config.mail;
  const inbound = resolveInbound(body.inbound, null, allowPrivate);
  const outbound = resolveOutbound(body.outbound ?? null, null, allowPrivate);
  const address = body.address.toLowerCase();
  try {
    return await deps.store.db.transaction().execute(async (trx) => {
      await assertBelowCap(trx, organizationId, { collection: 'mailboxes', max: maxMailboxes, setting: 'MAIL_MAX_MAILBOXES', noun: 'mailboxes', remedy: 'delete one first' }, countMailboxes);
      if (await findMailboxByAddress(trx, organizationId, address)) throw duplicateAddress(address);
      const now = creationTimeIso();
      const id = randomUUID();
      const isDefault = body.is_default ?? !(await findDefaultMailbox(trx, organizationId));
      if (isDefault) await clearDefault(trx, organizationId, id, now);
      const row = {
        id,
        organization_id: organizationId,
        address,
        name: body.name,
        auto_reply: body.auto_reply === false ? 0 : 1,
        is_default: isDefault ? 1 : 0,
        inbound: JSON.stringify(inbound),
        outbound: outbound === null ? null : JSON.stringify(outbound),
        state: 'active' as const,
        last_error: null,
        last_checked_at: null,
        created_at: now,
        updated_at: now,
      };
      await insertMailbox(trx, row);
      return presentMailbox(row);
    });
  } catch (error) {
    // A concurrent create of the same address (or a second default) lost the race at the index.
    if (isUniqueViolation(error)) throw duplicateAddress(address);
    throw error;
  }
}

export async function listMailboxes(deps: MailboxDeps, organizationId: string, page: Page): Promise<Mailbox[]> {
  return (await listMailboxRows(deps.store.db, organizationId, page)).map(presentMailbox);
}

export async function getMailbox(deps: MailboxDeps, organizationId: string, id: string): Promise<Mailbox> {
  return presentMailbox(await getMailboxRow(deps.store.db, organizationId, id));
}

/**
 * Changes a mailbox. `inbound` and `outbound` are merged into the current settings, so a password
 * need not be sent again to change a port. Resuming (`state: active`) clears the last error.
 */
export async function updateMailbox(deps: MailboxDeps, organizationId: string, id: string, body: UpdateMailboxBody, ifMatch?: IfMatch): Promise<Mailbox> {
  const { allowPrivate } = deps.config.mail;
  try {
    return await deps.store.db.transaction().execute(async (trx) => {
      const current = await getMailboxRow(trx, organizationId, id, true);
      assertIfMatch(ifMatch, presentMailbox(current), 'The mailbox');
      const inbound = JSON.stringify(resolveInbound(body.inbound, parseInbound(current.inbound), allowPrivate));
      const outboundSettings = resolveOutbound(body.outbound, parseOutbound(current.outbound), allowPrivate);
      const outbound = outboundSettings === null ? null : JSON.stringify(outboundSettings);
      const changes: Updateable<MailboxesTable> = {};
      if (body.address !== undefined && body.address.toLowerCase() !== current.address) {
        const address = body.address.toLowerCase();
        if (await findMailboxByAddress(trx, organizationId, address)) throw duplicateAddress(address);
        changes.address = address;
      }
      if (body.name !== undefined && body.name !== current.name) changes.name = body.name;
      if (body.auto_reply !== undefined && Number(body.auto_reply) !== current.auto_reply) changes.auto_reply = Number(body.auto_reply);
      if (body.is_default !== undefined && Number(body.is_default) !== current.is_default) changes.is_default = Number(body.is_default);
      if (inbound !== current.inbound) {
        changes.inbound = inbound;
        // Another server, account or folder: its UIDs are not the ones tracked (duplicates are still caught).
        changes.imap_uid_validity = null;
        changes.imap_last_uid = 0;
        changes.next_check_at = null;
      }
      if (outbound !== current.outbound) changes.outbound = outbound;
      if (body.state !== undefined && body.state !== current.state) {
        changes.state = body.state;
        if (body.state === 'active') {
          changes.last_error = null;
          // Checked again at once, without the backoff of its failures.
          changes.next_check_at = null;
          changes.failures = 0;
        }
      }
      if (Object.keys(changes).length === 0) return presentMailbox(current);
      const now = nowIso();
      changes.updated_at = now;
      if (changes.is_default === 1) await clearDefault(trx, organizationId, current.id, now);
      await updateMailboxRow(trx, organizationId, current.id, changes);
      return presentMailbox({ ...current, ...changes });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateAddress(body.address?.toLowerCase() ?? '');
    throw error;
  }
}

export async function deleteMailbox(deps: MailboxDeps, organizationId: string, id: string, ifMatch?: IfMatch): Promise<void> {
  await deps.store.db.transaction().execute(async (trx) => {
    const current = await getMailboxRow(trx, organizationId, id, true);
    assertIfMatch(ifMatch, presentMailbox(current), 'The mailbox');
    if (!(await deleteMailboxRow(trx, organizationId, current.id))) throw errors.notFound('Mailbox');
  });
}
