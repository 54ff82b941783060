export const RESOURCES = ['tickets', 'comments', 'attachments', 'customers', 'teams', 'users'] as const;

/**
 * Every scope: each resource's read, write and delete and the dashboard's read, in a stable order;
 * then the event and webhook scopes (the change feed has only a read scope; webhooks are managed
 * like a resource), then the custom ticket field definitions', the email channel's mailboxes, saved views, macros,
 * triggers and automations (one set of scopes for both; agents hold none of them), and SLA's (business hours; SLA policies).
 */
export const ALL_SCOPES = [
  ...RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:delete`] as const),
  'dashboard:read',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  'fields:read',
  'fields:write',
  'fields:delete',
  'mailboxes:read',
  'mailboxes:write',
  'mailboxes:delete',
  'views:read',
  'views:write',
  'views:delete',
  'macros:read',
  'macros:write',
  'macros:delete',
  'automations:read',
  'automations:write',
  'automations:delete',
  'sla:read',
  'sla:write',
  'sla:delete',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

export const READ_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(':read'));

export const isScope = (value: string): value is Scope => (ALL_SCOPES as readonly string[]).includes(value);
export const isReadScope = (scope: string): boolean => scope.endsWith(':read');

/** The roles of users (agents); a signed-in session's scopes follow its user's role. */
export type UserRole = 'admin' | 'agent';

/** Resources an agent may read, write and delete, whichever of them exist today. */
const AGENT_RESOURCES = ['tickets', 'comments', 'attachments', 'views', 'macros'];
/** Single scopes an agent holds beyond those resources. */
const AGENT_SCOPES = ['customers:read', 'customers:write', 'teams:read', 'users:read', 'fields:read', 'sla:read', 'dashboard:read', 'events:read'];

/**
 * The scopes of a session by its user's role (docs/api-behaviour.md, "Signing in"): `admin` holds
 * every scope; `agent` works tickets and customers but manages nothing. Scopes of modules not
 * present (views, macros, fields, sla) are simply absent until their modules add them here.
 */
export const ROLE_SCOPES: Record<UserRole, ReadonlySet<Scope>> = {
  admin: new Set(ALL_SCOPES),
  agent: new Set(ALL_SCOPES.filter((s) => AGENT_RESOURCES.includes(s.split(':')[0]!) || AGENT_SCOPES.includes(s))),
};
