import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { consoleRoutes } from './console.routes.js';

/** The console's pages and assets as the service serves them (src/modules/console), from a stand-in build. */
let dir: string;
let app: FastifyInstance;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/app/assets/index-abc123.js"></script>');
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(tmpdir(), 'secret-outside.txt'), 'TOP-SECRET-CONTENT');
  app = Fastify();
  await app.register(consoleRoutes, { directory: dir });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the console at /app', () => {
  it('serves the page with a strict Content-Security-Policy and no cache, at /app and every client route', async () => {
    for (const url of ['/app', '/app/', '/app/tickets/0b5d1e9a-5d1b-4c55-9d6c-1f4f4e9e0a11', '/app/queues/mine?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('<title>console</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
      const csp = String(res.headers['content-security-policy']);
      for (const rule of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) expect(csp).toContain(rule);
      expect(csp).not.toContain('unsafe');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('serves hashed assets with a year-long immutable cache, other files with no-cache, and 404 for a missing one', async () => {
    const js = await app.inject({ method: 'GET', url: '/app/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject({ method: 'GET', url: '/app/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ method: 'GET', url: '/app/assets/missing-1.js' })).statusCode).toBe(404);
  });

  it('never serves a file outside its folder', async () => {
    for (const url of ['/app/../secret-outside.txt', '/app/%2e%2e/secret-outside.txt', '/app/assets/..%2f..%2fsecret-outside.txt']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('TOP-SECRET-CONTENT');
    }
  });

  it('says the console is not built when there is no build (503)', async () => {
    const bare = Fastify();
    await bare.register(consoleRoutes, { directory: join(dir, 'nothing-here') });
    const res = await bare.inject({ method: 'GET', url: '/app/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    await bare.close();
  });
});

describe('the service registers the console', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());
  it('answers /app with the console page (or the 503 that asks for a build), with its CSP', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/' });
    expect([200, 503]).toContain(res.statusCode);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });
});
