import { Type, type Static } from 'typebox';
import { ALL_SCOPES } from '../../auth/scopes.js';
import { DateTime, named, Nullable, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';

export const KEY_ROLES = ['admin', 'readonly'] as const;
export const KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

const Name = Type.String({ minLength: 1, maxLength: 255, description: 'A label for people; grants nothing' });
const Scope = StringEnum(ALL_SCOPES);
const Scopes = Type.Array(Scope, { maxItems: 100, description: 'resource:action scopes' });
const HolderUserId = Nullable(Uuid({ description: 'The user (agent) the key is issued to; must be a user of the organization' }));
const ExpiresAt = Nullable(DateTime({ description: 'Must be in the future; null never expires (admin keys only)' }));

const apiKeyProperties = {
  id: Uuid(),
  name: Type.String(),
  key_prefix: Type.String({ description: 'Type prefix plus the first 6 characters of the secret', examples: ['key_admin_a1B2c3'] }),
  role: StringEnum(KEY_ROLES),
  scopes: Type.Array(Type.String()),
  holder_user_id: Nullable(Uuid()),
  created_at: DateTime(),
  expires_at: Nullable(DateTime()),
  last_used_at: Nullable(DateTime({ description: 'Refreshed at most once a minute' })),
  revoked_at: Nullable(DateTime()),
};

/** A key as the API shows it: never its hash, and the plain key only in the answer to its creation. */
export const ApiKey = named('ApiKey', Type.Object(apiKeyProperties));
export type ApiKey = Static<typeof ApiKey>;

export const CreatedApiKey = named(
  'CreatedApiKey',
  Type.Object({
    ...apiKeyProperties,
    key: Nullable(
      Type.String({ description: 'The plain key, shown this once: only its hash is stored (null in an answer replayed for an Idempotency-Key)' }),
    ),
  }),
);
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const ApiKeyParams = Type.Object({ key_id: Uuid() });

export const CreateApiKeyBody = Type.Object(
  {
    name: Name,
    role: StringEnum(KEY_ROLES, { description: 'admin (key_admin_) or readonly (key_ro_: only :read scopes, expires after 72 hours)' }),
    scopes: Type.Optional(Scopes),
    holder_user_id: Type.Optional(HolderUserId),
    expires_at: Type.Optional(ExpiresAt),
  },
  { additionalProperties: false, examples: [{ name: 'Reporting dashboard', role: 'readonly' }] },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const UpdateApiKeyBody = Type.Object(
  {
    name: Type.Optional(Name),
    scopes: Type.Optional(Scopes),
    holder_user_id: Type.Optional(HolderUserId),
    expires_at: Type.Optional(ExpiresAt),
  },
  { additionalProperties: false, examples: [{ name: 'Reporting dashboard (finance)' }] },
);
export type UpdateApiKeyBody = Static<typeof UpdateApiKeyBody>;

export const ListApiKeysQuery = Type.Object(
  {
    ...pageQuery(50, 100),
    role: Type.Optional(StringEnum(KEY_ROLES)),
    holder_user_id: Type.Optional(Uuid()),
    status: Type.Optional(
      StringEnum(KEY_STATUSES, { description: 'active: neither revoked nor expired; expired: past expires_at, not revoked; revoked' }),
    ),
  },
  { additionalProperties: false },
);
export type ListApiKeysQuery = Static<typeof ListApiKeysQuery>;
