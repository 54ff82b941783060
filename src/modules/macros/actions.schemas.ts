import { Type, type Static } from 'typebox';

/**
 * The action list shared by macros, bulk changes and triggers: `[ { "field", "value" } ]`, each
 * field at most once. Every field and the value it takes is documented in docs/api-behaviour.md,
 * "Macros and actions"; actions.ts checks and applies them.
 */

export const MAX_ACTIONS = 50;
export const MAX_COMMENT_LENGTH = 100_000;

/** The fields an action may set, besides `custom_fields.<key>`. */
export const ACTION_FIELDS = [
  'status',
  'priority',
  'assigned_user_id',
  'assigned_team_id',
  'category',
  'due_date',
  'add_tags',
  'remove_tags',
  'comment',
] as const;
export type ActionField = (typeof ACTION_FIELDS)[number];

/** `custom_fields.<key>`: sets (or with null clears) one custom field. */
export const CUSTOM_FIELD_ACTION = /^custom_fields\.([a-z][a-z0-9_]{0,49})$/;

export const CommentAction = Type.Object(
  {
    body: Type.String({ minLength: 1, maxLength: MAX_COMMENT_LENGTH }),
    is_internal: Type.Optional(Type.Boolean({ default: false, description: 'An internal note: the customer never sees it' })),
  },
  { additionalProperties: false, description: 'The value of a `comment` action: a comment by the acting user' },
);

const ActionValue = Type.Union(
  [
    Type.String({ maxLength: 10_000 }),
    Type.Number(),
    Type.Boolean(),
    Type.Null(),
    Type.Array(Type.String({ maxLength: 10_000 }), { maxItems: 50 }),
    CommentAction,
  ],
  { description: "The field's new value; its type depends on the field (docs/api-behaviour.md, \"Macros and actions\")" },
);

export const Action = Type.Object(
  {
    field: Type.String({
      minLength: 1,
      maxLength: 80,
      description: `One of ${ACTION_FIELDS.join(', ')}, or custom_fields.<key>`,
      examples: ['status'],
    }),
    value: ActionValue,
  },
  { additionalProperties: false },
);
export type Action = Static<typeof Action>;

/** A list of actions: at least one, each field at most once. */
export const Actions = Type.Array(Action, {
  minItems: 1,
  maxItems: MAX_ACTIONS,
  description: `1 to ${MAX_ACTIONS} actions, each field at most once, applied together to one ticket in one transaction`,
  examples: [
    [
      { field: 'status', value: 'pending' },
      { field: 'assigned_user_id', value: 'me' },
      { field: 'add_tags', value: ['waiting'] },
      { field: 'comment', value: { body: 'We are looking into it.', is_internal: false } },
    ],
  ],
});
export type Actions = Static<typeof Actions>;
