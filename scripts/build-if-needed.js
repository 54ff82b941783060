// Rebuilds dist/ when it is missing or older than any TypeScript source, so `npm start`
// works right after `npm install` and never runs stale code.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', 'src', 'cli', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    // .js too: a few sources are JavaScript (the search worker, src/search/search.worker.js).
    else if (/\.(ts|tsx|js|css|html|svg)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sources = Math.max(newestSource(join(root, 'src')), newestSource(join(root, 'bench')));
if (built < sources) {
  process.stderr.write('building ticketing (tsc)...\n');
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
}

// The agent console (web/, served at /app): rebuilt with Vite when dist/web/ is missing or older
// than its sources or the SDK it uses.
const webStamp = join(root, 'dist', 'web', 'index.html');
const webBuilt = existsSync(webStamp) ? statSync(webStamp).mtimeMs : 0;
const webSources = Math.max(newestSource(join(root, 'web')), newestSource(join(root, 'sdk')));
if (webBuilt < webSources) {
  process.stderr.write('building the agent console (vite)...\n');
  // NODE_ENV production whoever runs this: under Vitest (NODE_ENV=test, the browser tests' build) Vite
  // would otherwise bundle React's development build (544 KB against 309), and `npm start` serve it.
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--config', join(root, 'web', 'vite.config.ts')], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
