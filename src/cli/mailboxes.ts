import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import type { MailboxRow } from '../db/types.js';
import { imapClient } from '../modules/mail/mail.imap.worker.js';
import { findMailboxByAddress, listMailboxRows } from '../modules/mail/mailboxes.repository.js';
import type { CreateMailboxBody } from '../modules/mail/mailboxes.schemas.js';
import { createMailbox, deleteMailbox, getMailboxRow, presentMailbox } from '../modules/mail/mailboxes.service.js';
import { parseInbound } from '../modules/mail/mailboxes.settings.js';
import { CliError, type CliIo, firstLine, UsageError, writeTable } from './io.js';
import { resolveOrganization } from './keys.js';

/**
 * `ticketing mailboxes list|add|remove|test`: the email channel's mailboxes from the command line,
 * through the same service as /v1/mailboxes (its checks, its cap). An IMAP password is read from
 * the first line of standard input, never from an option (shell history, the process list).
 */
export const MAILBOX_ADD_OPTIONS = {
  org: { type: 'string' },
  address: { type: 'string' },
  name: { type: 'string' },
  inbound: { type: 'string' },
  'imap-host': { type: 'string' },
  'imap-port': { type: 'string' },
  'imap-security': { type: 'string' },
  'imap-user': { type: 'string' },
  'imap-folder': { type: 'string' },
  'no-auto-reply': { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

export const MAILBOX_ORG_OPTIONS = { org: { type: 'string' } } as const satisfies ParseArgsConfig['options'];

type AddValues = { [K in keyof typeof MAILBOX_ADD_OPTIONS]?: (typeof MAILBOX_ADD_OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

type Deps = { store: Store; config: Pick<Config, 'mail'> };

export async function listMailboxesCommand(deps: Deps, options: { org?: string | undefined }, io: CliIo): Promise<number> {
  const organizationId = await resolveOrganization(deps.store, options.org);
  const rows = await listMailboxRows(deps.store.db, organizationId, { limit: 1000, offset: 0 });
  writeTable(
    io.stdout,
    ['ID', 'ADDRESS', 'INBOUND', 'STATE', 'DEFAULT', 'NAME', 'LAST ERROR'],
    rows.map((row) => {
      const mailbox = presentMailbox(row);
      const inbound = mailbox.inbound.type === 'imap' ? `imap ${mailbox.inbound.host}:${mailbox.inbound.port}` : mailbox.inbound.type;
      return [mailbox.id, mailbox.address, inbound, mailbox.state, mailbox.is_default ? 'yes' : '', mailbox.name, (mailbox.last_error ?? '').replace(/\s+/g, ' ')];
    }),
  );
  io.stderr.write(`${rows.length} mailbox(es)\n`);
  return 0;
}

/** `mailboxes add`: prints the new mailbox's id alone on standard output. */
export async function addMailboxCommand(deps: Deps, values: AddValues, io: CliIo): Promise<number> {
  if (values.address === undefined || values.name === undefined) throw new UsageError("'mailboxes add' needs --address A and --name N");
  const type = values.inbound ?? (values['imap-host'] === undefined ? 'none' : 'imap');
  if (type !== 'imap' && type !== 'smtp' && type !== 'none') throw new CliError(`--inbound must be imap, smtp or none, not '${type}'`);
  let inbound: CreateMailboxBody['inbound'] = { type };
  if (type === 'imap') {
    const host = values['imap-host'];
    const user = values['imap-user'];
    if (host === undefined || user === undefined) throw new UsageError('an IMAP mailbox needs --imap-host H and --imap-user U (the password comes from standard input)');
    const security = values['imap-security'] ?? 'tls';
    if (security !== 'tls' && security !== 'starttls' && security !== 'none') throw new CliError(`--imap-security must be tls, starttls or none, not '${security}'`);
    const port = Number(values['imap-port'] ?? (security === 'tls' ? 993 : 143));
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliError(`--imap-port must be a port number, not '${values['imap-port']}'`);
    const password = await firstLine(io.stdin ?? process.stdin);
    if (password === '') throw new CliError("the IMAP password (the first line of standard input) is empty: pipe it in, e.g. `printf '%s\\n' \"$PASSWORD\" | ticketing mailboxes add ...`");
    inbound = { type, host, port, security, username: user, password, ...(values['imap-folder'] === undefined ? {} : { folder: values['imap-folder'] }) };
  }
  const organizationId = await resolveOrganization(deps.store, values.org);
  const body: CreateMailboxBody = { address: values.address, name: values.name, inbound, ...(values['no-auto-reply'] ? { auto_reply: false } : {}) };
  const mailbox = await createMailbox(deps, organizationId, body);
  io.stdout.write(`${mailbox.id}\n`);
  io.stderr.write(`Created mailbox ${mailbox.address} (${mailbox.inbound.type}${mailbox.is_default ? ', the default' : ''}) in organization ${organizationId}.\n`);
  return 0;
}

/** The mailbox named by its id or address. */
async function resolveMailbox(deps: Deps, organizationId: string, reference: string): Promise<MailboxRow> {
  const byAddress = reference.includes('@') ? await findMailboxByAddress(deps.store.db, organizationId, reference.toLowerCase()) : undefined;
  if (byAddress) return byAddress;
  if (!/^[0-9a-f-]{36}$/i.test(reference)) throw new CliError(`no mailbox ${reference} in organization ${organizationId}`);
  try {
    return await getMailboxRow(deps.store.db, organizationId, reference);
  } catch {
    throw new CliError(`no mailbox ${reference} in organization ${organizationId}`);
  }
}

export async function removeMailboxCommand(deps: Deps, reference: string, options: { org?: string | undefined }, io: CliIo): Promise<number> {
  const organizationId = await resolveOrganization(deps.store, options.org);
  const row = await resolveMailbox(deps, organizationId, reference);
  await deleteMailbox(deps, organizationId, row.id);
  io.stdout.write(`${row.id}\n`);
  io.stderr.write(`Removed mailbox ${row.address}; its tickets and their mail stay.\n`);
  return 0;
}

/** `mailboxes test`: signs in to the mailbox's IMAP server and opens its folder; 0 when that works, 1 with the server's words otherwise. */
export async function testMailboxCommand(deps: Deps, reference: string, options: { org?: string | undefined }, io: CliIo): Promise<number> {
  const organizationId = await resolveOrganization(deps.store, options.org);
  const row = await resolveMailbox(deps, organizationId, reference);
  const settings = parseInbound(row.inbound);
  if (settings.type !== 'imap') {
    io.stderr.write(`Mailbox ${row.address} takes mail by ${settings.type === 'smtp' ? "the service's SMTP listener (MAIL_SMTP_PORT)" : 'POST /v1/mailboxes/{id}/messages only'}: there is no server to test.\n`);
    return 0;
  }
  const client = imapClient(settings);
  try {
    await client.connect();
    const status = await client.status(settings.folder, { messages: true, uidValidity: true });
    io.stdout.write(`ok ${settings.host}:${settings.port} ${settings.folder} messages=${status === false ? 0 : (status.messages ?? 0)}\n`);
    return 0;
  } catch (error) {
    const words = (error as { responseText?: string }).responseText ?? (error instanceof Error ? error.message : String(error));
    throw new CliError(`${row.address}: ${settings.host}:${settings.port} refused: ${words}`);
  } finally {
    await client.logout().catch(() => client.close());
  }
}
