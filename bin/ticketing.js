#!/usr/bin/env node
// The compiled CLI lives in dist/; `npm run build` (or `npm start`) produces it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
if (!existsSync(entry)) {
  process.stderr.write('ticketing: not built yet; run `npm run build` first\n');
  process.exit(1);
}
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
