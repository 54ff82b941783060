// `npm run sdk`: generates sdk/schema.d.ts (the types of every path, operation and schema) from the
// committed openapi.json with openapi-typescript. `--check` writes nothing and exits 1 when the
// committed file differs from what the document generates (test/sdk.test.ts runs it).
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const documentUrl = new URL('../openapi.json', import.meta.url);
const schemaUrl = new URL('../sdk/schema.d.ts', import.meta.url);
const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));

const HEADER = `/**
 * Generated from openapi.json by \`npm run sdk\` (openapi-typescript). Do not edit: change the
 * route schemas, run \`npm run openapi\`, then \`npm run sdk\`.
 */

`;

const ast = await openapiTS(documentUrl, {
  // A property with a default is optional to send (the service fills it in), not required.
  defaultNonNullable: false,
  // A file part (`format: binary`) is sent as a Blob (or a File), never as a string.
  transform(schemaObject) {
    if (schemaObject.format === 'binary') return BLOB;
    return undefined;
  },
});
const generated = HEADER + astToString(ast);

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(schemaUrl, 'utf8');
  } catch {
    committed = '';
  }
  if (committed !== generated) {
    process.stderr.write('sdk/schema.d.ts is out of date with openapi.json: run `npm run sdk` and commit the result\n');
    process.exit(1);
  }
  process.stderr.write('sdk/schema.d.ts is up to date\n');
} else {
  writeFileSync(schemaUrl, generated);
  process.stderr.write(`ticketing: wrote ${schemaUrl.pathname}\n`);
}
