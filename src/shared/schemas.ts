import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/** A UUID string. */
export const Uuid = (options: Record<string, unknown> = {}) => Type.String({ format: 'uuid', ...options });

/** An ISO 8601 date-time; responses always carry UTC with milliseconds and a `Z`. */
export const DateTime = (options: Record<string, unknown> = {}) => Type.String({ format: 'date-time', ...options });

/**
 * `T | null` as a JSON Schema type array rather than `anyOf`, which validates and serializes
 * faster and reads better in the OpenAPI document.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const s = schema as unknown as Record<string, unknown>;
  const { type, enum: values, ...rest } = s;
  const out: Record<string, unknown> = { ...rest, type: [type, 'null'] };
  if (Array.isArray(values)) out.enum = [...(values as unknown[]), null];
  return Type.Unsafe<Static<T> | null>(out);
}

/** A string enum with an explicit `type`, which the serializer and the OpenAPI document want. */
export function StringEnum<const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

const schemaNames = new WeakMap<object, string>();

/**
 * Names a schema for the OpenAPI document: wherever this very object is used, the document
 * refers to `#/components/schemas/<name>` instead of repeating it. No effect on validation.
 */
export function named<T extends TSchema>(name: string, schema: T): T {
  schemaNames.set(schema, name);
  return schema;
}

/** The name given by `named()`, if any. */
export function schemaNameOf(schema: unknown): string | undefined {
  return typeof schema === 'object' && schema !== null ? schemaNames.get(schema) : undefined;
}

export const ErrorBody = named(
  'Error',
  Type.Object(
    {
      detail: Type.String({ description: 'What went wrong, in one sentence' }),
      errors: Type.Optional(
        Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
          description: 'Present on 422: one entry per invalid field, such as body.priority',
        }),
      ),
      request_id: Type.Optional(
        Type.String({ description: 'Present on 5xx: the request\'s id (also its X-Request-Id header), to quote when reporting the failure' }),
      ),
    },
    {
      $id: 'Error',
      description: 'Every error response has this shape',
      examples: [
        { detail: 'Insufficient permissions: requires tickets:write' },
        {
          detail: 'Validation failed: body.priority must be one of: low, medium, high, urgent',
          errors: [{ field: 'body.priority', message: 'must be one of: low, medium, high, urgent' }],
        },
      ],
    },
  ),
);

export const MessageBody = named('Message', Type.Object({ message: Type.String({ examples: ['User added to team'] }) }));

/** The error statuses every authenticated route can answer with. */
const commonErrors = {
  401: ErrorBody,
  403: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
} as const;

/** Response schemas for a route: its successes plus the shared error bodies. */
export function responses<T extends Record<number, TSchema>>(success: T, extra: number[] = []) {
  const out: Record<number, TSchema> = { ...commonErrors, ...success };
  for (const status of extra) out[status] = ErrorBody;
  return out as T & typeof commonErrors;
}

/**
 * The deepest page `offset`/`skip` may reach. An offset is read and thrown away row by row, so a
 * deep one costs as much as reading every row before it; past this, narrow the list with filters.
 */
export const MAX_OFFSET = 100_000;

/** Query properties for pagination: `offset` and `skip` are the same parameter (decisions §6). */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  const skipped = (other: string) =>
    `Records to skip (same as ${other}), 0 to ${MAX_OFFSET.toLocaleString('en-US')}; to reach further, narrow the list with filters`;
  return {
    limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit, description: `Page size, 1 to ${maxLimit}` }),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: skipped('skip') })),
    skip: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: skipped('offset') })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        pattern: '^[A-Za-z0-9_-]+$',
        description:
          'Keyset paging: the opaque cursor from the `Link: <...>; rel="next"` header of the previous page; the page starts ' +
          'right after that page\'s last item, so items added or removed meanwhile are neither skipped nor repeated. Not with offset/skip.',
      }),
    ),
  };
}
