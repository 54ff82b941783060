export const RESOURCES = ['tickets', 'comments', 'attachments', 'customers', 'teams', 'users'] as const;

/**
 * Every scope: those of spec §5.3 in a stable order, then the event and webhook scopes of
 * the events (the change feed has only a read scope; webhooks are managed like a resource), then
 * the custom ticket field definitions'.
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
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

export const READ_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(':read'));

export const isScope = (value: string): value is Scope => (ALL_SCOPES as readonly string[]).includes(value);
export const isReadScope = (scope: string): boolean => scope.endsWith(':read');
