import type { ParseArgsConfig } from 'node:util';
import type { Store } from '../db/store.js';
import { listOrganizations } from '../modules/organizations/organizations.repository.js';
import { createOrganization } from '../modules/organizations/organizations.service.js';
import { CliError, type CliIo, writeTable } from './io.js';

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

/** `ticketing orgs list`: a table of every organization, oldest first (the one `--org` defaults to is first). */
export async function listOrgs(store: Store, io: CliIo): Promise<number> {
  const orgs = await listOrganizations(store.db);
  writeTable(io.stdout, ['ID', 'CREATED', 'TICKETS', 'NAME'], orgs.map((o) => [o.id, String(o.created_at), String(o.ticket_counter), o.name.replace(/\s+/g, ' ')]));
  io.stderr.write(`${orgs.length} organization(s)\n`);
  return 0;
}
