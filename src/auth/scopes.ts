export const RESOURCES = ['tickets', 'comments', 'attachments', 'customers', 'teams', 'users'] as const;

/** Every scope of spec §5.3, in a stable order. */
export const ALL_SCOPES = [
  ...RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:delete`] as const),
  'dashboard:read',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

export const READ_SCOPES = ALL_SCOPES.filter((s) => s.endsWith(':read'));

export const isScope = (value: string): value is Scope => (ALL_SCOPES as readonly string[]).includes(value);
export const isReadScope = (scope: string): boolean => scope.endsWith(':read');
