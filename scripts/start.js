// `npm start`: build if needed, then serve in this very process. npm forwards SIGTERM/SIGINT to
// its child only; were the server a grandchild (`build && node bin/ticketing.js serve` runs under
// sh), `kill <npm's pid>` would stop npm and leave the server listening.
import { fileURLToPath } from 'node:url';

await import('./build-if-needed.js');
const { main } = await import(fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url)));
process.exitCode = await main(['serve', ...process.argv.slice(2)]);
