import { existsSync, readFileSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The agent console (web/, built by `npm run build` into dist/web/) at /app: the hashed assets
 * under /app/assets/ with a year's cache, every other address under /app the single page
 * (index.html, never cached) so the console's own router handles it. A strict
 * Content-Security-Policy: only this origin's scripts, styles, images and connections; no inline
 * script or style, no framing.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Where the built console is: dist/web/ of the repository, whether this file runs compiled
 * (dist/src/modules/console/) or from source under the tests (src/modules/console/).
 */
export function consoleDirectory(): string {
  const up = fileURLToPath(new URL('../../../', import.meta.url));
  return normalize(up).replace(/[\\/]$/, '').endsWith(`${sep}dist`) ? join(up, 'web') : join(up, 'dist', 'web');
}

interface ConsoleOptions {
  /** The built console's folder; consoleDirectory() unless a test says otherwise. */
  directory?: string;
}

export async function consoleRoutes(app: FastifyInstance, options: ConsoleOptions): Promise<void> {
  const root = options.directory ?? consoleDirectory();
  const files = new Map<string, Buffer | null>();

  /** A file of the build, read once; null when missing or outside the folder. */
  const fileOf = (relative: string): Buffer | null => {
    if (files.has(relative)) return files.get(relative) ?? null;
    const path = normalize(join(root, relative));
    let body: Buffer | null = null;
    if (path.startsWith(root + sep) && !relative.includes('\0') && existsSync(path)) {
      try {
        body = readFileSync(path);
      } catch {
        body = null;
      }
    }
    // index.html is read again each time while missing, so a build made after start is picked up.
    if (body !== null) files.set(relative, body);
    return body;
  };

  const sendPage = (reply: FastifyReply) => {
    const page = fileOf('index.html');
    void reply.headers({ ...HEADERS, 'cache-control': 'no-cache' });
    if (page === null) {
      return reply.code(503).type('text/plain; charset=utf-8').send('The console is not built: run `npm run build`.\n');
    }
    return reply.type('text/html; charset=utf-8').send(page);
  };

  app.get('/app', { schema: { hide: true } }, (_request, reply) => sendPage(reply));
  app.get('/app/*', { schema: { hide: true } }, (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    const dot = rest.lastIndexOf('.');
    const type = dot > rest.lastIndexOf('/') ? TYPES[rest.slice(dot)] : undefined;
    if (type !== undefined) {
      const body = fileOf(rest);
      if (body === null) return reply.code(404).headers(HEADERS).type('text/plain; charset=utf-8').send('Not found\n');
      // Vite names every asset after its content's hash: it never changes under its name.
      const cache = rest.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      return reply.headers({ ...HEADERS, 'cache-control': cache }).type(type).send(body);
    }
    return sendPage(reply);
  });
}
