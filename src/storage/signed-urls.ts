import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';

/** How long a signed download address stays valid: an hour. */
export const SIGNED_URL_TTL_SECONDS = 3600;

export interface SignedUrl {
  signed_url: string;
  expires_at: string;
}

/** Makes and checks signed download addresses `{storage_url}/<id>?expires=...&signature=...`. */
export interface UrlSigner {
  /** A signed address for an attachment, valid for an hour from `now` (ms since the epoch). */
  sign(attachmentId: string, now?: number): SignedUrl;
  /** A signed address that expires at `expires` (unix seconds); for tests of expiry. */
  signUntil(attachmentId: string, expires: number): SignedUrl;
  /** True when the signature is this service's and the address has not expired. */
  verify(attachmentId: string, expires: unknown, signature: unknown, now?: number): boolean;
}

const SECRET_FILE = 'signing-secret';

/**
 * The HMAC key: SIGNING_SECRET when set (several processes must share it), else a random key kept
 * in the data directory so addresses already handed out survive a restart.
 */
export function loadSigningSecret(config: Pick<Config, 'signingSecret' | 'dataDir'>): Buffer {
  if (config.signingSecret) return Buffer.from(config.signingSecret, 'utf8');
  mkdirSync(config.dataDir, { recursive: true });
  const path = join(config.dataDir, SECRET_FILE);
  const existing = readSecretFile(path);
  if (existing) return existing;
  // Written whole under a temporary name, then linked into place: linking fails if another
  // process won the race, and a crash never leaves a half-written secret behind.
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(temp, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  const secret = readSecretFile(path);
  if (!secret) throw new Error(`The signing secret in ${path} is empty or unreadable`);
  return secret;
}

function readSecretFile(path: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const secret = Buffer.from(text, 'base64url');
  if (secret.length < 32) throw new Error(`The signing secret in ${path} is shorter than 32 bytes`);
  return secret;
}

export function createUrlSigner(config: Pick<Config, 'signingSecret' | 'dataDir' | 'storageUrl'>): UrlSigner {
  const secret = loadSigningSecret(config);
  const mac = (id: string, expires: number): Buffer => createHmac('sha256', secret).update(`${id}\n${expires}`).digest();

  const signUntil = (id: string, expires: number): SignedUrl => {
    const query = new URLSearchParams({ expires: String(expires), signature: mac(id, expires).toString('base64url') });
    return {
      signed_url: `${config.storageUrl}/${encodeURIComponent(id)}?${query.toString()}`,
      expires_at: new Date(expires * 1000).toISOString(),
    };
  };

  return {
    // Rounded up, so an address is never valid for less than the full hour.
    sign: (id, now = Date.now()) => signUntil(id, Math.ceil(now / 1000) + SIGNED_URL_TTL_SECONDS),
    signUntil,
    verify(id, expires, signature, now = Date.now()) {
      if (typeof expires !== 'string' || typeof signature !== 'string') return false;
      if (!/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
      const at = Number(expires);
      if (at * 1000 <= now) return false;
      // Compared as text: decoding first would accept other spellings of the same bytes.
      const given = Buffer.from(signature, 'latin1');
      const expected = Buffer.from(mac(id, at).toString('base64url'), 'latin1');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
