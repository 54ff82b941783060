import { Type, type Static } from 'typebox';
import { named, pageQuery } from '../../shared/schemas.js';

/** At most this many tags on a ticket (docs/api-behaviour.md, Tags). */
export const MAX_TAGS_PER_TICKET = 20;
export const MAX_TAG_LENGTH = 50;

const TAG_RULES = `Tags are 1–${MAX_TAG_LENGTH} characters of a-z 0-9 _ - : . (upper-case letters are lower-cased); at most ${MAX_TAGS_PER_TICKET} per ticket; kept sorted, duplicates dropped`;

/**
 * A list of tags in a body. The rules of each tag are checked by the service, so that a bad tag
 * is named by its place (`body.tags[2]`) with the rule it breaks.
 */
export const TagList = (description: string) =>
  Type.Array(Type.String({ examples: ['billing'] }), { maxItems: MAX_TAGS_PER_TICKET, description: `${description}. ${TAG_RULES}` });

/** A ticket's tags as answered: sorted, lower-case, no duplicates. */
export const TicketTags = Type.Array(Type.String({ minLength: 1, maxLength: MAX_TAG_LENGTH, pattern: '^[a-z0-9_:.-]+$' }), {
  maxItems: MAX_TAGS_PER_TICKET,
  description: 'Sorted, lower-case, no duplicates',
});

/** A comma-separated list of tags in a query. */
export const TagQuery = (description: string) =>
  Type.String({ minLength: 1, maxLength: 1100, description: `${description}: comma-separated (a,b), at most ${MAX_TAGS_PER_TICKET}` });

export const TagCount = named(
  'TagCount',
  Type.Object(
    {
      tag: Type.String(),
      ticket_count: Type.Integer({ minimum: 1, description: 'How many tickets of the organization carry the tag' }),
    },
    { examples: [{ tag: 'billing', ticket_count: 42 }] },
  ),
);
export type TagCount = Static<typeof TagCount>;

export const ListTagsQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
export type ListTagsQuery = Static<typeof ListTagsQuery>;
