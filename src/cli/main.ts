import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { migrateToLatest } from '../db/migrator.js';
import { openStore, type Store } from '../db/store.js';
import { AppError } from '../errors.js';
import { startServer } from '../server.js';
import { CliError, type CliIo, UsageError } from './io.js';
import { createKey, KEY_OPTIONS } from './keys.js';
import { createOrg, ORG_OPTIONS } from './orgs.js';

export type { CliIo } from './io.js';

export const USAGE = `Usage: ticketing <command> [options]

Commands:
  serve                      Start the HTTP API (migrates the store first; on an empty store,
                             creates the default organization and prints an admin key once)
  migrate                    Bring the store's schema up to date
  keys create [options]      Create an API key; prints the key alone on standard output
      --org ID               Organization (default: the first organization)
      --role admin|readonly  Key role (default: admin); read-only keys expire after 72 hours
      --name TEXT            A label for the key (default: "CLI key")
      --scopes a,b           Comma-separated scopes (default: all scopes the role allows)
  orgs create --name TEXT    Create an organization; prints its id alone on standard output
  help                       Show this help

Configuration comes from environment variables (PORT, HOST, DATA_DIR, PUBLIC_URL, ...);
see README.md.
`;

/**
 * The `ticketing` command. Resolves to the process exit code: 0 success, 1 failure, 2 usage error.
 * Machine-readable results go to `io.stdout`; every human message goes to `io.stderr`.
 */
export async function main(
  argv: string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) throw new UsageError('no command given');
    if (command === 'help' || command === '--help' || command === '-h' || rest.includes('--help') || rest.includes('-h')) {
      io.stderr.write(USAGE);
      return 0;
    }
    switch (command) {
      case 'serve':
        return await serve(rest, io, env);
      case 'migrate':
        return await migrate(rest, io, env);
      case 'keys': {
        // Arguments are checked before the store is opened, so a typo creates no data directory.
        const { values } = parseArgs({ args: subcommand(command, rest, 'create'), options: KEY_OPTIONS, strict: true });
        return await withStore(env, (store) => createKey(store, values, io));
      }
      case 'orgs': {
        const { values } = parseArgs({ args: subcommand(command, rest, 'create'), options: ORG_OPTIONS, strict: true });
        if (values.name === undefined) throw new UsageError("'orgs create' needs --name TEXT");
        const name = values.name;
        return await withStore(env, (store) => createOrg(store, { name }, io));
      }
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    return report(error, io);
  }
}

function report(error: unknown, io: CliIo): number {
  if (error instanceof UsageError || isParseArgsError(error)) {
    io.stderr.write(`ticketing: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (error instanceof ConfigError || error instanceof CliError) {
    io.stderr.write(`ticketing: ${error.message}\n`);
    return 1;
  }
  if (error instanceof AppError) {
    // Service errors name request fields (`body.scopes`); the CLI's user knows them as options.
    const first = error.errors?.[0];
    const text = first ? `${first.field.replace(/^body\./, '--')}: ${first.message}` : error.detail;
    io.stderr.write(`ticketing: ${text}\n`);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`ticketing: ${message}\n`);
  return 1;
}

/** node:util parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or bad options. */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** The arguments after `<group> <expected>`; anything else there is a usage error. */
function subcommand(group: string, args: string[], expected: string): string[] {
  const [action, ...rest] = args;
  if (action !== expected) {
    throw new UsageError(action === undefined ? `'${group}' needs a sub-command` : `unknown sub-command '${group} ${action}'`);
  }
  return rest;
}

/** Opens the store and brings its schema up to date; resolves to the migrations applied. */
async function withStore(env: NodeJS.ProcessEnv, run: (store: Store, applied: string[]) => Promise<number>): Promise<number> {
  const config = loadConfig(env);
  const store = openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    // Keys and organizations need the tables; migrating is idempotent and cheap when up to date.
    const applied = await migrateToLatest(store.db);
    return await run(store, applied);
  } finally {
    await store.close();
  }
}

async function migrate(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  return withStore(env, async (_store, applied) => {
    for (const name of applied) io.stderr.write(`applied ${name}\n`);
    io.stderr.write(applied.length === 0 ? 'schema is up to date\n' : `${applied.length} migration(s) applied\n`);
    return 0;
  });
}

async function serve(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  parseArgs({ args, options: {}, strict: true });
  const config = loadConfig(env);
  const server = await startServer(config, { output: io, handleSignals: true });
  return server.closed;
}
