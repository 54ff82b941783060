import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { importOrganization, type TransferDeps } from '../modules/organizations/transfer.service.js';
import type { BlobStore } from '../storage/blob-store.js';
import { openBlobStore } from '../storage/open-blob-store.js';
import { CliError, type CliIo } from './io.js';

export const IMPORT_OPTIONS = {
  in: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/** The attachment store the server would use for this configuration. */
export function openBlobs(config: Config, store: Store): BlobStore {
  return openBlobStore(config, store);
}

/** Fails before the store is opened when the input file cannot be read. */
export async function checkImportFile(file: string | undefined): Promise<void> {
  if (file === undefined) return;
  try {
    await access(file);
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
}

/**
 * `ticketing import [--in FILE]`: recreates an exported organization from FILE or standard input,
 * all or nothing. Prints the organization's id alone on standard output.
 */
export async function importOrg(deps: TransferDeps, options: { in?: string | undefined }, io: CliIo): Promise<number> {
  const input: Readable = options.in === undefined ? (io.stdin ?? process.stdin) : createReadStream(options.in);
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    const summary = await importOrganization(deps, lines);
    const c = summary.counts;
    io.stdout.write(`${summary.organizationId}\n`);
    io.stderr.write(
      `Imported organization "${summary.organizationName}" (${summary.organizationId}): ` +
        `${c.users ?? 0} users, ${c.teams ?? 0} teams, ${c.customers ?? 0} customers, ${c.tickets ?? 0} tickets, ` +
        `${c.comments ?? 0} comments, ${c.attachments ?? 0} attachments (${summary.fileBytes} bytes), ${c.api_keys ?? 0} API keys\n`,
    );
    return 0;
  } finally {
    lines.close();
    input.destroy();
  }
}
