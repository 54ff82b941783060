import { Ajv, type ErrorObject, type Options } from 'ajv';
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

function buildAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, strict: false, ...options });
  addFormats(ajv, ['date-time', 'email', 'uuid', 'uri']);
  ajv.addFormat('iana-timezone', { type: 'string', validate: isIanaTimeZone });
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  ajv.addFormat('decimal', { type: 'string', validate: DECIMAL_PATTERN });
  return ajv;
}

// Bodies are JSON and must have the right types as sent: "5" is not a number there. Path and query
// values are always strings on the wire, so they are coerced to the schema's types.
const bodyAjv = buildAjv({ coerceTypes: false });
const wireAjv = buildAjv({ coerceTypes: true });

/** The JSON pointer of the first string (or key) in `data` that holds U+0000, or null. */
function nulAt(data: unknown, path = ''): string | null {
  if (typeof data === 'string') return data.includes('\u0000') ? path : null;
  if (typeof data !== 'object' || data === null) return null;
  for (const [key, value] of Object.entries(data)) {
    const here = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key.includes('\u0000')) return here;
    const found = nulAt(value, here);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Ajv with the route's schema, then one rule for every text: no U+0000. PostgreSQL text cannot
 * hold it (an insert fails), so it is refused as a 422 naming the field, on every store alike.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : wireAjv;
  const validate = ajv.compile(schema as object);
  const errors: { errors: ErrorObject[] | null } = { errors: null };
  const check = Object.assign((data: unknown): boolean => {
    const valid = validate(data);
    check.errors = validate.errors ?? null;
    const nul = valid ? nulAt(data) : null;
    if (nul === null) return valid;
    check.errors = [{ keyword: 'nul', instancePath: nul, schemaPath: '#', params: {}, message: 'must not contain the NUL character (U+0000)' }];
    return false;
  }, errors);
  return check;
};
