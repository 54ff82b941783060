import type { ColumnType } from 'kysely';

/**
 * Table types. Timestamps are `text` columns holding ISO 8601 UTC with milliseconds on both
 * dialects, and come back exactly as written; reads stay typed `string | Date` so mappers pass
 * them through `toIso`, which also accepts a Date should a column ever become a timestamptz.
 * Booleans are integer columns holding 0/1 on both. int8 values come back as numbers (see store.ts).
 */
export type Timestamp = ColumnType<string | Date, string, string>;
export type NullableTimestamp = ColumnType<string | Date | null, string | null | undefined, string | null>;
export type Bool = ColumnType<number | boolean, number, number>;
