import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { runMain } from './helpers/cli.js';

/** The message loadConfig refuses `env` with. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe('configuration errors name the variable and what it accepts', () => {
  it('LOG_LEVEL=verbose: once, with the allowed levels', () => {
    expect(refusal({ LOG_LEVEL: 'verbose' })).toBe(
      "Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'verbose'",
    );
  });

  it('DATABASE_URL=mysql://…: the supported forms, and never the password', () => {
    const message = refusal({ DATABASE_URL: 'mysql://root:hunter2@db.internal/tickets' });
    expect(message).toMatch(/^Invalid configuration: DATABASE_URL must be postgres:\/\/… or postgresql:\/\/… \(PostgreSQL\), sqlite:\/path\/file\.sqlite or a file path/);
    expect(message).toContain('got a mysql:// address: mysql is not supported');
    expect(message).not.toContain('hunter2');
  });

  it('HOST=999.1.1.1: an IP address or a host name', () => {
    expect(refusal({ HOST: '999.1.1.1' })).toBe(
      "Invalid configuration: HOST must be an IP address to listen on (127.0.0.1, 0.0.0.0, ::) or a host name (localhost), got '999.1.1.1'",
    );
    expect(refusal({ HOST: 'http://localhost' })).toContain('HOST must be an IP address');
    for (const host of ['0.0.0.0', '::', '127.0.0.1', 'localhost', 'api.internal']) expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it('numbers, booleans and addresses say their range or form; secrets are not repeated', () => {
    expect(refusal({ PORT: '99999' })).toBe("Invalid configuration: PORT must be a whole number from 0 to 65535, got '99999'");
    expect(refusal({ DOCS_ENABLED: 'maybe' })).toBe("Invalid configuration: DOCS_ENABLED must be true or false, got 'maybe'");
    expect(refusal({ PUBLIC_URL: 'support.example.com' })).toBe(
      "Invalid configuration: PUBLIC_URL must be an http:// or https:// address, got 'support.example.com'",
    );
    const secret = refusal({ SIGNING_SECRET: 'short-secret' });
    expect(secret).toBe('Invalid configuration: SIGNING_SECRET must be at least 32 characters, got a value of 12 characters');
    expect(refusal({ LOG_LEVEL: 'loud', PORT: 'x' })).toBe(
      "Invalid configuration: PORT must be a whole number from 0 to 65535, got 'x'; LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'",
    );
  });

  it('SQLite and PostgreSQL addresses are still accepted', () => {
    for (const url of ['postgres://u:p@h/db', 'postgresql://h/db', 'sqlite:/tmp/x.sqlite', './data/other.sqlite']) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
  });
});

describe('the command line prints them as they are', () => {
  it('ticketing migrate with DATABASE_URL=mysql://… exits 1 with the message, creating nothing', async () => {
    const run = await runMain(['migrate'], { DATABASE_URL: 'mysql://root:hunter2@db/tickets', DATA_DIR: '/nonexistent/ticketing-data' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^ticketing: Invalid configuration: DATABASE_URL must be postgres:\/\/…/);
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stdout).toBe('');
  });
});
