import { Ajv, type Options } from 'ajv';
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

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : wireAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};
