import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './conditional.js';

/** The definition: every object's keys sorted, members in that order, undefined members left out. */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (reference(v) as string | undefined) ?? '').join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const members = Object.keys(object)
      .sort()
      .filter((key) => object[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${reference(object[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

// Any text: binary units include lone surrogates and control characters (escaped in JSON).
const text = fc.string({ unit: 'binary', maxLength: 30 });
const flat = fc.dictionary(text, fc.oneof(text, fc.double(), fc.integer(), fc.constant(null), fc.boolean(), fc.constant(undefined)));

describe('the canonical JSON an ETag hashes', () => {
  it('is the definition for flat objects, one after another with the same or other keys', () => {
    fc.assert(
      fc.property(fc.array(flat, { minLength: 1, maxLength: 4 }), (objects) => {
        // The same keys twice in a row, then others: the sorted key list it remembers must follow.
        for (const object of [...objects, ...objects]) expect(canonicalJson(object)).toBe(reference(object));
      }),
      { numRuns: 500 },
    );
  });

  it('is the definition for any JSON value, nested objects and arrays included', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 1_000 },
    );
    const withToJson = { a: 1, toJSON: () => 'x' };
    expect(canonicalJson({ when: new Date(0), b: withToJson })).toBe(reference({ when: new Date(0), b: withToJson }));
  });
});
