import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { ParseArgsConfig } from 'node:util';
import { exportOrganization, type LineSink, type TransferDeps, type TransferSummary } from '../modules/organizations/transfer.service.js';
import type { CliIo } from './io.js';

export const EXPORT_OPTIONS = {
  org: { type: 'string' },
  out: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

/**
 * `ticketing export --org ID [--out FILE]`: the organization as NDJSON on standard output or in
 * FILE. A file is written under FILE.partial and renamed when complete, so FILE is never half an
 * export.
 */
export async function exportOrg(deps: TransferDeps, options: { org: string; out?: string | undefined }, io: CliIo): Promise<number> {
  let summary: TransferSummary;
  if (options.out === undefined) {
    summary = await exportOrganization(deps, options.org, sinkOf(io.stdout));
  } else {
    const partial = `${options.out}.partial`;
    const file = createWriteStream(partial);
    try {
      await once(file, 'open');
      summary = await exportOrganization(deps, options.org, sinkOf(file));
      await new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve())));
      await rename(partial, options.out);
    } catch (error) {
      file.destroy();
      await rm(partial, { force: true });
      throw error;
    }
  }
  const c = summary.counts;
  io.stderr.write(
    `Exported organization "${summary.organizationName}" (${summary.organizationId})${options.out ? ` to ${options.out}` : ''}: ` +
      `${c.users} users, ${c.teams} teams, ${c.customers} customers, ${c.tickets} tickets, ${c.comments} comments, ` +
      `${c.attachments} attachments (${summary.fileBytes} bytes), ${c.api_keys} API keys\n`,
  );
  return 0;
}

type Output = CliIo['stdout'] | WriteStream;

/** Writes lines, waiting for `drain` when the destination is a stream that asks for it. */
function sinkOf(output: Output): LineSink {
  const stream = output as Partial<WriteStream>;
  let failure: Error | null = null;
  stream.on?.('error', (error: Error) => {
    failure = error;
  });
  return async (line) => {
    if (failure) throw failure;
    const ok = output.write(`${line}\n`);
    if (ok === false && typeof stream.once === 'function') await once(stream as WriteStream, 'drain');
  };
}
