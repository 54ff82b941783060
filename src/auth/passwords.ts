import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** Password length limits (docs/api-behaviour.md, "Signing in"). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * scrypt cost for new hashes: N=2^15, r=8, p=1 (32 MiB, tens of milliseconds), a 16-byte salt and
 * a 32-byte key. The parameters are stored with each hash (`scrypt$N$r$p$salt$hash`), so raising
 * them later leaves existing passwords valid.
 */
const COST = { N: 32_768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is just too low for N=2^15.
  const maxmem = 256 * options.N! * options.r! + 1024 * 1024;
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** A new hash of `password`, with a fresh salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

let dummy: Promise<string> | undefined;

/**
 * True when `password` matches `stored`. With no stored hash (no such user, or one without a
 * password) it checks against a dummy hash of the same cost and answers false, so a failed
 * sign-in takes as long whether or not the account exists.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const hash = stored ?? (await (dummy ??= hashPassword(randomBytes(18).toString('base64url'))));
  const [scheme, n, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== null && stored !== undefined;
}
