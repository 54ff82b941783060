import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The shape the code keeps so a newcomer can read it (docs/architecture.md#layout): files small
// enough to read in one sitting, and a ticket service with one plain path for every store.

const MAX_LINES = 450;

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|js)$/.test(f))
    .map((f) => join(dir, f));
}

describe('code shape', () => {
  it(`no file in src/ is over ${MAX_LINES} lines (migrations, frozen history, aside)`, () => {
    const long = sources('src')
      .filter((f) => !f.startsWith(join('src', 'db', 'migrations')))
      .map((f) => [f, readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it('the ticket service has no dialect branch: store differences live in the store layer and the fast paths', () => {
    const code = readFileSync(join('src', 'modules', 'tickets', 'tickets.service.ts'), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    expect(code).not.toMatch(/dialect|postgres|sqlite/i);
  });
});
