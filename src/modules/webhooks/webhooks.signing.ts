import { createHmac, randomBytes } from 'node:crypto';
import type { WebhookEndpointRow } from '../../db/types.js';
import { packageInfo } from '../../openapi/package-info.js';
import { toIsoOrNull } from '../../shared/time.js';

/**
 * Standard Webhooks 1.0 (https://www.standardwebhooks.com): a secret is `whsec_` followed by the
 * base64 of random bytes, the HMAC-SHA256 key is those bytes, and a delivery carries
 *
 *   webhook-id:        the message id (here: the event id, the same on every retry)
 *   webhook-timestamp: seconds since the epoch when this attempt was sent
 *   webhook-signature: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, space-separated when
 *                      several secrets are valid at once (during a secret rotation)
 *
 * so receivers verify it with any Standard Webhooks library, or a few lines of their own.
 */

const PREFIX = 'whsec_';
/** 32 random bytes: the standard asks for 24 to 64. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** One `v1,<signature>` for each secret, space-separated. */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** The headers of one delivery attempt, signed with every secret valid now. */
export function webhookHeaders(secrets: readonly string[], id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  };
}

const USER_AGENT = `ticketing-webhooks/${packageInfo().version}`;

/**
 * The headers of an attempt to the endpoint at `at`: signed with its secret, and with the previous
 * one too while a rotation's grace period lasts, so either verifies.
 */
export function deliveryHeaders(
  endpoint: Pick<WebhookEndpointRow, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>,
  id: string,
  body: string,
  at: Date,
): Record<string, string> {
  const rotation = toIsoOrNull(endpoint.previous_secret_expires_at);
  const secrets = [endpoint.secret];
  if (endpoint.previous_secret !== null && rotation !== null && Date.parse(rotation) > at.getTime()) secrets.push(endpoint.previous_secret);
  return { ...webhookHeaders(secrets, id, body, at), 'user-agent': USER_AGENT };
}
