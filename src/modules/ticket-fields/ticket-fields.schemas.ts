import { Type, type Static } from 'typebox';
import { DateTime, named, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';

export const FIELD_TYPES = ['text', 'number', 'date', 'checkbox', 'dropdown', 'multiselect'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Definitions an organization may have at most (docs/api-behaviour.md, Custom fields). */
export const MAX_FIELDS_PER_ORGANIZATION = 100;
export const MAX_OPTIONS = 100;
export const MAX_TEXT_VALUE_LENGTH = 10_000;

const Key = Type.String({
  minLength: 1,
  maxLength: 50,
  pattern: '^[a-z][a-z0-9_]*$',
  description: 'Lower-case identifier (a-z, 0-9, _; starting with a letter), unique in the organization; cannot be changed',
});
const Label = Type.String({ minLength: 1, maxLength: 255 });
const Options = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: MAX_OPTIONS,
  description: `The choices of a dropdown or multiselect (required for them, refused for other types), 1 to ${MAX_OPTIONS}, distinct`,
});

export const TicketField = named(
  'TicketField',
  Type.Object(
    {
      id: Uuid(),
      key: Type.String(),
      label: Type.String(),
      type: StringEnum(FIELD_TYPES),
      options: Type.Array(Type.String(), { description: 'The choices (dropdown, multiselect); [] for other types' }),
      required: Type.Boolean({ description: 'A ticket must be created with a value' }),
      created_at: DateTime(),
      updated_at: DateTime(),
    },
    {
      examples: [
        {
          id: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e',
          key: 'plan',
          label: 'Plan',
          type: 'dropdown',
          options: ['free', 'pro', 'enterprise'],
          required: false,
          created_at: '2026-01-31T09:15:02.123Z',
          updated_at: '2026-01-31T09:15:02.123Z',
        },
      ],
    },
  ),
);
export type TicketField = Static<typeof TicketField>;

export const CreateTicketFieldBody = Type.Object(
  {
    key: Key,
    label: Label,
    type: StringEnum(FIELD_TYPES),
    options: Type.Optional(Options),
    required: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false, examples: [{ key: 'plan', label: 'Plan', type: 'dropdown', options: ['free', 'pro', 'enterprise'] }] },
);
export type CreateTicketFieldBody = Static<typeof CreateTicketFieldBody>;

export const UpdateTicketFieldBody = Type.Object(
  { label: Type.Optional(Label), options: Type.Optional(Options), required: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, description: 'key and type cannot be changed', examples: [{ label: 'Customer plan' }] },
);
export type UpdateTicketFieldBody = Static<typeof UpdateTicketFieldBody>;

export const TicketFieldParams = Type.Object({ field_id: Uuid() });
export const ListTicketFieldsQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
export type ListTicketFieldsQuery = Static<typeof ListTicketFieldsQuery>;

/** A value of a custom field on a ticket: text, number, date (YYYY-MM-DD), checkbox, dropdown (an option), multiselect (options). */
export const FieldValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String())]);

/** A ticket's custom fields as answered: only the fields it has a value for. */
export const TicketCustomFields = Type.Object(
  {},
  { additionalProperties: FieldValue, description: 'By field key; a field without a value is absent', examples: [{ plan: 'pro', seats: 12 }] },
);

/** Custom fields in a create or PATCH body: checked against the definitions by the service. */
export const CustomFieldsInput = Type.Object(
  {},
  {
    additionalProperties: Type.Union([FieldValue, Type.Null()]),
    maxProperties: MAX_FIELDS_PER_ORGANIZATION,
    description:
      'By field key: text (a string), number, date (YYYY-MM-DD), checkbox (true/false), dropdown (one of its options), ' +
      'multiselect (a list of its options). On PATCH only the keys given change; null clears one.',
  },
);
export type CustomFieldsInput = Record<string, unknown>;
