import { schemaNameOf } from '../shared/schemas.js';

/** Keywords whose value is one schema, a list of schemas, or a map of name → schema. */
const ONE = new Set(['items', 'additionalProperties', 'unevaluatedProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames']);
const LIST = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Collects the schemas named with `named()` while route schemas are turned into document schemas:
 * each use of a named schema becomes a `$ref` to `#/components/schemas/<name>`, and the named
 * schema itself is emitted once under that name. One collector serves one generation of the
 * document.
 */
export class ComponentCollector {
  private readonly byName = new Map<string, object>();

  /** A copy of `schema` in which every named subschema (and `schema` itself, if named) is a `$ref`. */
  refer(schema: unknown): unknown {
    if (!isObject(schema)) return schema;
    const name = schemaNameOf(schema);
    if (name === undefined) return this.expand(schema);
    const known = this.byName.get(name);
    if (known !== undefined && known !== schema) throw new Error(`Two different schemas are named ${name} for the OpenAPI document`);
    this.byName.set(name, schema);
    return { $ref: `#/components/schemas/${name}` };
  }

  /** Like `refer`, naming `schema` `name` in the document when the code has not named it. */
  referAs(name: string, schema: unknown): unknown {
    if (!isObject(schema) || schemaNameOf(schema) !== undefined) return this.refer(schema);
    const known = this.byName.get(name);
    if (known !== undefined && known !== schema) throw new Error(`Two different schemas are named ${name} for the OpenAPI document`);
    this.byName.set(name, schema);
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The named schemas met so far (and those they use), sorted by name, ready for `components.schemas`. */
  components(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const done = new Set<string>();
    // Expanding a schema can meet further named schemas (a Team's TeamMember): repeat until none is new.
    for (;;) {
      const pending = [...this.byName.keys()].filter((name) => !done.has(name));
      if (pending.length === 0) break;
      for (const name of pending) {
        done.add(name);
        // The document names it; an $id would make it a schema resource of its own.
        const expanded = this.expand(this.byName.get(name) as Record<string, unknown>);
        delete expanded.$id;
        out[name] = expanded;
      }
    }
    return Object.fromEntries(Object.keys(out).sort().map((name) => [name, out[name]]));
  }

  /** A copy of one schema object whose subschemas go through `refer`. */
  private expand(schema: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(schema)) {
      if (ONE.has(key)) out[key] = this.refer(value);
      else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map((item) => this.refer(item));
      else if (MAP.has(key) && isObject(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, this.refer(sub)]));
      } else out[key] = value;
    }
    return out;
  }
}
