export const RESOURCES = ['tickets', 'comments', 'attachments', 'customers', 'teams', 'users'] as const;

/**
 * Every scope: those of spec §5.3 in a stable order, then the event and webhook scopes of
 * decisions §12 (the change feed has only a read scope; webhooks are managed like a resource),
 * then the email channel's mailboxes.
 */
export const ALL_SCOPES = [
  ...RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:delete`] as const),
  'dashboard:read',
  'events:read',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  'mailboxes:read',
  'mailboxes:write',
  'mailboxes:delete',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

export const READ_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(':read'));

export const isScope = (value: string): value is Scope => (ALL_SCOPES as readonly string[]).includes(value);
export const isReadScope = (scope: string): boolean => scope.endsWith(':read');
