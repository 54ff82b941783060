import { Type, type Static } from 'typebox';
import { PASSWORD_MAX_LENGTH } from '../../auth/passwords.js';
import { DateTime, named, Uuid } from '../../shared/schemas.js';
import { User } from '../users/users.schemas.js';

export const SignInBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320, description: "The user's email, compared case-insensitively" }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, writeOnly: true }),
    organization_id: Type.Optional(
      Uuid({ description: 'Only when the same email is a user of several organizations: which one to sign in to (default: the oldest user whose password matches)' }),
    ),
  },
  { additionalProperties: false, examples: [{ email: 'grace@example.com', password: 'correct horse battery staple' }] },
);
export type SignInBody = Static<typeof SignInBody>;

/** A signed-in session as its user sees it. */
export const Session = named(
  'Session',
  Type.Object({
    user: User,
    expires_at: DateTime({ description: 'When the session ends if left idle (12 hours after its last use; never later than 7 days after sign-in)' }),
    csrf_token: Type.String({
      description: 'Send it as the X-CSRF-Token header with every request that changes something (POST, PUT, PATCH, DELETE) made with the session cookie',
    }),
  }),
);
export type Session = Static<typeof Session>;
