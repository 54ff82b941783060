import { Ajv, type ErrorObject, type Options } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

const timeZoneCache = new Map<string, boolean>();

/** An IANA time-zone name such as Europe/Paris or UTC (not an offset like +02:00). */
export function isIanaTimeZone(value: string): boolean {
  let known = timeZoneCache.get(value);
  if (known === undefined) {
    known = /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(value) && value.length <= 64;
    if (known) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: value });
      } catch {
        known = false;
      }
    }
    if (timeZoneCache.size < 10_000) timeZoneCache.set(value, known);
  }
  return known;
}

export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** A non-negative fixed-point decimal as a string: up to 13 integer digits and 2 decimal places. */
export const DECIMAL_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

/**
 * A UUID in the 8-4-4-4-12 hex form, letters in either case. (ajv-formats' `uuid` also takes a
 * `urn:uuid:` prefix, which no id of this service has.)
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A UUID as the service writes it: lower-case letters only. */
export const LOWER_CASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ajv-formats' RFC 3339 check (calendar dates, times, offsets), taken from a throwaway instance.
const rfc3339 = (() => {
  const ajv = new Ajv();
  addFormats(ajv, ['date-time']);
  const format = ajv.formats['date-time'] as { validate: (value: string) => boolean };
  return format.validate;
})();

/**
 * An RFC 3339 date-time with a time zone that this service can store: `Date` must represent it
 * (not a leap second `23:59:60`, which RFC 3339 allows) and, once moved to UTC, it must still fall
 * in the years 0000-9999 that ISO 8601 text (and so every stored timestamp) can hold. Checked at
 * validation, so no service ever meets a date it cannot convert.
 */
export function isStorableDateTime(value: string): boolean {
  if (!rfc3339(value)) return false;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return false;
  const year = new Date(ms).getUTCFullYear();
  return year >= 0 && year <= 9999;
}

/** Internal keyword: lower-cases the UUID it sits on (ids are stored lower-case). Never in the document. */
const UUID_LOWER_CASE = 'x-uuid-lower-case';

function buildAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, strict: false, ...options });
  addFormats(ajv, ['email', 'uri']);
  ajv.addFormat('uuid', { type: 'string', validate: UUID_PATTERN });
  ajv.addFormat('date-time', { type: 'string', validate: isStorableDateTime });
  ajv.addFormat('iana-timezone', { type: 'string', validate: isIanaTimeZone });
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  ajv.addFormat('decimal', { type: 'string', validate: DECIMAL_PATTERN });
  ajv.addKeyword({
    keyword: UUID_LOWER_CASE,
    modifying: true,
    schemaType: 'boolean',
    errors: false,
    validate: (_schema: boolean, data: unknown, _parent?: unknown, cxt?: DataValidationCxt) => {
      if (typeof data === 'string' && cxt?.parentData !== undefined && UUID_PATTERN.test(data)) {
        (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = data.toLowerCase();
      }
      return true;
    },
  });
  return ajv;
}

/**
 * A copy of a route schema in which every `format: uuid` also carries the lower-casing keyword, so
 * an id is the same id in either letter case on every route, normalised once here instead of in
 * each service. The route's own schema object (which the OpenAPI document reads) is not touched.
 */
function withUuidNormalisation(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withUuidNormalisation);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // Literal values are data, not schemas: copied as they are.
    out[key] = key === 'enum' || key === 'const' || key === 'default' || key === 'examples' ? value : withUuidNormalisation(value);
  }
  if (out.format === 'uuid') out[UUID_LOWER_CASE] = true;
  return out;
}

// Bodies are JSON and must have the right types as sent: "5" is not a number there. Path and query
// values are always strings on the wire, so they are coerced to the schema's types.
const bodyAjv = buildAjv({ coerceTypes: false });
const wireAjv = buildAjv({ coerceTypes: true });

/** U+0000, or a UTF-16 surrogate that is not half of a pair (a lone surrogate). */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a text cannot be stored, or null when it can. PostgreSQL text cannot hold U+0000 (an insert
 * fails), and a lone surrogate is not Unicode: encoded to UTF-8 it silently becomes U+FFFD on one
 * store and something else on the other. Both are refused alike, on every store.
 */
export function unstorableText(value: string): string | null {
  const match = UNSTORABLE.exec(value);
  if (!match) return null;
  return match[0] === '\u0000'
    ? 'must not contain the NUL character (U+0000)'
    : 'must be well-formed Unicode: no unpaired surrogate code point (U+D800 to U+DFFF)';
}

/** The JSON pointer and reason of the first string (or key) in `data` that cannot be stored, or null. */
function unstorableAt(data: unknown, path = ''): { path: string; message: string } | null {
  if (typeof data === 'string') {
    const message = unstorableText(data);
    return message === null ? null : { path, message };
  }
  if (typeof data !== 'object' || data === null) return null;
  for (const [key, value] of Object.entries(data)) {
    const here = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const keyMessage = unstorableText(key);
    if (keyMessage !== null) return { path: here, message: keyMessage };
    const found = unstorableAt(value, here);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Ajv with the route's schema (UUIDs lower-cased), then one rule for every text of a body or a
 * query: nothing a store cannot hold as sent (U+0000, lone surrogates), refused as a 422 naming the
 * field.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : wireAjv;
  const validate = ajv.compile(withUuidNormalisation(schema) as object);
  const errors: { errors: ErrorObject[] | null } = { errors: null };
  const check = Object.assign((data: unknown): boolean => {
    const valid = validate(data);
    check.errors = validate.errors ?? null;
    // Path parameters are identifiers: a UUID format refuses such text already, and the loose ones
    // (a tracking token, a signed address) are matched against a UUID before any lookup, so that a
    // malformed one is the same 404 or 403 as an unknown one.
    // Headers need no check either: Node's HTTP parser refuses NUL in them, and their values are
    // Latin-1 (no surrogates), so walking every header would cost each request for nothing.
    const bad = valid && httpPart !== 'params' && httpPart !== 'headers' ? unstorableAt(data) : null;
    if (bad === null) return valid;
    check.errors = [{ keyword: 'text', instancePath: bad.path, schemaPath: '#', params: {}, message: bad.message }];
    return false;
  }, errors);
  return check;
};
