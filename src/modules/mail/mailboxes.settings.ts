import { errors } from '../../errors.js';
import { mailHostProblem } from './mail.hosts.js';
import type { CreateMailboxBody, Mailbox, UpdateMailboxBody } from './mailboxes.schemas.js';

type Security = 'tls' | 'starttls' | 'none';

/** How mail comes in, as stored (the password included). */
export type InboundSettings =
  | { type: 'imap'; host: string; port: number; security: Security; username: string; password: string; folder: string }
  | { type: 'smtp' }
  | { type: 'none' };

/** The mailbox's own SMTP server, as stored; null: the installation's SMTP_URL. */
export type OutboundSettings = { host: string; port: number; security: Security; username: string | null; password: string | null } | null;

type InboundFields = Partial<{ type: InboundSettings['type']; host: string; port: number; security: Security; username: string; password: string; folder: string }>;
type OutboundFields = Partial<{ host: string; port: number; security: Security; username: string | null; password: string | null }>;

const IMAP_FIELDS = ['host', 'port', 'security', 'username', 'password'] as const;

export const parseInbound = (text: string): InboundSettings => JSON.parse(text) as InboundSettings;
export const parseOutbound = (text: string | null): OutboundSettings => (text === null ? null : (JSON.parse(text) as OutboundSettings));

function checkHost(field: string, host: string, allowPrivate: boolean): string {
  const problem = mailHostProblem(host, allowPrivate);
  if (problem !== null) throw errors.invalidField(field, problem);
  return host.toLowerCase();
}

/**
 * The inbound settings a create or update asks for: `given` merged into `current` (an update) or
 * alone (a create). 422 naming the field that is missing or refused.
 */
export function resolveInbound(given: InboundFields | undefined, current: InboundSettings | null, allowPrivate: boolean): InboundSettings {
  if (given === undefined) return current ?? { type: 'none' };
  const type = given.type ?? current?.type;
  if (type === undefined) throw errors.invalidField('body.inbound.type', 'is required');
  if (type !== 'imap') {
    const extra = Object.keys(given).filter((k) => k !== 'type');
    if (extra.length > 0) throw errors.invalidField(`body.inbound.${extra[0]}`, `is not used with inbound type ${type}`);
    return { type };
  }
  const base = current?.type === 'imap' ? current : undefined;
  const merged = { folder: 'INBOX', ...base, ...given };
  for (const field of IMAP_FIELDS) {
    if (merged[field] === undefined) throw errors.invalidField(`body.inbound.${field}`, 'is required for inbound type imap');
  }
  return {
    type: 'imap',
    host: checkHost('body.inbound.host', merged.host!, allowPrivate),
    port: merged.port!,
    security: merged.security!,
    username: merged.username!,
    password: merged.password!,
    folder: merged.folder,
  };
}

/** The outbound settings asked for, merged into `current` on an update; null for SMTP_URL. */
export function resolveOutbound(given: OutboundFields | null | undefined, current: OutboundSettings, allowPrivate: boolean): OutboundSettings {
  if (given === undefined) return current;
  if (given === null) return null;
  const merged = { username: null, password: null, ...current, ...given };
  for (const field of ['host', 'port', 'security'] as const) {
    if (merged[field] === undefined) throw errors.invalidField(`body.outbound.${field}`, 'is required');
  }
  if ((merged.username === null) !== (merged.password === null)) {
    throw errors.invalidField(merged.username === null ? 'body.outbound.username' : 'body.outbound.password', 'username and password go together (or neither, for a server without login)');
  }
  return {
    host: checkHost('body.outbound.host', merged.host!, allowPrivate),
    port: merged.port!,
    security: merged.security!,
    username: merged.username,
    password: merged.password,
  };
}

/** What the API shows of the settings: everything but passwords. */
export function presentInbound(settings: InboundSettings): Mailbox['inbound'] {
  if (settings.type !== 'imap') return { type: settings.type };
  return { type: 'imap', host: settings.host, port: settings.port, security: settings.security, username: settings.username, folder: settings.folder };
}

export function presentOutbound(settings: OutboundSettings): Mailbox['outbound'] {
  if (settings === null) return null;
  const shown = { host: settings.host, port: settings.port, security: settings.security };
  return settings.username === null ? shown : { ...shown, username: settings.username };
}

export type MailboxInput = CreateMailboxBody | UpdateMailboxBody;
