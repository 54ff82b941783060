import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, Uuid } from '../../shared/schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Description = Type.String({ maxLength: 10_000 });

/** A team as listed: without its members. */
export const TeamSummary = named('TeamSummary', Type.Object({
  id: Uuid(),
  name: Type.String(),
  description: Nullable(Type.String()),
  created_at: DateTime(),
  updated_at: DateTime(),
}));
export type TeamSummary = Static<typeof TeamSummary>;

export const TeamMember = named('TeamMember', Type.Object({ id: Uuid(), email: Type.String(), full_name: Type.String() }));
export type TeamMember = Static<typeof TeamMember>;

/** A single team: with its members, in the order they joined. */
export const Team = named('Team', Type.Object({
  id: Uuid(),
  name: Type.String(),
  description: Nullable(Type.String()),
  members: Type.Array(TeamMember, { description: 'In the order they joined the team' }),
  created_at: DateTime(),
  updated_at: DateTime(),
}));
export type Team = Static<typeof Team>;

export const TeamParams = Type.Object({ team_id: Uuid() });
export const MemberParams = Type.Object({ team_id: Uuid(), user_id: Uuid() });

export const CreateTeamBody = Type.Object(
  { name: Name, description: Type.Optional(Nullable(Description)) },
  { additionalProperties: false, examples: [{ name: 'Billing', description: 'Invoices, refunds and payment methods' }] },
);
export type CreateTeamBody = Static<typeof CreateTeamBody>;

export const UpdateTeamBody = Type.Object(
  { name: Type.Optional(Name), description: Type.Optional(Nullable(Description)) },
  { additionalProperties: false, examples: [{ description: 'Invoices, refunds, payment methods and VAT' }] },
);
export type UpdateTeamBody = Static<typeof UpdateTeamBody>;

export const AddMemberBody = Type.Object({ user_id: Uuid() }, { additionalProperties: false, examples: [{ user_id: '0b5a6a0e-6f4b-4a7e-9d6c-2f1e8f3c9a10' }] });
export type AddMemberBody = Static<typeof AddMemberBody>;

export const ListTeamsQuery = Type.Object({ ...pageQuery(50, 100) }, { additionalProperties: false });
export type ListTeamsQuery = Static<typeof ListTeamsQuery>;
