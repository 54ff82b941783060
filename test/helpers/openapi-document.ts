import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { DECIMAL_PATTERN, isHttpUrl, isIanaTimeZone } from '../../src/shared/validation.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The committed OpenAPI document (openapi.json at the project's root). */
export function committedDocument<T = Record<string, unknown>>(): T {
  return JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as T;
}

/** Ajv over the whole document, so `#/components/...` references resolve as they do for clients. */
export function documentAjv(document: object): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('iana-timezone', { type: 'string', validate: isIanaTimeZone });
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  ajv.addFormat('decimal', { type: 'string', validate: DECIMAL_PATTERN });
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  return ajv;
}

/** The compiled schema at a JSON pointer of the document. */
export function validatorFor(ajv: Ajv2020, pointer: string) {
  const validate = ajv.getSchema(`openapi.json#${pointer}`);
  if (!validate) throw new Error(`no schema at ${pointer}`);
  return validate;
}

/** A JSON pointer segment: `~` and `/` escaped. */
export const pointerSegment = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');
