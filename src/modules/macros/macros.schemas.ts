import { Type, type Static } from 'typebox';
import { DateTime, named, Nullable, pageQuery, Uuid } from '../../shared/schemas.js';
import { Action, Actions } from './actions.schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 255 });
const Description = Nullable(Type.String({ maxLength: 1000, description: 'What the macro is for, shown to agents choosing one' }));

export const Macro = named(
  'Macro',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    actions: Type.Array(Action, { description: 'As checked and stored: tags lower-case and sorted, times in UTC, is_internal always given' }),
    created_at: DateTime(),
    updated_at: DateTime(),
  }),
);
export type Macro = Static<typeof Macro>;

const EXAMPLE_ACTIONS = [
  { field: 'status', value: 'pending' },
  { field: 'assigned_user_id', value: 'me' },
  { field: 'add_tags', value: ['waiting-on-customer'] },
  { field: 'comment', value: { body: 'Could you send us a screenshot of the error?', is_internal: false } },
];

export const CreateMacroBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    actions: Actions,
  },
  { additionalProperties: false, examples: [{ name: 'Ask for a screenshot', actions: EXAMPLE_ACTIONS }] },
);
export type CreateMacroBody = Static<typeof CreateMacroBody>;

export const UpdateMacroBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    actions: Type.Optional(Actions),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ name: 'Ask for a screenshot (pending)' }] },
);
export type UpdateMacroBody = Static<typeof UpdateMacroBody>;

export const MacroParams = Type.Object({ macro_id: Uuid() });
export const ApplyMacroParams = Type.Object({ ticket_id: Uuid(), macro_id: Uuid() });
export const ListMacrosQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
