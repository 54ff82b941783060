import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTicket, upload } from '../../test/helpers/attachments.js';
import { buildTestApp } from '../../test/helpers/test-app.js';
import { main } from '../cli/main.js';
import { ConfigError, loadConfig, requireSharedSigningSecret } from '../config.js';
import { createUrlSigner } from './signed-urls.js';

describe('signing secret and storage backend configuration', () => {
  const SECRET = 'k'.repeat(32);
  const POSTGRES = 'postgres://ticketing@127.0.0.1:1/ticketing';

  it('requires SIGNING_SECRET to serve with PostgreSQL, saying what to set', () => {
    expect(() => requireSharedSigningSecret(loadConfig({ DATABASE_URL: POSTGRES }))).toThrow(ConfigError);
    expect(() => requireSharedSigningSecret(loadConfig({ DATABASE_URL: 'postgresql://h/db' }))).toThrow(
      /SIGNING_SECRET is required when DATABASE_URL is PostgreSQL/,
    );
    const configured = loadConfig({ DATABASE_URL: POSTGRES, SIGNING_SECRET: SECRET });
    expect(configured.signingSecret).toBe(SECRET);
    expect(() => requireSharedSigningSecret(configured)).not.toThrow();
    // SQLite keeps generating one in the data directory.
    expect(loadConfig({}).signingSecret).toBeUndefined();
    expect(() => requireSharedSigningSecret(loadConfig({}))).not.toThrow();
  });

  it('signs with a configured SIGNING_SECRET, writing no secret file', async () => {
    const configured = await buildTestApp({ SIGNING_SECRET: SECRET });
    try {
      const ticket = await createTicket(configured);
      const id = (await upload(configured, ticket, 'a.txt', 'text/plain', 'a')).json<{ id: string }>().id;
      const link = await configured.request({ method: 'GET', url: `/v1/tickets/${ticket}/attachments/${id}/download` });
      const url = new URL(link.json<{ signed_url: string }>().signed_url);
      const verify = (secret: string) =>
        createUrlSigner({ ...configured.config, signingSecret: secret }).verify(id, url.searchParams.get('expires'), url.searchParams.get('signature'));
      expect(verify(SECRET)).toBe(true);
      expect(verify('j'.repeat(32))).toBe(false);
      expect(existsSync(join(configured.dataDir, 'signing-secret'))).toBe(false);
    } finally {
      await configured.close();
    }
  });

  it('refuses a SIGNING_SECRET shorter than 32 characters', () => {
    expect(() => loadConfig({ SIGNING_SECRET: 'k'.repeat(31) })).toThrow(/SIGNING_SECRET/);
    expect(() => loadConfig({ DATABASE_URL: POSTGRES, SIGNING_SECRET: 'short' })).toThrow(/SIGNING_SECRET/);
  });

  it('`ticketing serve` without SIGNING_SECRET on PostgreSQL exits 1 with the message, creating nothing', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ticketing-secret-')), 'data');
    let stdout = '';
    let stderr = '';
    const io = { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } };
    try {
      const code = await main(['serve'], io, { DATABASE_URL: POSTGRES, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      expect(code).toBe(1);
      expect(stderr).toMatch(/^ticketing: SIGNING_SECRET is required when DATABASE_URL is PostgreSQL/);
      expect(stdout).toBe('');
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
    }
  });

  it('chooses the storage backend: disk with SQLite, database with PostgreSQL, unless told', () => {
    expect(loadConfig({}).storageBackend).toBe('disk');
    expect(loadConfig({ DATABASE_URL: POSTGRES, SIGNING_SECRET: SECRET }).storageBackend).toBe('database');
    expect(loadConfig({ STORAGE_BACKEND: 'database' }).storageBackend).toBe('database');
    expect(loadConfig({ DATABASE_URL: POSTGRES, SIGNING_SECRET: SECRET, STORAGE_BACKEND: 'disk' }).storageBackend).toBe('disk');
    expect(() => loadConfig({ STORAGE_BACKEND: 's3' })).toThrow(/STORAGE_BACKEND/);
  });
});
