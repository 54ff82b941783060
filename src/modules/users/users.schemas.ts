import { Type, type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords.js';
import { DateTime, named, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';

export const USER_ROLES = ['admin', 'agent'] as const;

const Email = Type.String({ format: 'email', maxLength: 320, description: 'Unique in the organization, compared case-insensitively' });
const FullName = Type.String({ minLength: 1, maxLength: 255 });
const Role = StringEnum(USER_ROLES);
const Password = Type.String({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  writeOnly: true,
  description: 'Sets the password the user signs in with (POST /v1/sessions); never returned. Changing it ends the user\'s sessions',
});

/** A user is an agent of the organization: tickets are assigned to users, users belong to teams. */
export const User = named('User', Type.Object({
  id: Uuid(),
  email: Type.String(),
  full_name: Type.String(),
  role: Role,
  is_active: Type.Boolean(),
  created_at: DateTime(),
  updated_at: DateTime(),
}));
export type User = Static<typeof User>;

export const UserParams = Type.Object({ user_id: Uuid() });

export const CreateUserBody = Type.Object(
  {
    email: Email,
    full_name: FullName,
    role: Type.Optional(StringEnum(USER_ROLES, { default: 'agent' })),
    is_active: Type.Optional(Type.Boolean({ default: true })),
    password: Type.Optional(Password),
  },
  { additionalProperties: false, examples: [{ email: 'grace@example.com', full_name: 'Grace Hopper', role: 'agent' }] },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    email: Type.Optional(Email),
    full_name: Type.Optional(FullName),
    role: Type.Optional(Role),
    is_active: Type.Optional(Type.Boolean({ description: 'false ends the user\'s sessions and refuses sign-in' })),
    password: Type.Optional(Password),
  },
  { additionalProperties: false, examples: [{ full_name: 'Grace B. Hopper' }] },
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const ListUsersQuery = Type.Object({ ...pageQuery(50, 100) }, { additionalProperties: false });
export type ListUsersQuery = Static<typeof ListUsersQuery>;
