import type { ParseArgsConfig } from 'node:util';
import { createApiKey } from '../auth/keys.service.js';
import type { KeyRole } from '../auth/key-format.js';
import { ALL_SCOPES, READ_SCOPES } from '../auth/scopes.js';
import type { Store } from '../db/store.js';
import type { ApiKey } from '../modules/api-keys/api-keys.schemas.js';
import { apiKeyCreated, findOrganizationKeys, listOrganizationKeys, revokeOrganizationKey } from '../modules/api-keys/api-keys.service.js';
import { SYSTEM_ACTOR, withEvents } from '../modules/events/events.log.js';
import { firstOrganizationId, organizationExists } from '../modules/organizations/organizations.repository.js';
import { CliError, type CliIo, writeTable } from './io.js';

export const KEY_OPTIONS = {
  org: { type: 'string' },
  role: { type: 'string' },
  name: { type: 'string' },
  scopes: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export interface KeyCreateOptions {
  org?: string | undefined;
  role?: string | undefined;
  name?: string | undefined;
  scopes?: string | undefined;
}

const ROLES: Record<string, KeyRole> = { admin: 'admin', readonly: 'readonly' };

/** `ticketing keys create`: the new key alone on stdout, shown this once. */
export async function createKey(store: Store, options: KeyCreateOptions, io: CliIo, maxActive: number): Promise<number> {
  const role = ROLES[options.role ?? 'admin'];
  if (!role) throw new CliError(`--role must be admin or readonly, not '${options.role}'`);
  const name = options.name ?? 'CLI key';
  if (name.trim().length === 0) throw new CliError('--name must not be empty');
  const scopes = options.scopes?.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (scopes && scopes.length === 0) throw new CliError('--scopes names no scope; omit it for the default scopes');

  const organizationId = await resolveOrganization(store, options.org);
  // createApiKey checks the scopes against the role and throws before writing.
  const { key, record } = await withEvents(store.db, organizationId, SYSTEM_ACTOR, async (trx, events) => {
    const created = await createApiKey(trx, { organizationId, role, name, scopes, maxActive });
    events.add(apiKeyCreated(created.record));
    return created;
  });
  io.stdout.write(`${key}\n`);
  const expiry = record.expires_at === null ? 'never expires' : `expires ${String(record.expires_at)}`;
  io.stderr.write(`Created ${role} key ${record.key_prefix}… in organization ${organizationId}; it ${expiry}. It is shown only this once.\n`);
  return 0;
}

export const KEY_ORG_OPTIONS = {
  org: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** The organization named by --org, or the first one; a missing one is a one-line failure. */
export async function resolveOrganization(store: Store, org: string | undefined): Promise<string> {
  const organizationId = org ?? (await firstOrganizationId(store.db));
  if (organizationId === undefined) {
    throw new CliError('the store has no organization yet; run `ticketing serve` once or `ticketing orgs create --name TEXT`');
  }
  if (!(await organizationExists(store.db, organizationId))) throw new CliError(`organization ${organizationId} not found`);
  return organizationId;
}

const COLUMNS = ['ID', 'PREFIX', 'NAME', 'ROLE', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED'] as const;

/** A timestamp to the second, or `-`. */
const when = (iso: string | null): string => (iso === null ? '-' : `${iso.slice(0, 19)}Z`);

function scopesCell(scopes: string[]): string {
  const sorted = (list: readonly string[]) => [...list].sort().join(',');
  if (sorted(scopes) === sorted(ALL_SCOPES)) return 'all';
  if (sorted(scopes) === sorted(READ_SCOPES)) return 'all :read';
  return scopes.length === 0 ? '(none)' : scopes.join(',');
}

/** Names are free text: control characters would break the table's lines and columns. */
// eslint-disable-next-line no-control-regex
const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f]+/g, ' ');

function keyRow(key: ApiKey, now: number): string[] {
  const expired = key.expires_at !== null && Date.parse(key.expires_at) <= now;
  return [
    key.id,
    key.key_prefix,
    oneLine(key.name),
    key.role,
    scopesCell(key.scopes),
    when(key.created_at),
    expired ? `${when(key.expires_at)} (expired)` : when(key.expires_at),
    when(key.last_used_at),
    when(key.revoked_at),
  ];
}

/** `ticketing keys list`: a table of the organization's keys, newest first, on stdout. */
export async function listKeys(store: Store, options: { org?: string | undefined }, io: CliIo): Promise<number> {
  const organizationId = await resolveOrganization(store, options.org);
  const keys = await listOrganizationKeys(store.db, organizationId);
  const now = Date.now();
  writeTable(io.stdout, COLUMNS, keys.map((k) => keyRow(k, now)));
  io.stderr.write(`${keys.length} key(s) in organization ${organizationId}\n`);
  return 0;
}

/** `ticketing keys revoke <id-or-prefix>`: the revoked key's id alone on stdout. */
export async function revokeKey(store: Store, reference: string, options: { org?: string | undefined }, io: CliIo): Promise<number> {
  const organizationId = await resolveOrganization(store, options.org);
  const matches = await findOrganizationKeys(store.db, organizationId, reference);
  if (matches.length === 0) {
    throw new CliError(
      `no key matches '${reference}' in organization ${organizationId}; give a key id, the key itself, or a prefix such as key_admin_a1B2c3 (see \`ticketing keys list\`)`,
    );
  }
  if (matches.length > 1) {
    throw new CliError(`'${reference}' matches ${matches.length} keys (${matches.map((k) => k.id).join(', ')}); give the key id instead`);
  }
  const key = matches[0]!;
  const revoked = await revokeOrganizationKey(store.db, organizationId, key.id);
  io.stdout.write(`${key.id}\n`);
  io.stderr.write(
    revoked
      ? `Revoked ${key.role} key ${key.key_prefix}… ("${oneLine(key.name)}"); it is refused from now on.\n`
      : `Key ${key.key_prefix}… ("${oneLine(key.name)}") was already revoked at ${String(key.revoked_at)}; nothing changed.\n`,
  );
  return 0;
}
