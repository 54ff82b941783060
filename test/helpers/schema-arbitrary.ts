import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON Schemas of an OpenAPI 3.1 document: values that satisfy a
 * schema (`valid`), and hostile values of every kind (`hostileValue`) to put in their place. Only
 * the keywords the document uses are understood; an unknown schema yields any JSON value.
 */

export type Schema = Record<string, unknown>;

/** Resolves `#/...` references against the document. */
export type Resolve = (schema: Schema) => Schema;

export function resolver(document: Record<string, unknown>): Resolve {
  const resolve = (schema: Schema): Schema => {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    let target: unknown = document;
    for (const part of ref.replace(/^#\//, '').split('/')) {
      target = (target as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    return resolve(target as Schema);
  };
  return resolve;
}

/** Values chosen for a named field instead of random ones, some of the time (real ids of the organization). */
export type Hints = (name: string) => fc.Arbitrary<unknown> | undefined;

const TIME_ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];
const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);

/** A string of `min`..`max` characters, mostly readable, sometimes any Unicode. */
function text(min: number, max: number): fc.Arbitrary<string> {
  const cap = Math.min(max, min + 40);
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme-ascii' }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: cap, unit: 'grapheme' }) },
  );
}

function formatted(format: string, schema: Schema): fc.Arbitrary<string> | undefined {
  switch (format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.tuple(word, word).map(([user, host]) => `${user}@${host}.example.com`);
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'http-url':
      return fc.tuple(fc.constantFrom('http', 'https'), word, word).map(([scheme, host, path]) => `${scheme}://${host}.example.com/${path}`);
    case 'iana-timezone':
      return fc.constantFrom(...TIME_ZONES);
    case 'decimal':
      return fc.integer({ min: 0, max: 10 ** 9 }).map((cents) => (cents / 100).toFixed(2));
    default:
      return typeof schema.pattern === 'string' ? fc.stringMatching(new RegExp(schema.pattern)) : undefined;
  }
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  return [];
}

/** Values that satisfy `schema` (as far as the keywords used allow). */
export function valid(schema: Schema, resolve: Resolve, hints: Hints = () => undefined, name = ''): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const hinted = hints(name);
  const own = validOwn(s, resolve, hints);
  return hinted ? fc.oneof({ weight: 3, arbitrary: hinted }, { weight: 1, arbitrary: own }) : own;
}

function validOwn(s: Schema, resolve: Resolve, hints: Hints): fc.Arbitrary<unknown> {
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) return fc.oneof(...(s[key] as Schema[]).map((sub) => valid(sub, resolve, hints)));
  }
  const types = typesOf(s);
  if (types.length > 1) return fc.oneof(...types.map((type) => validOwn({ ...s, type }, resolve, hints)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Number(s.minimum ?? -1000), max: Number(s.maximum ?? 1_000_000) });
    case 'number':
      return fc.double({ min: Number(s.minimum ?? -1e6), max: Number(s.maximum ?? 1e6), noNaN: true, noDefaultInfinity: true });
    case 'array':
      return fc.array(valid((s.items as Schema) ?? {}, resolve, hints), { maxLength: Math.min(Number(s.maxItems ?? 5), 5) });
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set((s.required ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties)) record[key] = valid(sub, resolve, hints, key);
      return fc.record(record, { requiredKeys: [...required].filter((key) => key in properties) });
    }
    case 'string': {
      const format = typeof s.format === 'string' ? formatted(s.format, s) : s.pattern ? formatted('', s) : undefined;
      if (format) return format;
      if (s.contentMediaType) return text(0, 200);
      return text(Number(s.minLength ?? 0), Number(s.maxLength ?? 200));
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Strings no well-behaved client sends. */
export const hostileStrings: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    'x\ud800y',
    '\udc00',
    '😀',
    'résumé\u202Etxt.exe',
    '\u2066\u2069',
    '../../etc/passwd',
    'C:\\Windows\\system32',
    '%00',
    '%ZZ',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '9223372036854775808',
    '-9223372036854775809',
    '1e308',
    '-1',
    '0',
    'NaN',
    'Infinity',
    '1.5',
    'true',
    'null',
    '[]',
    '{}',
    '2026-12-31T23:59:60Z',
    '0000-01-01T00:00:00+01:00',
    '9999-12-31T23:59:59-23:59',
    '2026-02-30T10:00:00Z',
    'urn:uuid:6f1c2a3e-8d4b-4c5a-9e7f-0a1b2c3d4e5f',
    '6F1C2A3E-8D4B-4C5A-9E7F-0A1B2C3D4E5F',
    '00000000-0000-0000-0000-000000000000',
    'tkt-42',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1_000, max: 120_000 }).map((n) => 'x'.repeat(n)),
);

/** Values of the wrong type, at the edges of numbers, or strings no client should send. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileStrings,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 63, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, [], {}, [1, 2], { a: { b: [] } }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Query-string values: what a client can put after `=`. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  hostileStrings,
  fc.constantFrom('9223372036854775808', '18446744073709551616', '1e308', '-1e308', '100001', '-1', '0', '1.5', '0x10', ' 5', '5 ', ''),
);
