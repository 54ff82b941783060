import type { ParseArgsConfig } from 'node:util';
import { createApiKey } from '../auth/api-keys.service.js';
import type { KeyRole } from '../auth/api-keys.js';
import type { Store } from '../db/store.js';
import { firstOrganizationId, organizationExists } from '../modules/organizations/organizations.repository.js';
import { CliError, type CliIo } from './io.js';

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
export async function createKey(store: Store, options: KeyCreateOptions, io: CliIo): Promise<number> {
  const role = ROLES[options.role ?? 'admin'];
  if (!role) throw new CliError(`--role must be admin or readonly, not '${options.role}'`);
  const name = options.name ?? 'CLI key';
  if (name.trim().length === 0) throw new CliError('--name must not be empty');
  const scopes = options.scopes?.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (scopes && scopes.length === 0) throw new CliError('--scopes names no scope; omit it for the default scopes');

  const organizationId = options.org ?? (await firstOrganizationId(store.db));
  if (organizationId === undefined) {
    throw new CliError('the store has no organization yet; run `ticketing serve` once or `ticketing orgs create --name TEXT`');
  }
  if (!(await organizationExists(store.db, organizationId))) throw new CliError(`organization ${organizationId} not found`);

  // createApiKey checks the scopes against the role (decisions §2) and throws before writing.
  const { key, record } = await createApiKey(store.db, { organizationId, role, name, scopes });
  io.stdout.write(`${key}\n`);
  const expiry = record.expires_at === null ? 'never expires' : `expires ${String(record.expires_at)}`;
  io.stderr.write(`Created ${role} key ${record.key_prefix}… in organization ${organizationId}; it ${expiry}. It is shown only this once.\n`);
  return 0;
}
