import type { ParseArgsConfig } from 'node:util';
import type { Store } from '../db/store.js';
import { createOrganization } from '../modules/organizations/organizations.service.js';
import { CliError, type CliIo } from './io.js';

export const ORG_OPTIONS = {
  name: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** `ticketing orgs create --name TEXT`: the new organization's id alone on stdout. */
export async function createOrg(store: Store, options: { name: string }, io: CliIo): Promise<number> {
  const name = options.name.trim();
  if (name.length === 0 || name.length > 255) throw new CliError('--name must be 1 to 255 characters');
  const id = await createOrganization(store.db, name);
  io.stdout.write(`${id}\n`);
  io.stderr.write(`Created organization "${name}". Make its first key with: ticketing keys create --org ${id}\n`);
  return 0;
}
