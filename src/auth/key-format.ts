import { hash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** The API key's format: generating a key of a role, its checksum, its hash (what the store keeps). */

export type KeyRole = 'admin' | 'readonly';

const PREFIX: Record<KeyRole, string> = { admin: 'key_admin_', readonly: 'key_ro_' };
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^(key_admin_|key_ro_)([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62]! + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export interface GeneratedKey {
  key: string;
  hash: string;
  prefix: string;
}

/**
 * A new key: type prefix, 32 random base62 characters (about 190 bits), and a 6-character CRC32
 * checksum, so scanners can recognise a leaked key and typos are rejected without a lookup.
 */
export function generateApiKey(role: KeyRole): GeneratedKey {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i++) secret += BASE62[randomInt(62)];
  const body = PREFIX[role] + secret;
  const key = body + checksum(body);
  return { key, hash: hashApiKey(key), prefix: PREFIX[role] + secret.slice(0, 6) };
}

/** Only this hash is stored. The secret is high-entropy, so a fast hash is enough. */
// One-shot: no Hash object per request (it runs on every authenticated request).
export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

/** True when the string has the shape of one of our keys and its checksum holds. */
export function isWellFormedApiKey(key: string): boolean {
  const match = KEY_PATTERN.exec(key);
  return match !== null && checksum(match[1]! + match[2]!) === match[3];
}

export const roleOfKey = (key: string): KeyRole => (key.startsWith(PREFIX.admin) ? 'admin' : 'readonly');
