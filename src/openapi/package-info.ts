import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  /** The project's root directory (where package.json is). */
  root: string;
  name: string;
  version: string;
}

let cached: PackageInfo | undefined;

/**
 * The project's package.json, found by walking up from this file: the same code runs from `src/`
 * (tests) and from `dist/src/` (the built service), which sit at different depths.
 */
export function packageInfo(): PackageInfo {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'ticketing') {
        cached = { root: dir, name: pkg.name, version: pkg.version ?? '0.0.0' };
        return cached;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json of ticketing not found above src/openapi');
    dir = parent;
  }
}
