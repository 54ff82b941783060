import { writeFileSync } from 'node:fs';
import { documentPath, generateOpenApiDocument, serializeDocument } from './document.js';

/** `npm run openapi`: regenerates the committed openapi.json from the route schemas. */
const path = documentPath();
writeFileSync(path, serializeDocument(await generateOpenApiDocument()));
process.stderr.write(`ticketing: wrote ${path}\n`);
