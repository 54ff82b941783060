import type { ParseArgsConfig } from 'node:util';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/passwords.js';
import type { Store } from '../db/store.js';
import { SYSTEM_ACTOR } from '../modules/events/events.log.js';
import { USER_ROLES } from '../modules/users/users.schemas.js';
import { createUser, setPasswordByEmail } from '../modules/users/users.service.js';
import { CliError, type CliIo, firstLine } from './io.js';
import { resolveOrganization } from './keys.js';

export const USER_CREATE_OPTIONS = {
  org: { type: 'string' },
  email: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const USER_ORG_OPTIONS = {
  org: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export interface UserCreateOptions {
  org?: string | undefined;
  email: string;
  name: string;
  role?: string | undefined;
}

/** `ticketing users create`: the new user's id alone on stdout (e.g. the first admin of a new installation). */
export async function createUserCommand(store: Store, options: UserCreateOptions, io: CliIo): Promise<number> {
  const role = options.role ?? 'agent';
  if (!(USER_ROLES as readonly string[]).includes(role)) throw new CliError(`--role must be admin or agent, not '${role}'`);
  if (!/^[^\s@]+@[^\s@]+$/.test(options.email)) throw new CliError(`--email must be an address like someone@example.com, not '${options.email}'`);
  if (options.name.length < 1 || options.name.length > 255) throw new CliError('--name must be 1 to 255 characters');
  const organizationId = await resolveOrganization(store, options.org);
  const user = await createUser({ store }, organizationId, { email: options.email, full_name: options.name, role: role as 'admin' | 'agent' }, SYSTEM_ACTOR);
  io.stdout.write(`${user.id}\n`);
  io.stderr.write(`Created ${user.role} ${user.email} in organization ${organizationId}; give them a password with \`ticketing users set-password ${user.email}\`.\n`);
  return 0;
}

/**
 * `ticketing users set-password EMAIL`: the password is the first line of standard input (so it
 * never stands in the shell's history or the process list); nothing secret is printed.
 */
export async function setPasswordCommand(store: Store, email: string, options: { org?: string | undefined }, io: CliIo): Promise<number> {
  const password = await firstLine(io.stdin ?? process.stdin);
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new CliError(`the password (the first line of standard input) must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`);
  }
  const organizationId = await resolveOrganization(store, options.org);
  try {
    await setPasswordByEmail({ store }, organizationId, email, password, SYSTEM_ACTOR);
  } catch (error) {
    if ((error as { statusCode?: unknown }).statusCode === 404) throw new CliError(`no user with the email ${email} in organization ${organizationId}`);
    throw error;
  }
  io.stderr.write(`Password set for ${email}; their earlier sessions are ended.\n`);
  return 0;
}
