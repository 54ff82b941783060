import type { ParseArgsConfig } from 'node:util';
import type { Store } from '../db/store.js';
import { AppError } from '../errors.js';
import { readFeed } from '../modules/events/events.service.js';
import { OPERATOR_VIEW } from '../modules/events/events.visibility.js';
import { CliError, type CliIo } from './io.js';
import { resolveOrganization } from './keys.js';

export const EVENTS_OPTIONS = {
  org: { type: 'string' },
  after: { type: 'string' },
  types: { type: 'string' },
  follow: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

export interface EventsOptions {
  org?: string | undefined;
  after?: string | undefined;
  types?: string | undefined;
  follow?: boolean | undefined;
}

const PAGE = 1000;
const FOLLOW_INTERVAL_MS = 1000;

/**
 * `ticketing events`: the organization's change feed (the same as GET /v1/events) as JSON lines on
 * standard output, from the start, after `--after CURSOR`, or from the current end (`--after now`); the cursor to resume from goes to
 * standard error at the end. With `--follow` it keeps printing new events until interrupted.
 */
export async function printEvents(store: Store, options: EventsOptions, io: CliIo, stop?: AbortSignal): Promise<number> {
  const organizationId = await resolveOrganization(store, options.org);
  if (options.after !== undefined && !/^(0|[1-9][0-9]{0,14}|now)$/.test(options.after)) {
    throw new CliError(`--after must be a cursor (a number such as 1047) or now (only events from now on), not '${options.after}'`);
  }
  let cursor = options.after;
  let count = 0;
  for (;;) {
    const page = await readFeed({ store }, { organizationId, ...OPERATOR_VIEW }, { after: cursor, types: options.types, limit: PAGE }).catch((error: unknown) => {
      if (error instanceof AppError && error.statusCode < 500) {
        const first = error.errors?.[0];
        throw new CliError(first ? `${first.field.replace(/^query\./, '--')} ${first.message}` : error.detail);
      }
      throw error;
    });
    for (const event of page.events) io.stdout.write(`${JSON.stringify(event)}\n`);
    count += page.events.length;
    cursor = page.next_cursor;
    if (page.has_more) continue;
    if (!options.follow || stop?.aborted) break;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, FOLLOW_INTERVAL_MS);
      stop?.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
    if (stop?.aborted) break;
  }
  io.stderr.write(`${count} event(s); continue after this with --after ${cursor}\n`);
  return 0;
}
