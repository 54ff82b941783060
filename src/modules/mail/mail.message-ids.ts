import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';
import { loadSigningSecret } from '../../storage/signed-urls.js';

/**
 * Our own Message-IDs carry the ticket they belong to and an HMAC over it, so a reply naming one
 * in In-Reply-To or References is threaded without a lookup and cannot be forged to land in
 * another ticket: `<tkt.{ticket}.{nonce}.{signature}@{MAIL_DOMAIN}>`. The key is derived from the
 * installation's signing secret (the one signed download addresses use), under its own label, so
 * the two never share a key.
 */
export interface MessageIds {
  /** A new Message-ID (without angle brackets) for mail about the ticket. */
  create(ticketId: string): string;
  /** The ticket a Message-ID of ours names, or null when it is not ours (or was tampered with). */
  ticketOf(messageId: string): string | null;
}

const uuidBytes = (id: string): Buffer => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (bytes: Buffer): string => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

export function createMessageIds(config: Pick<Config, 'signingSecret' | 'dataDir'> & { mail: { domain: string } }): MessageIds {
  const key = createHmac('sha256', loadSigningSecret(config)).update('mail message-id v1').digest();
  const mac = (ticket: string, nonce: string) => createHmac('sha256', key).update(`${ticket}.${nonce}`).digest().subarray(0, 16);
  return {
    create(ticketId) {
      const ticket = uuidBytes(ticketId).toString('base64url');
      const nonce = randomBytes(9).toString('base64url');
      return `tkt.${ticket}.${nonce}.${mac(ticket, nonce).toString('base64url')}@${config.mail.domain}`;
    },
    ticketOf(messageId) {
      const match = /^tkt\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{22})@/.exec(messageId);
      if (!match) return null;
      const [, ticket, nonce, signature] = match as unknown as [string, string, string, string];
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== 16 || !timingSafeEqual(given, mac(ticket, nonce))) return null;
      return uuidOf(Buffer.from(ticket, 'base64url'));
    },
  };
}
