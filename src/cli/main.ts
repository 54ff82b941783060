import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { migrateToLatest } from '../db/migrator.js';
import { openStore, type Store } from '../db/store.js';
import { AppError } from '../errors.js';
import { startServer } from '../server.js';
import { EVENTS_OPTIONS, printEvents } from './events.js';
import { EXPORT_OPTIONS, exportOrg } from './export.js';
import { checkImportFile, IMPORT_OPTIONS, importOrg, openBlobs } from './import.js';
import { CliError, type CliIo, UsageError } from './io.js';
import { createKey, KEY_OPTIONS, KEY_ORG_OPTIONS, listKeys, revokeKey } from './keys.js';
import { createOrg, listOrgs, ORG_OPTIONS } from './orgs.js';
import { SEED_OPTIONS, parseTicketCount, seedOrg } from './seed.js';
import { addMailboxCommand, listMailboxesCommand, MAILBOX_ADD_OPTIONS, MAILBOX_ORG_OPTIONS, removeMailboxCommand, testMailboxCommand } from './mailboxes.js';
import { createUserCommand, setPasswordCommand, USER_CREATE_OPTIONS, USER_ORG_OPTIONS } from './users.js';

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
  keys list [--org ID]       Print a table of the organization's keys, newest first: id, prefix,
                             name, role, scopes, created, expires, last used, revoked
  keys revoke <id-or-prefix> [--org ID]
                             Revoke a key, named by its id, its prefix (key_admin_a1B2c3) or the
                             key itself; it is refused from the next request on. Prints its id
  users create --email E --name N [--role admin|agent] [--org ID]
                             Create a user (agent; default role agent); prints its id alone on
                             standard output. The first admin of a new installation starts here
  users set-password EMAIL [--org ID]
                             Set the user's password (12 to 256 characters) from the first line
                             of standard input; ends their sessions. Prints nothing secret
  mailboxes list [--org ID]  Print a table of the organization's mailboxes: id, address, inbound,
                             state, default, name, last error
  mailboxes add --address A --name N [options]
                             Add a mailbox (the email channel); prints its id alone on standard
                             output. The first mailbox becomes the organization's default
      --inbound imap|smtp|none   How mail comes in (default: imap with --imap-host, else none)
      --imap-host H --imap-user U [--imap-port P] [--imap-security tls|starttls|none] [--imap-folder F]
                             The IMAP server (port 993 with tls, the default, else 143); the
                             password is the first line of standard input
      --no-auto-reply        Send no acknowledgement when a ticket opens by mail
      --org ID               Organization (default: the first organization)
  mailboxes remove <id-or-address> [--org ID]
                             Remove a mailbox (its tickets and their mail stay); prints its id
  mailboxes test <id-or-address> [--org ID]
                             Sign in to the mailbox's IMAP server and open its folder; exits 1
                             with the server's words when that fails
  orgs create --name TEXT    Create an organization; prints its id alone on standard output
  orgs list                  Print a table of every organization, oldest first: id, created,
                             tickets (numbers given so far), name
  export --org ID [--out FILE]
                             Write one organization (rows, files, API keys) as NDJSON to FILE or
                             standard output, e.g. to move it to another store
  import [--in FILE]         Recreate an exported organization from FILE or standard input, all or
                             nothing (refused if it exists); prints its id alone on standard output
  events [options]           Print the organization's change feed as JSON lines, oldest first
      --org ID               Organization (default: the first organization)
      --after CURSOR|now     Only the events after this cursor (printed at the end of each run);
                             now: from the feed's current end (with --follow, only new events)
      --types a,b            Only these event types (ticket.created,comment.created,...)
      --follow               Keep printing new events until interrupted (Ctrl-C)
  seed [options]             Fill an organization with demo data through the API: 4 teams, 8 agents,
                             16 customers, tickets across statuses and priorities, comments,
                             attachments, a demo mailbox, and a workflow (office hours, two SLA
                             policies, three triggers, one automation); prints the organization's id
      --org ID               Organization (default: the first organization)
      --tickets N            Tickets to create, 1 to 1000 (default: 50)
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
      case 'keys':
        return await keys(rest, io, env);
      case 'orgs':
        return await orgs(rest, io, env);
      case 'users':
        return await users(rest, io, env);
      case 'mailboxes':
        return await mailboxes(rest, io, env);
      case 'export': {
        const { values } = parseArgs({ args: rest, options: EXPORT_OPTIONS, strict: true });
        if (values.org === undefined) throw new UsageError("'export' needs --org ID");
        const options = { org: values.org, out: values.out };
        return await withStore(env, (store, _applied, config) => exportOrg({ store, blobs: openBlobs(config, store) }, options, io));
      }
      case 'events': {
        const { values } = parseArgs({ args: rest, options: EVENTS_OPTIONS, strict: true });
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        if (values.follow) process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
        try {
          return await withStore(env, (store) => printEvents(store, values, io, stop.signal));
        } finally {
          process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
        }
      }
      case 'seed': {
        const { values } = parseArgs({ args: rest, options: SEED_OPTIONS, strict: true });
        parseTicketCount(values.tickets);
        return await withStore(env, (store, _applied, config) => seedOrg({ store, blobs: openBlobs(config, store), config }, values, io));
      }
      case 'import': {
        const { values } = parseArgs({ args: rest, options: IMPORT_OPTIONS, strict: true });
        await checkImportFile(values.in);
        return await withStore(env, (store, _applied, config) => importOrg({ store, blobs: openBlobs(config, store) }, values, io));
      }
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    return report(error, io);
  }
}

/** `ticketing keys create|list|revoke`. Arguments are checked before the store is opened, so a typo creates no data directory. */
async function keys(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'create': {
      const { values } = parseArgs({ args: rest, options: KEY_OPTIONS, strict: true });
      return withStore(env, (store, _applied, config) => createKey(store, values, io, config.caps.apiKeys));
    }
    case 'list': {
      const { values } = parseArgs({ args: rest, options: KEY_ORG_OPTIONS, strict: true });
      return withStore(env, (store) => listKeys(store, values, io));
    }
    case 'revoke': {
      const { values, positionals } = parseArgs({ args: rest, options: KEY_ORG_OPTIONS, strict: true, allowPositionals: true });
      if (positionals.length !== 1) throw new UsageError("'keys revoke' needs exactly one key id or prefix");
      const reference = positionals[0]!;
      return withStore(env, (store) => revokeKey(store, reference, values, io));
    }
    default:
      throw new UsageError(action === undefined ? "'keys' needs a sub-command" : `unknown sub-command 'keys ${action}'`);
  }
}

/** `ticketing users create|set-password`. */
async function users(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'create': {
      const { values } = parseArgs({ args: rest, options: USER_CREATE_OPTIONS, strict: true });
      if (values.email === undefined || values.name === undefined) throw new UsageError("'users create' needs --email E and --name N");
      const options = { org: values.org, email: values.email, name: values.name, role: values.role };
      return withStore(env, (store) => createUserCommand(store, options, io));
    }
    case 'set-password': {
      const { values, positionals } = parseArgs({ args: rest, options: USER_ORG_OPTIONS, strict: true, allowPositionals: true });
      if (positionals.length !== 1) throw new UsageError("'users set-password' needs exactly one EMAIL (the password comes from standard input)");
      const email = positionals[0]!;
      return withStore(env, (store) => setPasswordCommand(store, email, values, io));
    }
    default:
      throw new UsageError(action === undefined ? "'users' needs a sub-command" : `unknown sub-command 'users ${action}'`);
  }
}

/** `ticketing mailboxes list|add|remove|test`. */
async function mailboxes(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'list': {
      const { values } = parseArgs({ args: rest, options: MAILBOX_ORG_OPTIONS, strict: true });
      return withStore(env, (store, _applied, config) => listMailboxesCommand({ store, config }, values, io));
    }
    case 'add': {
      const { values } = parseArgs({ args: rest, options: MAILBOX_ADD_OPTIONS, strict: true });
      if (values.address === undefined || values.name === undefined) throw new UsageError("'mailboxes add' needs --address A and --name N");
      return withStore(env, (store, _applied, config) => addMailboxCommand({ store, config }, values, io));
    }
    case 'remove':
    case 'test': {
      const { values, positionals } = parseArgs({ args: rest, options: MAILBOX_ORG_OPTIONS, strict: true, allowPositionals: true });
      if (positionals.length !== 1) throw new UsageError(`'mailboxes ${action}' needs exactly one mailbox id or address`);
      const reference = positionals[0]!;
      const command = action === 'remove' ? removeMailboxCommand : testMailboxCommand;
      return withStore(env, (store, _applied, config) => command({ store, config }, reference, values, io));
    }
    default:
      throw new UsageError(action === undefined ? "'mailboxes' needs a sub-command" : `unknown sub-command 'mailboxes ${action}'`);
  }
}

/** `ticketing orgs create|list`. */
async function orgs(args: string[], io: CliIo, env: NodeJS.ProcessEnv): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'create': {
      const { values } = parseArgs({ args: rest, options: ORG_OPTIONS, strict: true });
      if (values.name === undefined) throw new UsageError("'orgs create' needs --name TEXT");
      const name = values.name;
      return withStore(env, (store) => createOrg(store, { name }, io));
    }
    case 'list':
      parseArgs({ args: rest, options: {}, strict: true });
      return withStore(env, (store) => listOrgs(store, io));
    default:
      throw new UsageError(action === undefined ? "'orgs' needs a sub-command" : `unknown sub-command 'orgs ${action}'`);
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

/** Opens the store and brings its schema up to date; resolves to the migrations applied. */
async function withStore(
  env: NodeJS.ProcessEnv,
  run: (store: Store, applied: string[], config: Config) => Promise<number>,
): Promise<number> {
  const config = loadConfig(env);
  const store = openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
  try {
    // Keys and organizations need the tables; migrating is idempotent and cheap when up to date.
    const applied = await migrateToLatest(store.db);
    return await run(store, applied, config);
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
