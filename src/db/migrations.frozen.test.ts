import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const dbDir = dirname(dir);

// Migrations are frozen history: what they run must not change when live code changes later.
it('migrations import nothing from outside src/db/ but Kysely', () => {
  const outside: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*)'([^']+)'/g)) {
      if (specifier === 'kysely') continue;
      const target = specifier!.startsWith('.') ? relative(dbDir, resolve(dir, specifier!)) : specifier!;
      if (target.startsWith('..') || !specifier!.startsWith('.')) outside.push(`${file}: ${specifier}`);
    }
  }
  expect(outside).toEqual([]);
});
