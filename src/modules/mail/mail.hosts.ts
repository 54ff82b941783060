import { isIP } from 'node:net';
import { urlProblem } from '../webhooks/webhooks.target.js';

/**
 * Mail servers follow the webhook address rules (docs/api-behaviour.md#webhooks): a client picks
 * the host and the service connects to it from inside its network, so loopback, private,
 * link-local and metadata addresses are refused unless MAIL_ALLOW_PRIVATE=true. Judged here
 * without resolving the name; the connection itself goes through a vetted lookup.
 */
export function mailHostProblem(host: string, allowPrivate: boolean): string | null {
  const written = isIP(host) === 6 ? `[${host}]` : host;
  let url: URL;
  try {
    url = new URL(`https://${written}`);
  } catch {
    return 'must be a host name or an IP address';
  }
  // Anything but a bare host (a port, a path, a user name) shows up as a difference here.
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  if (bare !== host.toLowerCase() || url.port !== '' || url.pathname !== '/') return 'must be a host name or an IP address, without a port or path';
  const problem = urlProblem(url, allowPrivate);
  return problem === null ? null : `${problem}; a mail server on your own network needs MAIL_ALLOW_PRIVATE=true`;
}
